'use client';

import { useState, useTransition, type MouseEvent } from 'react';
import { Field } from '~/components/field';
import { keepFocusFrom } from '~/components/focus-return';
import { useFormAction } from '~/components/use-form-action';
import type { ActionResult } from '~/server/action-result';
import { beginEnrollment, confirmEnrollment, disableTwoFactor, type EnrollState } from './actions';

/**
 * Each button here is replaced by what it does (the QR code, then the other form): focus goes
 * to the section's heading, from where the new content is read next, not to the page's top.
 */
const heading = () => document.getElementById('two-factor-heading');
const keepFocus = (event: MouseEvent<HTMLElement>) => keepFocusFrom(event.currentTarget, heading);

/** A form asking for the current code: a refused one stays typed, its refusal beside it. */
function CodeForm({
  action,
  submit,
  tone,
}: {
  action: (state: ActionResult, form: FormData) => Promise<ActionResult>;
  submit: string;
  tone: 'primary' | 'danger';
}) {
  const { result, form, pending } = useFormAction(action, { focusAfter: heading });
  const error = result.fields?.code;
  return (
    <form {...form} className="form">
      <Field
        label="Code from your app"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        required
        error={error}
      />
      {result.error && !error && (
        <p className="error" role="alert">
          {result.error}
        </p>
      )}
      <button className={tone} type="submit" disabled={pending}>
        {submit}
      </button>
    </form>
  );
}

/** Turn on: scan the QR code, then prove it with a code. */
export function EnrollTwoFactor() {
  const [enrollment, setEnrollment] = useState<EnrollState>({});
  const [starting, start] = useTransition();
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
      <CodeForm action={confirmEnrollment} submit="Confirm and turn on" tone="primary" />
    </div>
  );
}

/** Turn off: a current code, so that a session left open is not enough. */
export function DisableTwoFactor() {
  return <CodeForm action={disableTwoFactor} submit="Turn off" tone="danger" />;
}
