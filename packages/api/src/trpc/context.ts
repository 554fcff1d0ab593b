import type { Principal } from '@chorus/auth';
import type { Db } from '@chorus/db';
import type { StorageDriver } from '@chorus/storage';

/** What every procedure receives, whichever door the request came through. */
export interface Context {
  db: Db;
  principal: Principal | null;
  requestId: string;
  /** The origin the request came in on (`https://chorus.example.com`), for absolute URLs. */
  origin: string;
  /**
   * The response being prepared. A procedure whose success status depends on the call (meta
   * `successStatuses`) sets `status`; the REST door answers with it.
   */
  response: { status?: number };
  /** Where media bytes go; the process's configured store when absent (server/storage.ts). */
  storage?: StorageDriver;
}
