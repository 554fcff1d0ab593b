import nodeDns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';

/** What the fake DNS answers for a name: an address, after `delayMs` (none: at once). */
export interface FakeAnswer {
  address: string;
  delayMs?: number;
}

/**
 * The process's DNS, answering the names `answer` knows (undefined: the real DNS for the
 * rest): the module's own `lookup`, its ESM binding synced, which every importer calls (the
 * files of a worker share their modules), so the webhooks' check and the connection's own
 * look-up both ask it. Returns the restore.
 */
export function fakeDns(answer: (hostname: string) => FakeAnswer | undefined): () => void {
  const real = nodeDns.lookup;
  const lookup = ((hostname: string, options: unknown, callback: unknown) => {
    const found = answer(hostname);
    if (!found) return (real as (...args: unknown[]) => void)(hostname, options, callback);
    const done = callback as (e: null, all: { address: string; family: number }[]) => void;
    const reply = () => done(null, [{ address: found.address, family: 4 }]);
    // Unref'd: a slow answer still pending when the file ends keeps nothing alive.
    if (found.delayMs) setTimeout(reply, found.delayMs).unref();
    else process.nextTick(reply);
  }) as typeof real;
  nodeDns.lookup = lookup;
  syncBuiltinESMExports();
  return () => {
    nodeDns.lookup = real;
    syncBuiltinESMExports();
  };
}
