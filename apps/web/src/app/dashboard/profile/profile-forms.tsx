'use client';

import type { User } from '@chorus/validators';
import { Field } from '~/components/field';
import { useFormAction } from '~/components/use-form-action';
import { changePassword, saveProfile } from './actions';
import { passwordsDiffer } from './passwords-differ';

export function ProfileForm({ user }: { user: User }) {
  const { result, form, pending } = useFormAction(saveProfile);
  return (
    <form {...form} className="form">
      <Field
        label="Name"
        name="name"
        required
        maxLength={200}
        defaultValue={user.name}
        error={result.fields?.name}
      />
      <Field
        label="Email"
        name="email"
        type="email"
        required
        defaultValue={user.email}
        error={result.fields?.email}
      />
      <Field
        label="Current password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        hint="Needed to change your email."
        error={result.fields?.currentPassword}
      />
      <button type="submit" className="primary" disabled={pending}>
        Save profile
      </button>
    </form>
  );
}

/**
 * The new password, twice. Two that differ are said at once, before anything is sent; a change
 * made ends every session (docs/security.md), and the action sends the browser to sign in.
 */
export function PasswordForm() {
  const { result, form, pending } = useFormAction(changePassword, { prepare: passwordsDiffer });
  return (
    <form {...form} className="form">
      <Field
        label="Current password"
        name="currentPassword"
        type="password"
        required
        autoComplete="current-password"
        error={result.fields?.currentPassword}
      />
      <Field
        label="New password"
        name="password"
        type="password"
        required
        minLength={8}
        autoComplete="new-password"
        hint="At least 8 characters."
        error={result.fields?.password}
      />
      <Field
        label="Repeat the new password"
        name="confirm"
        type="password"
        required
        autoComplete="new-password"
        error={result.fields?.confirm}
      />
      <button type="submit" className="primary" disabled={pending}>
        Change password
      </button>
    </form>
  );
}
