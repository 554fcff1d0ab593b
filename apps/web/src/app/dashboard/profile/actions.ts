'use server';

import { revalidatePath } from 'next/cache';
import { failed, succeeded, text, type ActionResult } from '~/server/action-result';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';

const PATH = '/dashboard/profile';

/** Every user edits their own name and email through the same procedure as the API. */
export async function saveProfile(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  const { userId } = await requirePrincipal(PATH);
  try {
    await caller.users.update({ userId, name: text(form, 'name'), email: text(form, 'email') });
    revalidatePath('/dashboard', 'layout');
    return succeeded('Profile saved.');
  } catch (error) {
    return failed(error, form);
  }
}

export async function changePassword(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  const { userId } = await requirePrincipal(PATH);
  if (text(form, 'password') !== text(form, 'confirm')) {
    return {
      error: 'The two passwords differ.',
      fields: { confirm: 'Does not match the new password.' },
      at: Date.now(),
    };
  }
  try {
    await caller.users.update({ userId, password: text(form, 'password') });
    return succeeded('Password changed.');
  } catch (error) {
    return failed(error);
  }
}
