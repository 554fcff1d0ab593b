'use server';

import { toApiError } from '@chorus/api';
import { failed, text, type ActionResult } from '~/server/action-result';
import { act } from '~/server/action';

const PATH = '/dashboard/media';

/**
 * A refusal because a post sends the item (the API names it in `details.postId`: it awaits
 * approval, is approved, or is publishing) is the alt text's, shown beside the field as a 400
 * on it is, not only above the form.
 */
function altTextRefusal(error: unknown): ActionResult {
  const result = failed(error);
  const byPost = typeof toApiError(error).details?.postId === 'string';
  if (!byPost || !result.error || result.fields?.altText) return result;
  return { ...result, fields: { ...result.fields, altText: result.error } };
}

/** Sets an item's alt text; an empty field clears it (the API's null). */
export async function updateAltText(_: ActionResult, form: FormData): Promise<ActionResult> {
  return act({ path: PATH, refused: altTextRefusal }, async (caller) => {
    const altText = text(form, 'altText').trim();
    const { data } = await caller.media.update({
      id: text(form, 'id'),
      altText: altText || null,
    });
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
