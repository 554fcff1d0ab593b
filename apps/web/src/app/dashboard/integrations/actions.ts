'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { failed, succeeded, text, type ActionResult } from '~/server/action-result';
import { dashboardCaller } from '~/server/dashboard';

const PATH = '/dashboard/integrations';

/**
 * OAuth platforms: the browser goes to the provider, which returns it to our callback, which
 * sends it back here with `status` and `provider` (and `error`). API-key platforms connect now.
 */
export async function connect(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  const host = (await headers()).get('host') ?? 'localhost';
  let authUrl: string | undefined;
  try {
    const apiKey = text(form, 'apiKey');
    const handle = text(form, 'handle').trim();
    const serviceUrl = text(form, 'serviceUrl').trim();
    const result = await caller.integrations.connect({
      integrationId: text(form, 'integrationId'),
      apiKey: apiKey || undefined,
      handle: handle || undefined,
      serviceUrl: serviceUrl || undefined,
      redirectUrl: `http://${host}${PATH}`,
    });
    if (result.status === 'pending') authUrl = result.authUrl;
  } catch (error) {
    return failed(error, form);
  }
  if (authUrl) redirect(authUrl);
  revalidatePath(PATH);
  return succeeded(`Connected ${text(form, 'name')}.`);
}

export async function disconnect(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  try {
    await caller.integrations.disconnect({ integrationId: text(form, 'integrationId') });
    revalidatePath(PATH);
    return succeeded(`Disconnected ${text(form, 'name')}.`);
  } catch (error) {
    return failed(error);
  }
}
