'use server';

import { revalidatePath } from 'next/cache';
import { failed, succeeded, text, type ActionResult } from '~/server/action-result';
import { dashboardCaller } from '~/server/dashboard';

const PATH = '/dashboard/settings';

/** Admins change the account's settings through the same procedure as the API. */
export async function saveSettings(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  try {
    await caller.account.updateSettings({
      requireApproval: form.get('requireApproval') === 'on',
      timeZone: text(form, 'timeZone').trim(),
    });
    revalidatePath('/dashboard', 'layout');
    return succeeded('Settings saved.');
  } catch (error) {
    return failed(error, form);
  }
}
