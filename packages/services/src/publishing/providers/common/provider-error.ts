import { classifyHttp, NetworkError } from '../../http';
import type { ClassifiedError } from '../../provider';

/**
 * A failure the provider has classified itself, where the HTTP status alone would mislead: a
 * refresh the network refused, media it could not process, an upload cut off before any post
 * could exist. `classify` returns its classification as it is.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  /** `cause`: the error it classifies, whose details go to the worker's log (engine/attempt.ts). */
  constructor(
    readonly classified: ClassifiedError,
    options?: { cause?: unknown },
  ) {
    super(classified.message, options);
  }
}

/** What a network answered, for its provider's own rules. */
export interface NetworkAnswer {
  status: number;
  headers: Headers | undefined;
  body: unknown;
  /** `networkFetch`'s description, for answers without a message of the network's own. */
  fallback: string;
}

/**
 * A provider's `classify`: its own verdicts first, then `byAnswer` for an answer from the
 * network, and the shared rules for a request that got no answer.
 */
export function classifyAnswered(
  error: unknown,
  byAnswer: (answer: NetworkAnswer) => ClassifiedError,
): ClassifiedError {
  if (error instanceof ProviderError) return error.classified;
  if (!(error instanceof NetworkError) || error.details.status === undefined) {
    return classifyHttp(error);
  }
  const { status, headers, body } = error.details;
  return byAnswer({ status, headers, body, fallback: error.message });
}
