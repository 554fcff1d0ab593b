'use server';

import { revalidatePath } from 'next/cache';
import { failed, succeeded, text, type ActionResult } from '~/server/action-result';
import { dashboardCaller } from '~/server/dashboard';

const PATH = '/dashboard/authorized-apps';

export async function revokeApp(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  try {
    await caller.authorizedApps.revoke({ clientId: text(form, 'clientId') });
    revalidatePath(PATH);
    return succeeded(`${text(form, 'name')} no longer has access.`);
  } catch (error) {
    return failed(error);
  }
}
