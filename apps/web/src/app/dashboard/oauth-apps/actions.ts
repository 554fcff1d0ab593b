'use server';

import type { Scope } from '@chorus/validators';
import { act, rethrow } from '~/server/action';
import { refusal } from '~/server/form-errors';

const PATH = '/dashboard/oauth-apps';

export type AppSecretState = { clientId?: string; secret?: string | null; error?: string };

export async function createApp(_: AppSecretState, form: FormData): Promise<AppSecretState> {
  return act<AppSecretState>({ path: PATH, refused: refusal }, async (caller) => {
    const { client, clientSecret } = await caller.oauthClients.create({
      name: String(form.get('name') ?? ''),
      redirectUris: String(form.get('redirectUris') ?? '')
        .split(/\s+/)
        .filter(Boolean),
      // Checked against the scope names by the procedure's input schema.
      scopes: form.getAll('scopes').map(String) as Scope[],
      confidential: form.get('type') !== 'public',
    });
    return { clientId: client.id, secret: clientSecret };
  });
}

export async function rotateSecret(_: AppSecretState, form: FormData): Promise<AppSecretState> {
  return act<AppSecretState>({ path: PATH, refused: refusal }, async (caller) => {
    const { client, clientSecret } = await caller.oauthClients.rotateSecret({
      clientId: String(form.get('clientId') ?? ''),
    });
    return { clientId: client.id, secret: clientSecret };
  });
}

export async function deleteApp(form: FormData): Promise<void> {
  await act({ path: PATH, refused: rethrow }, async (caller) => {
    await caller.oauthClients.delete({ clientId: String(form.get('clientId') ?? '') });
  });
}
