'use client';

import { useActionState, useState, useTransition, type MouseEvent } from 'react';
import { keepFocusFrom } from '~/components/focus-return';
import {
  beginEnrollment,
  confirmEnrollment,
  disableTwoFactor,
  type CodeState,
  type EnrollState,
} from './actions';

/**
 * Each button here is replaced by what it does (the QR code, then the other form): focus goes
 * to the section's heading, from where the new content is read next, not to the page's top.
 */
const keepFocus = (event: MouseEvent<HTMLElement>) =>
  keepFocusFrom(event.currentTarget, () => document.getElementById('two-factor-heading'));

function CodeField() {
  return (
    <label>
      Code from your app
      <input
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        required
      />
    </label>
  );
}

/** Turn on: scan the QR code, then prove it with a code. */
export function EnrollTwoFactor() {
  const [enrollment, setEnrollment] = useState<EnrollState>({});
  const [starting, start] = useTransition();
  const [state, confirm, pending] = useActionState<CodeState, FormData>(confirmEnrollment, {});
  if (!enrollment.secret) {
    return (
      <>
        {enrollment.error && <p className="error">{enrollment.error}</p>}
        <button
          className="primary"
          type="button"
          disabled={starting}
          onClick={(event) => {
            keepFocus(event);
            start(async () => setEnrollment(await beginEnrollment()));
          }}
        >
          Turn on two-factor authentication
        </button>
      </>
    );
  }
  return (
    <div className="form">
      <p>Scan this QR code with an authenticator app (1Password, Google Authenticator, …).</p>
      <img
        className="qr"
        src={enrollment.qr}
        alt="QR code for your authenticator app"
        width={220}
        height={220}
      />
      <p className="muted">
        Or enter this key by hand: <code data-testid="totp-secret">{enrollment.secret}</code>
      </p>
      <form action={confirm} className="form">
        <CodeField />
        {state.error && (
          <p className="error" role="alert">
            {state.error}
          </p>
        )}
        <button className="primary" type="submit" disabled={pending} onClick={keepFocus}>
          Confirm and turn on
        </button>
      </form>
    </div>
  );
}

/** Turn off: a current code, so that a session left open is not enough. */
export function DisableTwoFactor() {
  const [state, action, pending] = useActionState<CodeState, FormData>(disableTwoFactor, {});
  return (
    <form action={action} className="form">
      <CodeField />
      {state.error && (
        <p className="error" role="alert">
          {state.error}
        </p>
      )}
      <button className="danger" type="submit" disabled={pending} onClick={keepFocus}>
        Turn off
      </button>
    </form>
  );
}
