'use server';

import { revalidatePath } from 'next/cache';
import { failed, succeeded, text, type ActionResult } from '~/server/action-result';
import { dashboardCaller } from '~/server/dashboard';

const PATH = '/dashboard/media';
const refresh = () => revalidatePath(PATH);

/** Sets an item's alt text; an empty field clears it (the API's null). */
export async function updateAltText(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  try {
    const altText = text(form, 'altText').trim();
    const { data } = await caller.media.update({ id: text(form, 'id'), altText: altText || null });
    refresh();
    return succeeded(
      data.altText
        ? `Saved the alt text of ${data.filename}.`
        : `Cleared the alt text of ${data.filename}.`,
    );
  } catch (error) {
    return failed(error, form);
  }
}

/** Deletes an item and its bytes; posts that used it lose the attachment (the API's rule). */
export async function deleteMediaItem(_: ActionResult, form: FormData): Promise<ActionResult> {
  const caller = await dashboardCaller(PATH);
  try {
    await caller.media.delete({ id: text(form, 'id') });
    refresh();
    return succeeded(`Deleted ${text(form, 'filename')}.`);
  } catch (error) {
    return failed(error);
  }
}
