'use server';

import { text, type ActionResult } from '~/server/action-result';
import { act } from '~/server/action';

const PATH = '/dashboard/media';

/** Sets an item's alt text; an empty field clears it (the API's null). */
export async function updateAltText(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act({ path: PATH, form }, async (caller) => {
    const altText = text(form, 'altText').trim();
    const { data } = await caller.media.update({ id: text(form, 'id'), altText: altText || null });
    return data.altText
      ? `Saved the alt text of ${data.filename}.`
      : `Cleared the alt text of ${data.filename}.`;
  });
}

/** Deletes an item and its bytes; posts that used it lose the attachment (the API's rule). */
export async function deleteMediaItem(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act({ path: PATH }, async (caller) => {
    await caller.media.delete({ id: text(form, 'id') });
    return `Deleted ${text(form, 'filename')}.`;
  });
}
