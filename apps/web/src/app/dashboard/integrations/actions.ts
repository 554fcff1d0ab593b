'use server';

import { redirect } from 'next/navigation';
import { succeeded, text, type ActionResult } from '~/server/action-result';
import { act } from '~/server/action';

const PATH = '/dashboard/integrations';

/**
 * OAuth platforms: the browser goes to the provider, which returns it to our callback, which
 * sends it back here with `status` and `provider` (and `error`): the connection's default
 * return, on this service's own origin (CHORUS_PUBLIC_URL when set; docs/integrations.md).
 * API-key platforms connect now.
 */
export async function connect(_: ActionResult, form: FormData): Promise<ActionResult> {
  let authUrl: string | undefined;
  const answer = await act({ path: PATH }, async (caller) => {
    const apiKey = text(form, 'apiKey');
    const handle = text(form, 'handle').trim();
    const serviceUrl = text(form, 'serviceUrl').trim();
    const result = await caller.integrations.connect({
      integrationId: text(form, 'integrationId'),
      apiKey: apiKey || undefined,
      handle: handle || undefined,
      serviceUrl: serviceUrl || undefined,
    });
    if (result.status === 'pending') authUrl = result.authUrl;
    return succeeded(`Connected ${text(form, 'name')}.`);
  });
  // Outside the action's try: a redirect is thrown, and must not read as a refusal.
  if (authUrl) redirect(authUrl);
  return answer;
}

export async function disconnect(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act({ path: PATH }, async (caller) => {
    await caller.integrations.disconnect({ integrationId: text(form, 'integrationId') });
    return `Disconnected ${text(form, 'name')}.`;
  });
}
