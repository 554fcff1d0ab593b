import type { AccessRule } from '../server/access';
import { proceduresOf } from './internals';
import { appRouter } from './root';

/** Each procedure's access rule (`meta.access`) and kind, by dotted path. */
const procedures = new Map(
  proceduresOf(appRouter).map(({ name, type, meta }) => [name, { type, rule: meta?.access }]),
);

/**
 * A procedure's access rule, read where the procedure declares it: what the pipeline checks of
 * a tRPC call and of a dashboard server call, and what pages read (mayCall). Undefined for a
 * public procedure (it authorises the call itself) and for a path that names none.
 */
export const accessRuleOf = (path: string): AccessRule | undefined => procedures.get(path)?.rule;

/** Reads (queries) are counted in the read budget, mutations in the write budget. */
export const isReadProcedure = (path: string) => procedures.get(path)?.type === 'query';
