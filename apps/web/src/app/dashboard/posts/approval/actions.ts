'use server';

import { z } from 'zod';
import { malformed, text, type ActionResult } from '~/server/action-result';
import { act } from '~/server/action';
import { approvedIn } from './approved';

const PATH = '/dashboard/posts';
// The list, each post's page and the queue show what these actions change.
const on = (id: string) => ({ path: `${PATH}/${id}`, shows: { layout: PATH } });
const ZId = z.string().min(1).max(100);

export async function approvePost(_: ActionResult, form: FormData): Promise<ActionResult> {
  const id = ZId.safeParse(form.get('id'));
  if (!id.success) return malformed();
  return act(on(id.data), async (caller) => {
    const { data } = await caller.posts.approve({ id: id.data });
    return approvedIn(data);
  });
}

/** Rejects with the admin's comment; an empty one is refused beside its field. */
export async function rejectPost(_: ActionResult, form: FormData): Promise<ActionResult> {
  const id = ZId.safeParse(form.get('id'));
  if (!id.success) return malformed();
  return act(on(id.data), async (caller) => {
    const comment = text(form, 'comment').slice(0, 10_000);
    const { data } = await caller.posts.reject({ id: id.data, comment });
    return `Rejected “${data.title}”; its author sees your comment.`;
  });
}
