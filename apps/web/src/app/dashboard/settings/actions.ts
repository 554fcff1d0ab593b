'use server';

import { text, type ActionResult } from '~/server/action-result';
import { act } from '~/server/action';

const PATH = '/dashboard/settings';

/** Admins change the account's settings through the same procedure as the API. */
export async function saveSettings(_: ActionResult, form: FormData): Promise<ActionResult> {
  // Pages across the dashboard follow the settings (the composer's approval, the time zone).
  return act({ path: PATH, shows: { layout: '/dashboard' } }, async (caller) => {
    await caller.account.updateSettings({
      requireApproval: form.get('requireApproval') === 'on',
      timeZone: text(form, 'timeZone').trim(),
    });
    return 'Settings saved.';
  });
}
