'use server';

import { redirect } from 'next/navigation';
import QRCode from 'qrcode';
import { text, type ActionResult } from '~/server/action-result';
import { act } from '~/server/action';
import { dashboardCaller } from '~/server/dashboard';
import { refusal } from '~/server/form-errors';

const PATH = '/dashboard/security';

export type EnrollState = { secret?: string; qr?: string; error?: string };

/** A new secret, as a QR code (drawn here, on the server) and as text for manual entry. */
export async function beginEnrollment(): Promise<EnrollState> {
  // Nothing shows until the code confirms it.
  return act<EnrollState>({ path: PATH, shows: false, refused: refusal }, async (caller) => {
    const { secret, otpauthUri } = await caller.twoFactor.begin();
    const qr = await QRCode.toDataURL(otpauthUri, { margin: 1, width: 220 });
    return { secret, qr };
  });
}

export async function confirmEnrollment(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act({ path: PATH }, async (caller) => {
    await caller.twoFactor.confirm({ code: text(form, 'code') });
    return 'Two-factor authentication is on.';
  });
}

export async function disableTwoFactor(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act({ path: PATH }, async (caller) => {
    await caller.twoFactor.disable({ code: text(form, 'code') });
    return 'Two-factor authentication is off.';
  });
}

/**
 * Ends every session of this user, this one included, then asks for a new sign-in, whose page
 * says why.
 */
export async function signOutEverywhere(): Promise<void> {
  const caller = await dashboardCaller(PATH);
  await caller.sessions.endAll();
  redirect('/sign-in?reason=signed-out-everywhere');
}
