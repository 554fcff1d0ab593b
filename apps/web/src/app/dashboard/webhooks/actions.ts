'use server';

import type { EventType } from '@chorus/validators';
import { revalidatePath } from 'next/cache';
import { failed, succeeded, text, type ActionResult } from '~/server/action-result';
import { dashboardCaller } from '~/server/dashboard';

const PATH = '/dashboard/webhooks';
// The list and every webhook's own page show what these actions change.
const refresh = () => revalidatePath(PATH, 'layout');
// Checked against the catalogue by the procedure's input schema.
const events = (form: FormData) => form.getAll('events').map(String) as (EventType | '*')[];

export async function createWebhook(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  try {
    const { data } = await caller.webhooks.create({
      url: text(form, 'url'),
      events: events(form),
      description: text(form, 'description'),
    });
    refresh();
    return { ...succeeded(`Created the webhook to ${data.url}.`), secret: data.secret };
  } catch (error) {
    return failed(error, form);
  }
}

export async function updateWebhook(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  try {
    const { data } = await caller.webhooks.update({
      id: text(form, 'id'),
      url: text(form, 'url'),
      events: events(form),
      description: text(form, 'description'),
      active: form.get('active') === 'on',
    });
    refresh();
    return succeeded(`Saved the webhook to ${data.url}.`);
  } catch (error) {
    return failed(error, form);
  }
}

/** Turns back on an endpoint the service disabled (it answered 410, or kept failing). */
export async function enableWebhook(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  try {
    const { data } = await caller.webhooks.update({ id: text(form, 'id'), active: true });
    refresh();
    return succeeded(`Re-enabled the webhook to ${data.url}.`);
  } catch (error) {
    return failed(error);
  }
}

export async function deleteWebhook(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  try {
    await caller.webhooks.delete({ id: text(form, 'id') });
    refresh();
    return succeeded(`Deleted the webhook to ${text(form, 'url')}.`);
  } catch (error) {
    return failed(error);
  }
}

export async function sendTestEvent(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  try {
    await caller.webhooks.test({ id: text(form, 'id') });
    refresh();
    return succeeded('Sent a webhook.test event: it shows in the delivery log.');
  } catch (error) {
    return failed(error);
  }
}

export async function retryDelivery(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  try {
    await caller.webhooks.retry({ id: text(form, 'id'), deliveryId: text(form, 'deliveryId') });
    refresh();
    return succeeded('The delivery is due again now.');
  } catch (error) {
    return failed(error);
  }
}

export async function rotateSecret(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  try {
    const { data } = await caller.webhooks.rotateSecret({ id: text(form, 'id') });
    refresh();
    return { ...succeeded('Rotated the signing secret.'), secret: data.secret };
  } catch (error) {
    return failed(error);
  }
}
