'use client';

import { useEffect, useState } from 'react';

/**
 * The server's answer to `ask(body)`, asked once `body` has stayed the same for `delayMs`
 * (typing paused). Undefined while the answer for the current body has not come; a null body
 * asks nothing.
 */
export function useServerAnswer<B, A>(
  body: B | null,
  ask: (body: B) => Promise<A>,
  delayMs = 600,
): A | undefined {
  const key = body === null ? null : JSON.stringify(body);
  const [answer, setAnswer] = useState<{ key: string; value: A }>();
  useEffect(() => {
    if (key === null) return;
    let current = true;
    const timer = setTimeout(() => {
      void ask(JSON.parse(key) as B).then((value) => {
        if (current) setAnswer({ key, value });
      });
    }, delayMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // The key is the body: a new one asks again.
  }, [key]);
  return answer?.key === key ? answer.value : undefined;
}
