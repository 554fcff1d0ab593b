'use server';

import type { Scope } from '@chorus/validators';
import { act, rethrow } from '~/server/action';
import { refusal } from '~/server/form-errors';

const PATH = '/dashboard/api-keys';

export type CreateKeyState = { secret?: string; name?: string; error?: string };

/** An expiry date (YYYY-MM-DD) means the key works through that day, UTC. */
const endOfDay = (date: string) => `${date}T23:59:59.999Z`;

export async function createKey(_: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  const expires = String(form.get('expiresAt') ?? '');
  return act<CreateKeyState>({ path: PATH, refused: refusal }, async (caller) => {
    const { apiKey, secret } = await caller.apiKeys.create({
      name: String(form.get('name') ?? ''),
      // Checked against the scope names by the procedure's input schema.
      scopes: form.getAll('scopes').map(String) as Scope[],
      environment: form.get('environment') === 'test' ? 'test' : 'live',
      expiresAt: /^\d{4}-\d{2}-\d{2}$/.test(expires) ? endOfDay(expires) : undefined,
    });
    return { secret, name: apiKey.name };
  });
}

export async function revokeKey(form: FormData): Promise<void> {
  await act({ path: PATH, refused: rethrow }, async (caller) => {
    await caller.apiKeys.revoke({ keyId: String(form.get('keyId') ?? '') });
  });
}
