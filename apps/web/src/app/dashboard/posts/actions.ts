'use server';

import { ZPostStatus, type PostStatus } from '@chorus/validators';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { failed, succeeded, type ActionResult } from '~/server/action-result';
import { dashboardCaller } from '~/server/dashboard';

const PATH = '/dashboard/posts';
// The list, each post's page and the calendar show what these actions change.
const refresh = () => revalidatePath(PATH, 'layout');

/**
 * The forms' shapes only (strings where strings belong, sizes no honest form reaches): the
 * procedures judge titles, tags, media and times, so a refusal names its field as the API does.
 */
const ZId = z.string().min(1).max(100);
const ZPostForm = z.object({
  title: z.string().max(10_000),
  content: z.string().max(200_000),
  tags: z
    .string()
    .max(10_000)
    .transform((tags) =>
      tags
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
    ),
  mediaIds: z.array(ZId).max(100),
});
const ZStatusForm = z.object({
  id: ZId,
  status: ZPostStatus,
  // The browser turns its local date-time into an instant; empty when nothing was picked.
  scheduledAt: z.union([z.literal(''), z.iso.datetime({ offset: true })]).optional(),
});
const ZMove = z.object({ id: ZId, scheduledAt: z.iso.datetime({ offset: true }) });
const ZDelete = z.object({ id: ZId, title: z.string().max(1000) });

/** A request no form of ours sends: said plainly, nothing done. */
const malformed = (): ActionResult => ({ error: 'The form was not understood.', at: Date.now() });

const postForm = (form: FormData) =>
  ZPostForm.safeParse({
    title: form.get('title'),
    content: form.get('content') ?? '',
    tags: form.get('tags') ?? '',
    mediaIds: form.getAll('mediaIds'),
  });

export async function createPost(_: ActionResult, form: FormData): Promise<ActionResult> {
  const input = postForm(form);
  if (!input.success) return malformed();
  const caller = await dashboardCaller(PATH);
  try {
    const { data } = await caller.posts.create(input.data);
    refresh();
    return { ...succeeded(`Created “${data.title}”.`), location: `${PATH}/${data.id}` };
  } catch (error) {
    return failed(error, form);
  }
}

export async function updatePost(_: ActionResult, form: FormData): Promise<ActionResult> {
  const id = ZId.safeParse(form.get('id'));
  const input = postForm(form);
  if (!id.success || !input.success) return malformed();
  const caller = await dashboardCaller(`${PATH}/${id.data}`);
  try {
    const { data } = await caller.posts.update({ id: id.data, ...input.data });
    refresh();
    return succeeded(`Saved “${data.title}”.`);
  } catch (error) {
    return failed(error, form);
  }
}

const DONE: Record<PostStatus, (title: string) => string> = {
  draft: (title) => `“${title}” is a draft again.`,
  pending_approval: (title) => `Submitted “${title}” for approval.`,
  scheduled: (title) => `Scheduled “${title}”.`,
  publishing: (title) => `Publishing “${title}”.`,
  published: (title) => `Published “${title}”.`,
  failed: (title) => `“${title}” failed to publish.`,
  archived: (title) => `Archived “${title}”.`,
};

/** A change of status (or of a scheduled post's time); the procedure applies decisions §10. */
export async function changePostStatus(_: ActionResult, form: FormData): Promise<ActionResult> {
  const input = ZStatusForm.safeParse(Object.fromEntries(form));
  if (!input.success) return malformed();
  const { id, status, scheduledAt } = input.data;
  const caller = await dashboardCaller(`${PATH}/${id}`);
  try {
    const { data } = await caller.posts.update({
      id,
      status,
      scheduledAt: scheduledAt || undefined,
    });
    refresh();
    return succeeded(DONE[data.status](data.title));
  } catch (error) {
    return failed(error, form);
  }
}

/** The calendar's move (a drop on another day, or its Move dialog): a new `scheduledAt`. */
export async function movePost(input: unknown): Promise<ActionResult> {
  const move = ZMove.safeParse(input);
  if (!move.success) return malformed();
  const caller = await dashboardCaller(`${PATH}/calendar`);
  try {
    const { data } = await caller.posts.update(move.data);
    refresh();
    return succeeded(`Moved “${data.title}”.`);
  } catch (error) {
    return failed(error);
  }
}

export async function deletePost(_: ActionResult, form: FormData): Promise<ActionResult> {
  const input = ZDelete.safeParse(Object.fromEntries(form));
  if (!input.success) return malformed();
  const caller = await dashboardCaller(PATH);
  try {
    await caller.posts.delete({ id: input.data.id });
    refresh();
    return succeeded(`Deleted “${input.data.title}”.`);
  } catch (error) {
    return failed(error);
  }
}
