'use server';

import type { Scope } from '@chorus/validators';
import { failed, succeeded, text, type ActionResult } from '~/server/action-result';
import { act, rethrow } from '~/server/action';

const PATH = '/dashboard/oauth-apps';

/** A registration's answer: the new client's id, and its secret (a public client has none). */
export type RegisterAppResult = ActionResult & { clientId?: string };

export async function createApp(_: RegisterAppResult, form: FormData): Promise<RegisterAppResult> {
  return act<RegisterAppResult>(
    { path: PATH, refused: (error) => failed(error) },
    async (caller) => {
      const { client, clientSecret } = await caller.oauthClients.create({
        name: text(form, 'name'),
        redirectUris: text(form, 'redirectUris').split(/\s+/).filter(Boolean),
        // Checked against the scope names by the procedure's input schema.
        scopes: form.getAll('scopes').map(String) as Scope[],
        confidential: form.get('type') !== 'public',
      });
      return {
        ...succeeded(`Registered “${client.name}”.`),
        clientId: client.id,
        secret: clientSecret ?? undefined,
      };
    },
  );
}

export async function rotateSecret(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act({ path: PATH }, async (caller) => {
    const { client, clientSecret } = await caller.oauthClients.rotateSecret({
      clientId: text(form, 'clientId'),
    });
    return { ...succeeded(`Rotated the secret of “${client.name}”.`), secret: clientSecret };
  });
}

export async function deleteApp(form: FormData): Promise<void> {
  await act({ path: PATH, refused: rethrow }, async (caller) => {
    await caller.oauthClients.delete({ clientId: String(form.get('clientId') ?? '') });
  });
}
