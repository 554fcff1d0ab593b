'use server';

import { redirect } from 'next/navigation';
import QRCode from 'qrcode';
import { act } from '~/server/action';
import { dashboardCaller } from '~/server/dashboard';
import { refusal } from '~/server/form-errors';

const PATH = '/dashboard/security';

export type EnrollState = { secret?: string; qr?: string; error?: string };
export type CodeState = { done?: boolean; error?: string };

/** A new secret, as a QR code (drawn here, on the server) and as text for manual entry. */
export async function beginEnrollment(): Promise<EnrollState> {
  // Nothing shows until the code confirms it.
  return act<EnrollState>({ path: PATH, shows: false, refused: refusal }, async (caller) => {
    const { secret, otpauthUri } = await caller.twoFactor.begin();
    const qr = await QRCode.toDataURL(otpauthUri, { margin: 1, width: 220 });
    return { secret, qr };
  });
}

export async function confirmEnrollment(_: CodeState, form: FormData): Promise<CodeState> {
  return act<CodeState>({ path: PATH, refused: refusal }, async (caller) => {
    await caller.twoFactor.confirm({ code: String(form.get('code') ?? '') });
    return { done: true };
  });
}

export async function disableTwoFactor(_: CodeState, form: FormData): Promise<CodeState> {
  return act<CodeState>({ path: PATH, refused: refusal }, async (caller) => {
    await caller.twoFactor.disable({ code: String(form.get('code') ?? '') });
    return { done: true };
  });
}

/** Ends every session of this user, this one included, then asks for a new sign-in. */
export async function signOutEverywhere(): Promise<void> {
  const caller = await dashboardCaller(PATH);
  await caller.sessions.endAll();
  redirect('/sign-in');
}
