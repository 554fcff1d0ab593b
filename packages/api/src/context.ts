import type { Principal } from '@chorus/auth';
import type { Db } from '@chorus/db';

/** What every procedure receives, whichever door the request came through. */
export interface Context {
  db: Db;
  principal: Principal | null;
  requestId: string;
}
