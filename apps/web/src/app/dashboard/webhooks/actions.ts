'use server';

import type { EventType } from '@chorus/validators';
import { succeeded, text, type ActionResult } from '~/server/action-result';
import { act } from '~/server/action';

const PATH = '/dashboard/webhooks';
// The list and every webhook's own page show what these actions change.
const on = { path: PATH, shows: { layout: PATH } };
// Checked against the catalogue by the procedure's input schema.
const events = (form: FormData) => form.getAll('events').map(String) as (EventType | '*')[];

export async function createWebhook(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act(on, async (caller) => {
    const { data } = await caller.webhooks.create({
      url: text(form, 'url'),
      events: events(form),
      description: text(form, 'description'),
    });
    return { ...succeeded(`Created the webhook to ${data.url}.`), secret: data.secret };
  });
}

export async function updateWebhook(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act(on, async (caller) => {
    const { data } = await caller.webhooks.update({
      id: text(form, 'id'),
      url: text(form, 'url'),
      events: events(form),
      description: text(form, 'description'),
      active: form.get('active') === 'on',
    });
    return `Saved the webhook to ${data.url}.`;
  });
}

/** Turns back on an endpoint the service disabled (it answered 410, or kept failing). */
export async function enableWebhook(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act(on, async (caller) => {
    const { data } = await caller.webhooks.update({ id: text(form, 'id'), active: true });
    return `Re-enabled the webhook to ${data.url}.`;
  });
}

export async function deleteWebhook(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act(on, async (caller) => {
    await caller.webhooks.delete({ id: text(form, 'id') });
    return `Deleted the webhook to ${text(form, 'url')}.`;
  });
}

export async function sendTestEvent(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act(on, async (caller) => {
    await caller.webhooks.test({ id: text(form, 'id') });
    return 'Sent a webhook.test event: it shows in the delivery log.';
  });
}

export async function retryDelivery(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act(on, async (caller) => {
    await caller.webhooks.retry({ id: text(form, 'id'), deliveryId: text(form, 'deliveryId') });
    return 'The delivery is due again now.';
  });
}

export async function rotateSecret(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act(on, async (caller) => {
    const { data } = await caller.webhooks.rotateSecret({ id: text(form, 'id') });
    return { ...succeeded('Rotated the signing secret.'), secret: data.secret };
  });
}
