import type { AppRouter } from '@chorus/api';
import { TRPCClientError } from '@trpc/client';

/** The spec's error envelope, as the tRPC door's error formatter puts it in `data.error`. */
export interface ChorusErrorBody {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

const isErrorBody = (value: unknown): value is ChorusErrorBody =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ChorusErrorBody).status === 'number' &&
  typeof (value as ChorusErrorBody).code === 'string' &&
  typeof (value as ChorusErrorBody).message === 'string';

/**
 * A failed call, with the spec's `code`, `status` and `details` (the same as REST answers).
 * It extends tRPC's client error so tRPC passes it through to the caller unchanged.
 */
export class ChorusApiError extends TRPCClientError<AppRouter> {
  readonly code: string;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;

  constructor(body: ChorusErrorBody, cause?: unknown) {
    super(body.message, { cause: cause instanceof Error ? cause : undefined });
    // TRPCClientError's constructor pins its own prototype; restore ours so `instanceof` works.
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = 'ChorusApiError';
    this.code = body.code;
    this.status = body.status;
    this.details = body.details;
  }

  /**
   * The envelope of a tRPC failure; a failure without one (the server unreachable, a proxy's
   * own page) is `service_unavailable`, which callers already retry.
   */
  static fromTrpc(error: TRPCClientError<AppRouter>): ChorusApiError {
    if (error instanceof ChorusApiError) return error;
    const body: unknown = (error.data as { error?: unknown } | undefined)?.error;
    if (isErrorBody(body)) return new ChorusApiError(body, error);
    return new ChorusApiError(
      { status: 503, code: 'service_unavailable', message: error.message },
      error,
    );
  }
}
