import { AppError, type ErrorCode } from '@chorus/services';
import type { Role, Scope } from '@chorus/validators';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { requireScopes } from './access';
import type { Context } from './context';
import { toApiError, toTrpcError } from './errors';
import { nulRefusal } from './refuse-nul';

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
 * Every procedure: input with a NUL character is refused before anything reads it, and domain
 * errors carry their own status, so they get the matching tRPC code.
 */
export const publicProcedure = t.procedure.use(async ({ getRawInput, next }) => {
  const refused = nulRefusal(await getRawInput());
  if (refused) throw toTrpcError(refused);
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) throw toTrpcError(result.error.cause);
  return result;
});

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.principal) throw new AppError('unauthorized', 'Authentication required.');
  return next({ ctx: { principal: ctx.principal } });
});

/** Requires every named scope of the credential (decisions §2: scopes never imply others). */
export const scoped = (...scopes: Scope[]) =>
  authedProcedure.meta({ access: { scopes } }).use(({ ctx, next }) => {
    requireScopes(ctx.principal, scopes);
    return next();
  });

/** Scope check first, then role (decisions §1: both must pass). */
export const adminScoped = (...scopes: Scope[]) =>
  scoped(...scopes)
    .meta({ access: { scopes, role: 'admin' } })
    .use(({ ctx, next }) => {
      if (ctx.principal.role !== 'admin')
        throw new AppError('forbidden', 'Only admins can do this.');
      return next();
    });

/**
 * The dashboard's own procedures (API keys, OAuth applications, two-factor enrollment): a
 * signed-in user only. A bearer token must not mint keys or register clients, which would
 * turn a narrow credential into a wide one.
 */
export const dashboardProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.principal.credential.kind !== 'session') {
    throw new AppError('forbidden', 'This is done in the dashboard, signed in.');
  }
  return next();
});

export const dashboardAdminProcedure = dashboardProcedure.use(({ ctx, next }) => {
  if (ctx.principal.role !== 'admin') throw new AppError('forbidden', 'Only admins can do this.');
  return next();
});
