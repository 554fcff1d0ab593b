'use server';

import { toApiError } from '@chorus/api';
import { requireFutureSchedule } from '@chorus/services';
import { ZPostStatus, type Issue, type PostStatus, ZTargetInput } from '@chorus/validators';
import { z } from 'zod';
import { inDashboardWords } from '~/components/api-words';
import { act } from '~/server/action';
import { failed, malformed, succeeded, text, type ActionResult } from '~/server/action-result';
import { accountZone } from '~/server/account-zone';
import type { DashboardCaller } from '~/server/dashboard';
import { formError } from '~/server/form-errors';
import { approvedIn } from './approval/approved';
import { refusedNamingChannels } from './refusal-channels';

const PATH = '/dashboard/posts';
// The list, each post's page and the calendar show what these actions change.
const on = (path: string) => ({ path, shows: { layout: PATH } });

/**
 * The forms' shapes only (strings where strings belong, sizes no honest form reaches): the
 * procedures judge titles, tags, media and times, so a refusal names its field as the API does.
 */
const ZId = z.string().min(1).max(100);
/** The composer's targets travel as one JSON field; the procedure judges what is inside. */
const ZTargetsJson = z
  .string()
  .max(2_000_000)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'targets is not JSON.' });
      return z.NEVER;
    }
  })
  .pipe(z.array(ZTargetInput).max(100));
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
  // Absent when the post's channels cannot change any more (after it went out).
  targets: ZTargetsJson.optional(),
  // The "Repeats" choice: an RRULE the procedure judges, or empty for a post that does not.
  recurrence: z
    .string()
    .max(1000)
    .transform((rule) => rule.trim() || null)
    .optional(),
});
const ZStatusForm = z.object({ id: ZId, status: ZPostStatus });
const ZMove = z.object({ id: ZId, scheduledAt: z.iso.datetime({ offset: true }) });
const ZDelete = z.object({ id: ZId, title: z.string().max(1000) });
const ZRetry = z.object({ id: ZId });
const ZValidateForm = z.object({
  content: z.string().max(200_000),
  mediaIds: z.array(ZId).max(100),
  targets: z.array(ZTargetInput).max(100),
});
const ZNextSlotAsk = z.object({
  channelIds: z.array(ZId).min(1).max(100),
  recurrence: z.string().max(1000).nullable(),
  postId: ZId.optional(),
});
const ZResolve = z.object({
  id: ZId,
  targetId: ZId,
  // The dialog's choice; nothing chosen is a refusal beside the choice, not a malformed form.
  outcome: z.enum(['published', 'not-published', '']).default(''),
  url: z.string().max(4096).default(''),
});

const postForm = (form: FormData) =>
  ZPostForm.safeParse({
    title: form.get('title'),
    content: form.get('content') ?? '',
    tags: form.get('tags') ?? '',
    mediaIds: form.getAll('mediaIds'),
    targets: form.get('targets') ?? undefined,
    recurrence: form.get('recurrence') ?? undefined,
  });

/** The time the composer's time field holds, as an instant; undefined when it holds none. */
const when = (form: FormData) => text(form, 'scheduledAt') || undefined;

/**
 * The changes of status the post page's Status panel makes through the composer's form, with
 * what it holds: its unsaved changes are saved in the same change (docs/dashboard.md).
 */
const ZStatusIntent = z.enum(['draft', 'published', 'archived']);

/**
 * The composer's Schedule (or Reschedule) button: the post is written straight into
 * `scheduled`, with its text, in one change; Next free slot lets the API choose the time
 * (`schedule: "next_slot"`), the time field left aside. A Status panel button writes its
 * status the same way.
 */
function scheduling(form: FormData) {
  const intent = form.get('intent');
  if (intent === 'schedule') return { status: 'scheduled' as const, scheduledAt: when(form) };
  if (intent === 'queue') return { schedule: 'next_slot' as const };
  const status = ZStatusIntent.safeParse(intent);
  return status.success ? { status: status.data } : {};
}

