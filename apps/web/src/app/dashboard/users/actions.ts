'use server';

import { text, type ActionResult } from '~/server/action-result';
import { act } from '~/server/action';

const PATH = '/dashboard/users';
const role = (form: FormData) => (text(form, 'role') === 'admin' ? 'admin' : 'user');

export async function createUser(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act({ path: PATH }, async (caller) => {
    const user = await caller.users.create({
      name: text(form, 'name'),
      email: text(form, 'email'),
      password: text(form, 'password'),
      role: role(form),
    });
    return `${user.name} can now sign in as ${user.email}.`;
  });
}

export async function updateUser(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act({ path: PATH }, async (caller) => {
    const user = await caller.users.update({
      userId: text(form, 'id'),
      name: text(form, 'name'),
      email: text(form, 'email'),
      role: role(form),
      settings: { notifications: form.get('notifications') === 'on' },
      // Sent only by the dialog of the signed-in admin's own row, with a new email.
      currentPassword: text(form, 'currentPassword') || undefined,
    });
    return `Saved ${user.name}.`;
  });
}

export async function deleteUser(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act({ path: PATH }, async (caller) => {
    await caller.users.delete({ userId: text(form, 'userId') });
    return `Deleted ${text(form, 'name')}.`;
  });
}

/** An admin's reset of a member's lost authenticator: they sign in with their password alone. */
export async function turnOffTwoFactor(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act({ path: PATH }, async (caller) => {
    await caller.users.update({
      userId: text(form, 'userId'),
      settings: { twoFactorAuth: false },
    });
    return `${text(form, 'name')} signs in with their password alone until they turn two-factor on again.`;
  });
}
