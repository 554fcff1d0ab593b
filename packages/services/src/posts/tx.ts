import type { Db } from '@chorus/db';

/** A transaction of the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
