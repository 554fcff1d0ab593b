'use client';

import { signIn } from 'next-auth/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';

const MESSAGES: Record<string, string> = {
  invalid_credentials: 'The email or password is not right.',
  CredentialsSignin: 'The email or password is not right.',
  invalid_code: 'That code is not valid. Enter the current code from your app.',
  too_many_codes: 'Too many wrong codes. Sign in again with your password.',
};

/** `throttled:<epoch seconds>`: too many failures; says when signing in works again. */
function throttledMessage(error: string): string | null {
  const match = /^throttled:(\d+)$/.exec(error);
  if (!match) return null;
  const at = new Date(Number(match[1]) * 1000);
  return `Too many failed sign-ins. Try again after ${at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}.`;
}

/** Email and password, then (for users with two-factor authentication) the TOTP code. */
export function SignInForm({ returnTo }: { returnTo: string }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Until React has hydrated the form, the button stays disabled (which also stops the Enter
  // key's implicit submission): a native submit would reach no handler, and the password must
  // never travel anywhere but signIn's POST. What was typed meanwhile is kept.
  const [hydrated, setHydrated] = useState(false);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    setEmail(emailInput.current?.value ?? '');
    setPassword(passwordInput.current?.value ?? '');
    setHydrated(true);
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const result = await signIn('credentials', {
      redirect: false,
      email,
      password,
      code: needsCode ? code : '',
    });
    setBusy(false);
    if (result?.ok && !result.error) {
      // A full navigation: the next page (or /oauth/authorize) reads the new session cookie.
      window.location.assign(returnTo);
      return;
    }
    if (result?.error === 'code_required') {
      setNeedsCode(true);
      return;
    }
    const reason = result?.error ?? '';
    if (reason === 'too_many_codes') {
      setNeedsCode(false);
      setCode('');
      setPassword('');
    }
    setError(MESSAGES[reason] ?? throttledMessage(reason) ?? 'Sign-in failed; try again.');
  }

  return (
    <form className="panel form" method="post" onSubmit={submit}>
      {!needsCode ? (
        <>
          <label>
            Email
            <input
              name="email"
              ref={emailInput}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </label>
          <label>
            Password
            <input
              name="password"
              ref={passwordInput}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
        </>
      ) : (
        <label>
          Authentication code
          <span className="muted">Enter the 6-digit code from your authenticator app.</span>
          <input
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            required
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </label>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button className="primary" type="submit" disabled={busy || !hydrated}>
        {needsCode ? 'Verify' : 'Sign in'}
      </button>
    </form>
  );
}
