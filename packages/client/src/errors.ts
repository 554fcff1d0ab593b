import { TRPCClientError } from '@trpc/client';

/** The body of the spec's error envelope, as the tRPC door puts it in `data.error`. */
interface ApiErrorBody {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

const isApiErrorBody = (value: unknown): value is ApiErrorBody =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ApiErrorBody).code === 'string' &&
  typeof (value as ApiErrorBody).status === 'number';

/**
 * A refused or failed call, in the API's own terms: `code` (`validation_error`,
 * `resource_not_found`, …), the HTTP `status`, and `details` (e.g. `issues` naming each bad
 * field). A call that never got an answer (network down) is `network_error` with status 0.
 */
export class ChorusApiError extends Error {
  override readonly name = 'ChorusApiError';

  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  static from(error: unknown): ChorusApiError {
    if (error instanceof ChorusApiError) return error;
    if (error instanceof TRPCClientError) {
      const body: unknown = (error.data as { error?: unknown } | undefined)?.error;
      // A refusal made before tRPC read the request (a URL or batch the server's edge
      // refuses) comes in the REST door's envelope, which tRPC cannot read as its own.
      const envelope: unknown = (error.meta as { responseJSON?: { error?: unknown } } | undefined)
        ?.responseJSON?.error;
      const found = isApiErrorBody(body) ? body : isApiErrorBody(envelope) ? envelope : undefined;
      if (found) {
        return new ChorusApiError(found.code, found.status, found.message, found.details, {
          cause: error,
        });
      }
    }
    const message = error instanceof Error ? error.message : 'The call failed.';
    return new ChorusApiError('network_error', 0, message, undefined, { cause: error });
  }
}