/** What a toast says of a post put in its next free slot: when, on the account's clock. */
async function scheduledFor(
  caller: DashboardCaller,
  post: { title: string; scheduledAt: string | null },
) {
  const zone = await accountZone(caller);
  const at = new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: zone,
  }).format(new Date(post.scheduledAt ?? Date.now()));
  return `Scheduled “${post.title}” for ${at} (${zone}).`;
}

/**
 * The composer's Submit for approval, once the post is saved as a draft: the API's submit
 * transition, with the time the author wants it out. Saving and submitting are two changes (a
 * status in a write can never submit), so a refused submission leaves the saved draft.
 */
async function submitting(caller: DashboardCaller, form: FormData, id: string) {
  if (form.get('intent') !== 'submit') return null;
  await caller.posts.submit({ id, scheduledAt: when(form) ?? null });
  return true;
}

/**
 * A time already past, wished for a submission, is refused before anything is written (the
 * submission would refuse it after the save): beside the time field, everything typed kept. A
 * new post's draft saved first would open on a page without the wished time.
 */
function wishAhead(form: FormData) {
  const at = when(form);
  if (form.get('intent') === 'submit' && at) requireFutureSchedule(new Date(at), new Date());
}

export async function createPost(_: ActionResult, form: FormData): Promise<ActionResult> {
  const input = postForm(form);
  if (!input.success) return malformed();
  const refused = refusedNamingChannels(form, input.data.targets);
  return act({ ...on(PATH), refused }, async (caller) => {
    wishAhead(form);
    const { data } = await caller.posts.create({ ...input.data, ...scheduling(form) });
    const location = `${PATH}/${data.id}`;
    try {
      if (await submitting(caller, form, data.id)) {
        return { ...succeeded(`Submitted “${data.title}” for approval.`), location };
      }
    } catch (error) {
      // The draft exists: its page shows it, with the refusal in the toast and Submit again.
      return {
        error: `Saved “${data.title}” as a draft, but it was not submitted: ${formError(error)}`,
        location,
        at: Date.now(),
      };
    }
    // The slot was the API's choice: the toast says which.
    if (form.get('intent') === 'queue')
      return { ...succeeded(await scheduledFor(caller, data)), location };
    const done =
      data.status === 'scheduled' ? `Scheduled “${data.title}”.` : `Created “${data.title}”.`;
    return { ...succeeded(done), location };
  });
}

