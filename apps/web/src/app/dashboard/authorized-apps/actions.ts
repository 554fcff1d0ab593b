'use server';

import { text, type ActionResult } from '~/server/action-result';
import { act } from '~/server/action';

const PATH = '/dashboard/authorized-apps';

export async function revokeApp(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act({ path: PATH }, async (caller) => {
    await caller.authorizedApps.revoke({ clientId: text(form, 'clientId') });
    return `${text(form, 'name')} no longer has access.`;
  });
}
