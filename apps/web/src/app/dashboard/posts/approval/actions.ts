'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { failed, succeeded, text, type ActionResult } from '~/server/action-result';
import { dashboardCaller } from '~/server/dashboard';

const PATH = '/dashboard/posts';
const refresh = () => revalidatePath(PATH, 'layout');
const ZId = z.string().min(1).max(100);
const malformed = (): ActionResult => ({ error: 'The form was not understood.', at: Date.now() });

export async function approvePost(_: ActionResult, form: FormData): Promise<ActionResult> {
  const id = ZId.safeParse(form.get('id'));
  if (!id.success) return malformed();
  const caller = await dashboardCaller(`${PATH}/${id.data}`);
  try {
    const { data } = await caller.posts.approve({ id: id.data });
    refresh();
    const outcome = data.status === 'scheduled' ? 'scheduled' : 'publishing now';
    return succeeded(`Approved “${data.title}”: ${outcome}.`);
  } catch (error) {
    return failed(error, form);
  }
}

/** Rejects with the admin's comment; an empty one is refused beside its field. */
export async function rejectPost(_: ActionResult, form: FormData): Promise<ActionResult> {
  const id = ZId.safeParse(form.get('id'));
  if (!id.success) return malformed();
  const caller = await dashboardCaller(`${PATH}/${id.data}`);
  try {
    const comment = text(form, 'comment').slice(0, 10_000);
    const { data } = await caller.posts.reject({ id: id.data, comment });
    refresh();
    return succeeded(`Rejected “${data.title}”; its author sees your comment.`);
  } catch (error) {
    return failed(error, form);
  }
}