export async function updatePost(_: ActionResult, form: FormData): Promise<ActionResult> {
  const id = ZId.safeParse(form.get('id'));
  const input = postForm(form);
  if (!id.success || !input.success) return malformed();
  const refused = refusedNamingChannels(form, input.data.targets);
  return act({ ...on(`${PATH}/${id.data}`), refused }, async (caller) => {
    wishAhead(form);
    const { data } = await caller.posts.update({ id: id.data, ...input.data, ...scheduling(form) });
    const intent = form.get('intent');
    // A refused submission, approval or retry leaves the saved post, which the pages show.
    try {
      if (await submitting(caller, form, data.id)) {
        return `Submitted “${data.title}” for approval.`;
      }
      if (intent === 'approve') {
        return approvedIn((await caller.posts.approve({ id: data.id })).data);
      }
      if (intent === 'retry') return sendingAgain((await caller.posts.retry({ id: data.id })).data);
    } catch (error) {
      return failed(error);
    }
    if (intent === 'queue') return scheduledFor(caller, data);
    if (ZStatusIntent.safeParse(intent).success) return DONE[data.status](data.title);
    const done = intent === 'schedule' ? 'Scheduled' : 'Saved';
    return `${done} “${data.title}”.`;
  });
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

/**
 * A status button's change (back to draft, publish now, archive); the procedure refuses one the
 * transition table does not allow. Scheduling goes through the composer, with the post's text.
 */
export async function changePostStatus(_: ActionResult, form: FormData): Promise<ActionResult> {
  const input = ZStatusForm.safeParse(Object.fromEntries(form));
  if (!input.success) return malformed();
  const { id, status } = input.data;
  return act(on(`${PATH}/${id}`), async (caller) => {
    const { data } = await caller.posts.update({ id, status });
    return DONE[data.status](data.title);
  });
}

/** The calendar's move (a drop on another day, or its Move dialog): a new `scheduledAt`. */
export async function movePost(input: unknown): Promise<ActionResult> {
  const move = ZMove.safeParse(input);
  if (!move.success) return malformed();
  return act(on(`${PATH}/calendar`), async (caller) => {
    const { data } = await caller.posts.update(move.data);
    return `Moved “${data.title}”.`;
  });
}

export async function deletePost(_: ActionResult, form: FormData): Promise<ActionResult> {
  const input = ZDelete.safeParse(Object.fromEntries(form));
  if (!input.success) return malformed();
  return act(on(PATH), async (caller) => {
    await caller.posts.delete({ id: input.data.id });
    return `Deleted “${input.data.title}”.`;
  });
}

/** What a toast says of a failed post sent again. */
const sendingAgain = (post: { title: string }) =>
  `Sending “${post.title}” again to the channels that failed.`;

/** Sends a failed post's failed targets again (published ones never go twice). */
export async function retryPost(_: ActionResult, form: FormData): Promise<ActionResult> {
  const input = ZRetry.safeParse(Object.fromEntries(form));
  if (!input.success) return malformed();
  return act(on(`${PATH}/${input.data.id}`), async (caller) => {
    return sendingAgain((await caller.posts.retry(input.data)).data);
  });
}

/** Settles an unconfirmed target with what the user found on the network. */
export async function resolveTarget(_: ActionResult, form: FormData): Promise<ActionResult> {
  const input = ZResolve.safeParse(Object.fromEntries(form));
  if (!input.success) return malformed();
  const { id, targetId, outcome, url } = input.data;
  if (!outcome) {
    return {
      error: 'Say whether the post is on the network.',
      fields: { outcome: 'Choose one.' },
      at: Date.now(),
    };
  }
  const published = outcome === 'published';
  return act(on(`${PATH}/${id}`), async (caller) => {
    await caller.posts.resolve({
      id,
      targetId,
      published,
      url: published && url.trim() ? url.trim() : undefined,
    });
    return published ? 'Marked as published.' : 'Marked as not published: it can be retried.';
  });
}

/**
 * The server's check of what the composer holds (nothing written): the same answer scheduling
 * would give. The procedure validates the body; a title is not its concern here.
 */
export async function validateDraft(
  input: unknown,
): Promise<{ issues: Issue[] } | { error: string }> {
  const body = ZValidateForm.safeParse(input);
  if (!body.success) return { error: 'The form was not understood.' };
  return act({ path: PATH, shows: false, refused: draftRefusal }, async (caller) => {
    const { data } = await caller.posts.validate({ ...body.data, title: 'Draft' });
    return { issues: data.issues };
  });
}

/** A refused check: the body's issues where the procedure names them, else its message. */
function draftRefusal(error: unknown): { issues: Issue[] } | { error: string } {
  const failure = toApiError(error);
  const issues = failure.details?.issues;
  return Array.isArray(issues) ? { issues: issues as Issue[] } : { error: failure.message };
}

export type NextSlotAnswer =
  | {
      at: string | null;
      reason: string | null;
      /** With one channel and no slot: that channel's Posting slots page, to link to. */
      slotsPage?: string;
    }
  | { error: string };

/**
 * The slot Next free slot would take now, or why none (nothing written), in the dashboard's
 * words: shown beside the button before it is pressed. A post already scheduled does not count
 * its own slot as taken.
 */
export async function previewNextSlot(input: unknown): Promise<NextSlotAnswer> {
  const body = ZNextSlotAsk.safeParse(input);
  if (!body.success) return { error: 'The form was not understood.' };
  const { channelIds, recurrence, postId } = body.data;
  const refused = (error: unknown): NextSlotAnswer => ({ error: formError(error) });
  return act<NextSlotAnswer>({ path: PATH, shows: false, refused }, async (caller) => {
    const { data } = await caller.channels.nextSlot({
      channelIds: channelIds.join(','),
      recurrence: recurrence ?? undefined,
      postId,
    });
    const [only] = channelIds;
    return {
      at: data.at,
      reason: data.reason && inDashboardWords(data.reason),
      ...(data.at === null &&
        channelIds.length === 1 &&
        only && { slotsPage: `/dashboard/integrations/channels/${encodeURIComponent(only)}` }),
    };
  });
}
