'use server';

import type { Scope } from '@chorus/validators';
import { revalidatePath } from 'next/cache';
import { dashboardCaller } from '~/server/dashboard';
import { formError } from '~/server/form-errors';

const PATH = '/dashboard/oauth-apps';

export type AppSecretState = { clientId?: string; secret?: string | null; error?: string };

export async function createApp(_: AppSecretState, form: FormData): Promise<AppSecretState> {
  const caller = await dashboardCaller(PATH);
  try {
    const { client, clientSecret } = await caller.oauthClients.create({
      name: String(form.get('name') ?? ''),
      redirectUris: String(form.get('redirectUris') ?? '')
        .split(/\s+/)
        .filter(Boolean),
      // Checked against the scope names by the procedure's input schema.
      scopes: form.getAll('scopes').map(String) as Scope[],
      confidential: form.get('type') !== 'public',
    });
    revalidatePath(PATH);
    return { clientId: client.id, secret: clientSecret };
  } catch (error) {
    return { error: formError(error) };
  }
}

export async function rotateSecret(_: AppSecretState, form: FormData): Promise<AppSecretState> {
  const caller = await dashboardCaller(PATH);
  try {
    const { client, clientSecret } = await caller.oauthClients.rotateSecret({
      clientId: String(form.get('clientId') ?? ''),
    });
    revalidatePath(PATH);
    return { clientId: client.id, secret: clientSecret };
  } catch (error) {
    return { error: formError(error) };
  }
}

export async function deleteApp(form: FormData): Promise<void> {
  const caller = await dashboardCaller(PATH);
  await caller.oauthClients.delete({ clientId: String(form.get('clientId') ?? '') });
  revalidatePath(PATH);
}
