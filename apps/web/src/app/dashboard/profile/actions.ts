'use server';

import { redirect } from 'next/navigation';
import { text, type ActionResult } from '~/server/action-result';
import { act } from '~/server/action';
import { requirePrincipal } from '~/server/dashboard';
import { signInPath } from '~/server/return-path';
import { passwordsDiffer } from './passwords-differ';

const PATH = '/dashboard/profile';

/**
 * Every user edits their own name and email through the same procedure as the API; a new email
 * needs the current password (docs/security.md), a new name does not.
 */
export async function saveProfile(_: ActionResult, form: FormData): Promise<ActionResult> {
  const { userId } = await requirePrincipal(PATH);
  const currentPassword = text(form, 'currentPassword') || undefined;
  // Pages across the dashboard show a user's name (users, posts' activity).
  return act({ path: PATH, shows: { layout: '/dashboard' } }, async (caller) => {
    await caller.users.update({
      userId,
      name: text(form, 'name'),
      email: text(form, 'email'),
      currentPassword,
    });
    return 'Profile saved.';
  });
}

/**
 * A new password ends every session of the user, this one too (docs/security.md): once it is
 * changed, the browser goes to sign in, whose page says why, and comes back here.
 */
export async function changePassword(_: ActionResult, form: FormData): Promise<ActionResult> {
  const { userId } = await requirePrincipal(PATH);
  // The browser says it first; a form sent some other way is still refused.
  const differ = passwordsDiffer(form);
  if (differ) return { ...differ, at: Date.now() };
  const answer = await act({ path: PATH, shows: false }, async (caller) => {
    await caller.users.update({
      userId,
      password: text(form, 'password'),
      currentPassword: text(form, 'currentPassword'),
    });
    return 'Password changed.';
  });
  // Outside the action's try: a redirect is thrown, and must not read as a refusal.
  if (answer.ok) redirect(`${signInPath(PATH)}&reason=password-changed`);
  return answer;
}
