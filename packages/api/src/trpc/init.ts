import { AppError, type ErrorCode } from '@chorus/services';
import type { Principal } from '@chorus/auth';
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
  /** `dashboard`: signed in to the dashboard (a session), not a bearer token. */
  access?: { scopes: Scope[]; role?: Role; dashboard?: true };
  /** The REST status of success when it is not 200. */
  successStatus?: 201 | 204;
  /**
   * Success statuses the procedure chooses per call (through `ctx.response.status`), each with
   * its description and the id of the output component it answers with, for the OpenAPI document.
   */
  successStatuses?: Partial<Record<200 | 201, { description: string; schema: string }>>;
  /**
   * The procedure returns `{ location }`; the REST door answers 302 there, without a body, and
   * reads only the input's own keys from the query (rest/form.ts `ownKeys`).
   */
  redirect?: true;
  /** Domain errors the procedure can answer, beyond those every route of its kind has. */
  errors?: ErrorCode[];
  /**
   * A refusal the path's parameters alone decide, which the REST door makes before it parses
   * the body (after the pipeline's access check): a `coming_soon` integration is refused
   * whatever its body holds, malformed or of another content type (docs/integrations.md).
   */
  beforeBody?: (params: Record<string, string>) => void;
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
 * 10. So a procedure's schemas parse synchronously, even when asked asynchronously. They must
 * stay synchronous: an asynchronous refinement fails its first parse (zod's "Encountered
 * Promise during synchronous parse"), in the tests of its procedure.
 *
 * The schema itself is given the synchronous `parseAsync`, not a copy: zod keeps a schema's
 * OpenAPI id (`.meta({ id })`) by instance, and the OpenAPI document reads the very schema
 * `.input()` and `.output()` were given.
 */
export function parseSynchronously(schema: z.ZodType) {
  schema.parseAsync = async (data, params) => schema.parse(data, params);
}

/**
 * The procedure builder every tier starts from: its `.input()` and `.output()` apply
 * `parseSynchronously` to the schema they are given, before tRPC keeps the schema's
 * `parseAsync` (it binds it then). Every procedure's schemas thus parse synchronously, those a
 * router extends or writes inline included, and the schemas no procedure uses are left as zod
 * made them. Only the builder is wrapped: a built procedure is tRPC's own, with nothing in
 * between on a call.
 */
function parsingSynchronously<B extends object>(builder: B): B {
  return new Proxy(builder, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const [schema] = args;
        if ((key === 'input' || key === 'output') && schema instanceof z.ZodType)
          parseSynchronously(schema);
        const next: unknown = value.apply(target, args);
        const isBuilder =
          typeof next === 'object' && next !== null && 'input' in next && 'query' in next;
        return isBuilder ? parsingSynchronously(next) : next;
      };
    },
  });
}

const procedure = parsingSynchronously(t.procedure);

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
export const publicProcedure = procedure.use(async ({ getRawInput, next }) => {
  await refuseFirst(getRawInput, null);
  return withDomainCode(await next());
});

/**
 * A tier of callers in one middleware (each middleware tRPC runs costs a few copies of the
 * call's options, on every call). The pipeline has checked the same rule, read from the meta
 * the tiers below declare, before any door's call gets here: this is the second look, for a
 * caller made without the pipeline (tests, scripts).
 */
const tier = (rule: AccessRule) =>
  procedure.use(async ({ ctx, getRawInput, next }) => {
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
export const dashboardProcedure = tier({ dashboard: true }).meta({
  access: { scopes: [], dashboard: true },
});

export const dashboardAdminProcedure = tier({ dashboard: true, role: 'admin' }).meta({
  access: { scopes: [], dashboard: true, role: 'admin' },
});
