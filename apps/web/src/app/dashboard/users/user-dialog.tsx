'use client';

import type { User } from '@chorus/validators';
import { useState } from 'react';
import { Dialog, DialogActions } from '~/components/dialog';
import { Field, SelectField } from '~/components/field';
import { useFormAction } from '~/components/use-form-action';
import { createUser, updateUser } from './actions';

/** Emails compare as the API compares them: in any letter case. */
const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

const ROLES = [
  { value: 'user', label: 'User' },
  { value: 'admin', label: 'Admin' },
] as const;

/**
 * Create a user (no `user`) or edit one; a refusal shows beside its field until that field is
 * edited, and everything typed is kept, the password too. Editing oneself (`self`), a new email
 * asks for the current password, as the Profile page does: the API wants it of a session
 * changing its own sign-in.
 */
export function UserDialog({ user, self = false }: { user?: User; self?: boolean }) {
  const [open, setOpen] = useState(false);
  // The email as typed: editing oneself, a new one asks for the current password.
  const [email, setEmail] = useState(user?.email ?? '');
  const { result, form, pending, reset } = useFormAction(user ? updateUser : createUser, {
    onSuccess: () => setOpen(false),
  });
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) setEmail(user?.email ?? '');
    else reset();
  };
  const fields = result.fields ?? {};
  const asksPassword = self && (!!fields.currentPassword || !sameEmail(email, user?.email ?? ''));
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={user ? `Edit ${user.name}` : 'Create a user'}
      description={user ? user.email : 'They sign in with this email and password.'}
      trigger={
        user ? (
          <button type="button" aria-label={`Edit ${user.name}`}>
            Edit
          </button>
        ) : (
          <button type="button" className="primary">
            Create user
          </button>
        )
      }
    >
      <form {...form} className="form">
        {user && <input type="hidden" name="id" value={user.id} />}
        <Field
          label="Name"
          name="name"
          required
          maxLength={200}
          defaultValue={user?.name}
          error={fields.name}
        />
        <Field
          label="Email"
          name="email"
          type="email"
          required
          defaultValue={user?.email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          error={fields.email}
        />
        {asksPassword && (
          <Field
            label="Current password"
            name="currentPassword"
            type="password"
            required
            autoComplete="current-password"
            hint="Your own email: your password confirms the change."
            error={fields.currentPassword}
          />
        )}
        {!user && (
          <Field
            label="Password"
            name="password"
            type="password"
            required
            minLength={8}
            autoComplete="new-password"
            hint="At least 8 characters."
            error={fields.password}
          />
        )}
        <SelectField
          label="Role"
          name="role"
          options={ROLES}
          defaultValue={user?.role ?? 'user'}
          error={fields.role}
        />
        {user && (
          <label className="check">
            <input
              type="checkbox"
              name="notifications"
              defaultChecked={user.settings.notifications}
            />
            Email notifications
          </label>
        )}
        {result.error && !Object.keys(fields).length && (
          <p className="error" role="alert">
            {result.error}
          </p>
        )}
        <DialogActions submit={user ? 'Save' : 'Create user'} pending={pending} />
      </form>
    </Dialog>
  );
}
