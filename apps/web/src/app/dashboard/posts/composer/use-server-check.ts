'use client';

import type { Issue, TargetInput } from '@chorus/validators';
import { useEffect, useState } from 'react';
import { validateDraft } from '../actions';

type Body = { content: string; mediaIds: string[]; targets: TargetInput[] };

/**
 * The server's answer for what the composer holds, asked once typing pauses. `checking` while
 * the answer for the current text has not come: scheduling waits for it.
 */
export function useServerCheck(body: Body) {
  const key = JSON.stringify(body);
  const [answer, setAnswer] = useState<{ key: string; issues: Issue[]; error?: string }>();
  useEffect(() => {
    if (body.targets.length === 0) return;
    let current = true;
    const timer = setTimeout(() => {
      void validateDraft(JSON.parse(key)).then((result) => {
        if (!current) return;
        setAnswer(
          'issues' in result
            ? { key, issues: result.issues }
            : { key, issues: [], error: result.error },
        );
      });
    }, 600);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // The key is the body: a new one asks again.
  }, [key]);
  if (body.targets.length === 0) return { checking: false, issues: [] as Issue[] };
  const fresh = answer?.key === key;
  return {
    checking: !fresh,
    issues: fresh ? answer.issues : [],
    error: fresh ? answer.error : undefined,
  };
}
