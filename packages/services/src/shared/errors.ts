/** Every error code a client can see, with its HTTP status (docs/api.md): the one table. */
export const ERROR_STATUS = {
  validation_error: 400,
  invalid_json: 400,
  email_already_exists: 400,
  integration_unavailable: 400,
  missing_api_key: 400,
  integration_not_configured: 400,
  invalid_state: 400,
  idempotency_key_reused: 400,
  unauthorized: 401,
  forbidden: 403,
  insufficient_scope: 403,
  approval_required: 403,
  resource_not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  invalid_status_transition: 409,
  target_locked: 409,
  last_admin: 409,
  webhook_limit_reached: 409,
  webhook_inactive: 409,
  idempotency_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  rate_limit_exceeded: 429,
  internal_error: 500,
  integration_unreachable: 502,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A domain error: services throw these, the doors turn them into responses. */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string) => new AppError('resource_not_found', `${what} not found.`);
