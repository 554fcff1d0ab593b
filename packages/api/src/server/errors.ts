import { isUnavailable } from '@chorus/db';
import { AppError, ERROR_STATUS, type ErrorCode } from '@chorus/services';
import { issuePath } from '@chorus/validators';
import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

/** An error as a client sees it: the body of the spec's envelope. */
export interface ApiError {
  status: number;
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

interface IssueLike {
  path: PropertyKey[];
  message: string;
}

const hasIssues = (value: unknown): value is { issues: IssueLike[] } =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as { issues?: unknown }).issues);

const fromAppError = (e: AppError): ApiError => ({
  status: e.status,
  code: e.code,
  message: e.message,
  ...(e.details && { details: e.details }),
});

export const apiError = (code: ErrorCode, message: string, details?: Record<string, unknown>) =>
  fromAppError(new AppError(code, message, details));

/** How much of a request's path an error repeats: enough to spot a typo, never a whole long URL. */
const ECHOED_PATH_CHARS = 200;

/**
 * A client's text as an error message quotes it: its first `chars` characters (a path's 200),
 * an ellipsis after.
 */
export const echoedPath = (text: string, chars = ECHOED_PATH_CHARS) =>
  text.length > chars ? `${text.slice(0, chars)}…` : text;

/** 404 route_not_found: no route serves the path (every door and the listener). */
export const routeNotFound = (path: string) =>
  new AppError('route_not_found', `No route for ${echoedPath(path)}.`);

/** tRPC codes that stand for one of ours when no AppError is behind them. */
const BY_TRPC_CODE: Partial<Record<TRPC_ERROR_CODE_KEY, [ErrorCode, string]>> = {
  PARSE_ERROR: ['invalid_json', 'The request body is not valid JSON.'],
  UNAUTHORIZED: ['unauthorized', 'Authentication required.'],
  FORBIDDEN: ['forbidden', 'You do not have permission to do this.'],
  NOT_FOUND: ['resource_not_found', 'Resource not found.'],
  METHOD_NOT_SUPPORTED: [
    'method_not_allowed',
    'This method is not allowed here: a query is called with GET, a mutation with POST.',
  ],
  PAYLOAD_TOO_LARGE: ['payload_too_large', 'The request body is too large.'],
  UNSUPPORTED_MEDIA_TYPE: ['unsupported_media_type', 'Unsupported content type.'],
};

/**
 * The single translation from anything thrown to what a client may see. Unexpected errors
 * become `internal_error` with a fixed message: no stack, SQL or internal name leaks.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof AppError) return fromAppError(error);
  if (isUnavailable(error)) {
    return apiError(
      'service_unavailable',
      'The service is temporarily unavailable; retry shortly.',
    );
  }
  if (!(error instanceof TRPCError))
    return apiError('internal_error', 'An unexpected error occurred.');
  if (error.cause instanceof AppError) return fromAppError(error.cause);
  if (error.code === 'BAD_REQUEST' && hasIssues(error.cause)) {
    const issues = error.cause.issues.map((issue) => ({
      path: issuePath(issue.path),
      message: issue.message,
    }));
    return apiError('validation_error', 'The request is not valid.', { issues });
  }
  const known = BY_TRPC_CODE[error.code];
  return known ? apiError(...known) : apiError('internal_error', 'An unexpected error occurred.');
}

const TRPC_CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

/** The tRPC code of an HTTP status. */
export const trpcCodeFor = (status: number): TRPC_ERROR_CODE_KEY =>
  TRPC_CODE_BY_STATUS[status] ?? 'INTERNAL_SERVER_ERROR';

/** Gives a domain error its tRPC code, so the tRPC door answers with the right HTTP status. */
export const toTrpcError = (e: AppError) =>
  new TRPCError({
    code: trpcCodeFor(e.status),
    message: e.message,
    cause: e,
  });

export { ERROR_STATUS };
