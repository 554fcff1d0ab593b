/**
 * Tells the publishing engine that targets became due now (publish now, retry), so they go out
 * without waiting for the next sweep. Call it after the transaction that made them due has
 * committed. A worker in this process (`npm start`) dispatches at once; a worker in another
 * process (`npm run worker`) finds them at its next sweep (CHORUS_PUBLISHING_SWEEP_INTERVAL_MS).
 * Never throws and never waits: the database state, not this call, is what gets them sent.
 */
export function wakePublishing(): void {
  for (const listener of listeners) {
    try {
      listener();
    } catch {
      // A listener's failure must not fail the request that woke it; the sweep catches up.
    }
  }
}

const listeners = new Set<() => void>();

/** Runs `listener` at every wake (the worker's dispatcher); returns its removal. */
export function onPublishingWake(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
