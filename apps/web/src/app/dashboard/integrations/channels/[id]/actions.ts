'use server';

import { toApiError } from '@chorus/api';
import { WEEKDAYS, type Weekday } from '@chorus/validators';
import { failed, text, type ActionResult } from '~/server/action-result';
import { act } from '~/server/action';

const pathOf = (id: string) => `/dashboard/integrations/channels/${id}`;

/** The field of a slot's issue (`slots[2].time` or `slots.2.time`): that row's, else the list's. */
function fieldOf(path: string) {
  const row = /^slots(?:\[(\d+)\]|\.(\d+))/.exec(path);
  return row ? `slot-${row[1] ?? row[2]}` : 'slots';
}

/**
 * Admins replace a channel's weekly slots through the same procedure as the API. A refusal
 * shows beside the row it concerns; a slot given twice is named at its second row.
 */
export async function saveSlots(_: ActionResult, form: FormData): Promise<ActionResult> {
  const id = text(form, 'channelId');
  const days = form.getAll('day').map(String);
  const times = form.getAll('time').map(String);
  const slots = days.map((day, i) => ({ day: day as Weekday, time: times[i] ?? '' }));
  const seen = new Map<string, number>();
  const fields: Record<string, string> = {};
  slots.forEach((slot, i) => {
    const key = `${slot.day} ${slot.time}`;
    const first = seen.get(key);
    if (first !== undefined && WEEKDAYS.includes(slot.day)) {
      fields[`slot-${i}`] = `Slot ${first + 1} is already this day and time.`;
    }
    seen.set(key, first ?? i);
  });
  if (Object.keys(fields).length > 0) {
    return { error: 'Each slot (day and time) once.', fields, at: Date.now() };
  }
  return act({ path: pathOf(id), refused: slotRefusal }, async (caller) => {
    await caller.channels.putSlots({ id, slots });
    return 'Posting slots saved.';
  });
}

/** A refusal as the form shows it, each issue beside the row it concerns. */
function slotRefusal(error: unknown): ActionResult {
  const answer = failed(error);
  const issues = toApiError(error).details?.issues;
  if (Array.isArray(issues)) {
    answer.fields = Object.create(null) as Record<string, string>;
    for (const issue of issues as { path?: string; message?: string }[]) {
      if (issue.path && issue.message) answer.fields[fieldOf(issue.path)] ??= issue.message;
    }
  }
  return answer;
}
