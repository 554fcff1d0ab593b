'use server';

import { revalidatePath } from 'next/cache';
import { failed, succeeded, text, type ActionResult } from '~/server/action-result';
import { dashboardCaller } from '~/server/dashboard';

const PATH = '/dashboard/users';
const role = (form: FormData) => (text(form, 'role') === 'admin' ? 'admin' : 'user');

export async function createUser(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  try {
    const user = await caller.users.create({
      name: text(form, 'name'),
      email: text(form, 'email'),
      password: text(form, 'password'),
      role: role(form),
    });
    revalidatePath(PATH);
    return succeeded(`${user.name} can now sign in as ${user.email}.`);
  } catch (error) {
    return failed(error, form);
  }
}

export async function updateUser(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  try {
    const user = await caller.users.update({
      userId: text(form, 'id'),
      name: text(form, 'name'),
      email: text(form, 'email'),
      role: role(form),
      settings: { notifications: form.get('notifications') === 'on' },
    });
    revalidatePath(PATH);
    return succeeded(`Saved ${user.name}.`);
  } catch (error) {
    return failed(error, form);
  }
}

export async function deleteUser(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  try {
    await caller.users.delete({ userId: text(form, 'userId') });
    revalidatePath(PATH);
    return succeeded(`Deleted ${text(form, 'name')}.`);
  } catch (error) {
    return failed(error, form);
  }
}
