'use client';

import { previewNextSlot, type NextSlotAnswer } from '../actions';
import { useServerAnswer } from './use-server-answer';

/**
 * The slot Next free slot would take for the chosen channels (and the series' rule), asked
 * again as they change: `asking` until the answer comes, undefined with no channel chosen.
 */
export function useNextSlot(ask: {
  channelIds: string[];
  recurrence: string | null;
  postId?: string;
}): NextSlotAnswer | 'asking' | undefined {
  const chosen = ask.channelIds.length > 0;
  const answer = useServerAnswer(chosen ? ask : null, previewNextSlot, 300);
  return chosen ? (answer ?? 'asking') : undefined;
}
