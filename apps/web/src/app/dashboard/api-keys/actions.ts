'use server';

import type { Scope } from '@chorus/validators';
import { failed, succeeded, text, type ActionResult } from '~/server/action-result';
import { act, rethrow } from '~/server/action';

const PATH = '/dashboard/api-keys';

/** A new key's answer: its secret, shown this once, and its name, to say whose secret it is. */
export type CreateKeyResult = ActionResult & { name?: string };

/** An expiry date (YYYY-MM-DD) means the key works through that day, UTC. */
const endOfDay = (date: string) => `${date}T23:59:59.999Z`;

export async function createKey(_: CreateKeyResult, form: FormData): Promise<CreateKeyResult> {
  const expires = text(form, 'expiresAt');
  return act<CreateKeyResult>({ path: PATH, refused: (error) => failed(error) }, async (caller) => {
    const { apiKey, secret } = await caller.apiKeys.create({
      name: text(form, 'name'),
      // Checked against the scope names by the procedure's input schema.
      scopes: form.getAll('scopes').map(String) as Scope[],
      environment: form.get('environment') === 'test' ? 'test' : 'live',
      expiresAt: /^\d{4}-\d{2}-\d{2}$/.test(expires) ? endOfDay(expires) : undefined,
    });
    return { ...succeeded(`Created the key “${apiKey.name}”.`), secret, name: apiKey.name };
  });
}

export async function revokeKey(form: FormData): Promise<void> {
  await act({ path: PATH, refused: rethrow }, async (caller) => {
    await caller.apiKeys.revoke({ keyId: String(form.get('keyId') ?? '') });
  });
}
