'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import QRCode from 'qrcode';
import { dashboardCaller } from '~/server/dashboard';
import { formError } from '~/server/form-errors';

const PATH = '/dashboard/security';

export type EnrollState = { secret?: string; qr?: string; error?: string };
export type CodeState = { done?: boolean; error?: string };

/** A new secret, as a QR code (drawn here, on the server) and as text for manual entry. */
export async function beginEnrollment(): Promise<EnrollState> {
  const caller = await dashboardCaller(PATH);
  try {
    const { secret, otpauthUri } = await caller.twoFactor.begin();
    const qr = await QRCode.toDataURL(otpauthUri, { margin: 1, width: 220 });
    return { secret, qr };
  } catch (error) {
    return { error: formError(error) };
  }
}

export async function confirmEnrollment(_: CodeState, form: FormData): Promise<CodeState> {
  const caller = await dashboardCaller(PATH);
  try {
    await caller.twoFactor.confirm({ code: String(form.get('code') ?? '') });
    revalidatePath(PATH);
    return { done: true };
  } catch (error) {
    return { error: formError(error) };
  }
}

export async function disableTwoFactor(_: CodeState, form: FormData): Promise<CodeState> {
  const caller = await dashboardCaller(PATH);
  try {
    await caller.twoFactor.disable({ code: String(form.get('code') ?? '') });
    revalidatePath(PATH);
    return { done: true };
  } catch (error) {
    return { error: formError(error) };
  }
}

/** Ends every session of this user, this one included, then asks for a new sign-in. */
export async function signOutEverywhere(): Promise<void> {
  const caller = await dashboardCaller(PATH);
  await caller.sessions.endAll();
  redirect('/sign-in');
}
