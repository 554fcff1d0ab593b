import { AppError, type ErrorCode } from '@chorus/services';
import type { Principal } from '@chorus/auth';
import * as validators from '@chorus/validators';
import type { Role, Scope } from '@chorus/validators';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { z } from 'zod';
import { accessBreach, type AccessRule } from '../server/access';
import type { Context } from './context';
import { toApiError, toTrpcError } from '../server/errors';
import { controlRefusal } from '../server/refuse-control';

/** Who may call a procedure: set by the tiers below, read by the OpenAPI document. */
export type AccessMeta = {
  access?: { scopes: Scope[]; role?: Role };
  /** The REST status of success when it is not 200. */
  successStatus?: 201 | 204;
  /**
   * Success statuses the procedure chooses per call (through `ctx.response.status`), each with
   * its description and the id of the output component it answers with, for the OpenAPI document.
   */
  successStatuses?: Partial<Record<200 | 201, { description: string; schema: string }>>;
  /** The procedure returns `{ location }`; the REST door answers 302 there, without a body. */
  redirect?: true;
  /** Domain errors the procedure can answer, beyond those every route of its kind has. */
  errors?: ErrorCode[];
};

export type Meta = OpenApiMeta<AccessMeta>;

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // Same error body on the tRPC door as on REST: the envelope's message, never the raw one
    // of an unexpected error (SQL, internal names), and never a stack trace.
    errorFormatter: ({ shape, error }) => {
      const failure = toApiError(error);
      return {
        message: failure.message,
        code: shape.code,
        data: { httpStatus: shape.data.httpStatus, path: shape.data.path, error: failure },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * tRPC validates input and output with a schema's `parseAsync`, and zod 4 runs its compiled
 * object parser only in synchronous parses: a page of 50 users took 50 µs to check instead of
 * 10. So the shared schemas parse synchronously, even when asked asynchronously. They must stay
 * synchronous: an asynchronous refinement would fail its first parse (zod's "Encountered
 * Promise during synchronous parse"), in the tests of its procedure. Done here, before a router
 * hands a schema to `.input()` or `.output()`, which keep the function they are given.
 */
export function parseSynchronously(schema: z.ZodType) {
  schema.parseAsync = async (data, params) => schema.parse(data, params);
}
for (const value of Object.values(validators))
  if (value instanceof z.ZodType) parseSynchronously(value);

/** Input with a NUL or another control character is refused before anything reads it, then the caller's breach. */
async function refuseFirst(getRawInput: () => Promise<unknown>, refusal: AppError | null) {
  const refused = controlRefusal(await getRawInput()) ?? refusal;
  if (refused) throw toTrpcError(refused);
}

/** Domain errors thrown further on carry their own status: they get the matching tRPC code. */
function withDomainCode<R extends { ok: boolean; error?: { cause?: unknown } }>(result: R): R {
  if (!result.ok && result.error?.cause instanceof AppError) throw toTrpcError(result.error.cause);
  return result;
}

/** Anyone: the procedure authorises the call itself (e.g. the OAuth callback's state). */
export const publicProcedure = t.procedure.use(async ({ getRawInput, next }) => {
  await refuseFirst(getRawInput, null);
  return withDomainCode(await next());
});

/**
 * A tier of callers in one middleware (each middleware tRPC runs costs a few copies of the
 * call's options, on every call).
 */
const tier = (rule: AccessRule) =>
  t.procedure.use(async ({ ctx, getRawInput, next }) => {
    await refuseFirst(getRawInput, accessBreach(ctx.principal, rule));
    return withDomainCode(await next({ ctx: { principal: ctx.principal as Principal } }));
  });

/** Requires every named scope of the credential (docs/security.md: scopes never imply others). */
export const scoped = (...scopes: Scope[]) => tier({ scopes }).meta({ access: { scopes } });

/** Scope check first, then role (docs/security.md: both must pass). */
export const adminScoped = (...scopes: Scope[]) =>
  tier({ scopes, role: 'admin' }).meta({ access: { scopes, role: 'admin' } });

/**
 * The dashboard's own procedures (API keys, OAuth applications, two-factor enrollment): a
 * signed-in user only. A bearer token must not mint keys or register clients, which would
 * turn a narrow credential into a wide one.
 */
export const dashboardProcedure = tier({ dashboard: true });

export const dashboardAdminProcedure = tier({ dashboard: true, role: 'admin' });
