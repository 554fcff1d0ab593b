'use client';

import type { Issue, TargetInput } from '@chorus/validators';
import { validateDraft } from '../actions';
import { useServerAnswer } from './use-server-answer';

type Body = { content: string; mediaIds: string[]; targets: TargetInput[] };

/** What the server said of the composer's content, or that it has not said yet. */
interface ServerCheck {
  checking: boolean;
  issues: Issue[];
  error?: string;
}

/**
 * The server's check of what the composer holds, asked once typing pauses. `checking` while
 * the answer for the current text has not come: scheduling waits for it.
 */
export function useServerCheck(body: Body): ServerCheck {
  const answer = useServerAnswer(body.targets.length > 0 ? body : null, validateDraft);
  if (body.targets.length === 0) return { checking: false, issues: [] };
  if (!answer) return { checking: true, issues: [] };
  return 'issues' in answer
    ? { checking: false, issues: answer.issues }
    : { checking: false, issues: [], error: answer.error };
}
