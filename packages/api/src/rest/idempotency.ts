import { createHash } from 'node:crypto';
import type { Principal } from '@chorus/auth';
import type { Db } from '@chorus/db';
import {
  AppError,
  claimIdempotencyKey,
  completeIdempotencyKey,
  purgeExpiredIdempotencyKeys,
  releaseIdempotencyKey,
  type StoredResponse,
} from '@chorus/services';
import { toApiError } from '../server/errors';
import { JsonAnswer, type Answer } from '../server/node-fetch';
import { describeError, log } from '../server/logger';
import { errorEnvelope } from '../server/respond';

const MAX_KEY_LENGTH = 255;

/** Expired keys are ignored by claims; deleting them is housekeeping, done now and then. */
const PURGE_EVERY_MS = 10 * 60_000;
const lastPurge = new WeakMap<Db, number>();

function purgeNowAndThen(db: Db) {
  const now = Date.now();
  if (now - (lastPurge.get(db) ?? 0) < PURGE_EVERY_MS) return;
  lastPurge.set(db, now);
  purgeExpiredIdempotencyKeys(db).catch((error: unknown) =>
    log('warn', 'purging expired idempotency keys failed', { error: describeError(error) }),
  );
}

/** The same JSON whatever the order of its keys: a retry need not serialise identically. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
  );
}

/**
 * The credential an Idempotency-Key belongs to (keys are scoped per credential, docs/rate-limits-and-idempotency.md
 * being silent): an API key; an OAuth client for one user (its tokens rotate hourly, and a
 * retry after a refresh is still the same caller); a dashboard session.
 */
export function credentialOf(principal: Principal): string {
  const { credential } = principal;
  switch (credential.kind) {
    case 'api_key':
      return `key:${credential.id}`;
    case 'oauth':
      return `oauth:${credential.clientId ?? credential.id}:${principal.userId}`;
    case 'session':
      return `session:${credential.id}`;
  }
}

/**
 * Who sent what: a retry must match it. The user is part of it, so that another user of the
 * account cannot obtain this user's answer by reusing the key.
 */
export const requestFingerprint = (userId: string, method: string, target: string, body: unknown) =>
  createHash('sha256')
    .update(JSON.stringify([userId, method, target, canonical(body)]))
    .digest('hex');

export interface IdempotentRequest {
  db: Db;
  principal: Principal;
  /** The Idempotency-Key header, null when absent. */
  key: string | null;
  method: string;
  /** Path and query string. */
  target: string;
  /** The parsed body, as the procedure receives it. */
  body: unknown;
  headers: Headers;
}

function validKey(key: string) {
  if (key.length >= 1 && key.length <= MAX_KEY_LENGTH) return key;
  const message = `Must be 1 to ${MAX_KEY_LENGTH} characters.`;
  throw new AppError('validation_error', `The Idempotency-Key header is invalid: ${message}`, {
    issues: [{ path: 'Idempotency-Key', message }],
  });
}

function replay(stored: StoredResponse, headers: Headers) {
  headers.set('Idempotent-Replayed', 'true');
  return answerWith(stored, headers);
}

function answerWith({ status, body }: StoredResponse, headers: Headers): Answer {
  if (body === null) return new Response(null, { status, headers });
  headers.set('Content-Type', 'application/json; charset=utf-8');
  return new JsonAnswer(status, headers, body);
}

/**
 * Runs a POST at most once per Idempotency-Key of a credential (docs/rate-limits-and-idempotency.md). The first
 * answer is kept for 24 hours, sealed, and replayed to retries of the same request by the same
 * credential, 2xx and 4xx alike
 * (as Stripe does: the outcome of a request is final). A 5xx is not kept: the key is released
 * so that a retry runs the request again.
 */
export async function withIdempotency(
  req: IdempotentRequest,
  run: () => Promise<Answer>,
): Promise<Answer> {
  if (req.key === null) return run();
  const ref = {
    db: req.db,
    accountId: req.principal.accountId,
    credential: credentialOf(req.principal),
    key: validKey(req.key),
  };
  const fingerprint = requestFingerprint(req.principal.userId, req.method, req.target, req.body);
  purgeNowAndThen(req.db);
  const claim = await claimIdempotencyKey({ ...ref, fingerprint });
  if (claim.kind === 'replay') return replay(claim.response, req.headers);

  const settle = async (response: StoredResponse | null) => {
    try {
      if (response) await completeIdempotencyKey({ ...ref, lockToken: claim.lockToken, response });
      else await releaseIdempotencyKey({ ...ref, lockToken: claim.lockToken });
    } catch (error) {
      // The work is done and its answer goes out; a retry meets 409 until the claim is stale.
      log('error', 'recording an idempotent answer failed', { error: describeError(error) });
    }
  };
  let response: Answer;
  try {
    response = await run();
  } catch (error) {
    const failure = toApiError(error);
    await settle(
      failure.status < 500
        ? { status: failure.status, body: JSON.stringify(errorEnvelope(failure)) }
        : null,
    );
    throw error;
  }
  const body = (response instanceof JsonAnswer ? response.text : await response.text()) || null;
  const stored = { status: response.status, body };
  await settle(stored);
  return answerWith(stored, response.headers);
}
