/** A call of `work` that never overlaps itself (see coalesce). */
export interface Coalesced {
  (): void;
  /** The run in progress, if any, settled. */
  idle(): Promise<void>;
}

/**
 * Runs `work` at each call; calls during a run make one more run after it, not one each, so
 * a burst of wakes costs at most two runs.
 */
export function coalesce(
  work: () => Promise<void>,
  onError: (error: Error) => void = () => {},
): Coalesced {
  let running: Promise<void> | undefined;
  let again = false;
  const run = () => {
    if (running) {
      again = true;
      return;
    }
    running = work()
      .catch(onError)
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };
  return Object.assign(run, { idle: async () => running });
}
