import { WEBHOOK_ATTEMPT_TIMEOUT_SECONDS } from '@chorus/settings';
import { guardedRequest } from './guarded-request';
import { TargetRefused } from './targets';

/** A 2xx within this is a success (docs/webhooks.md); the lease setting is checked against it. */
export const ATTEMPT_TIMEOUT_MS = WEBHOOK_ATTEMPT_TIMEOUT_SECONDS * 1000;
/** What the delivery log keeps of an answer. */
export const EXCERPT_BYTES = 1024;

export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

/** PostgreSQL text cannot hold NUL; a hostile receiver's answer must still be loggable. */
const loggable = (text: string) => text.replaceAll('\0', '');

/** What the log keeps of an error: a refusal says so (the check's or the connection's). */
const described = (error: Error) =>
  error instanceof TargetRefused
    ? `refused: ${error.message}`
    : loggable(error.message).slice(0, 200);

/**
 * One POST of a signed body, through the guarded sender (guarded-request.ts: the target
 * checked again now, the connection refusing private addresses, redirects not followed, so a
 * 3xx is a failure). The whole attempt, the check's DNS included, is cut at 10 s: the claim's
 * lease (CHORUS_WEBHOOK_LEASE_SECONDS) outlasts an attempt only so. Only the first 1 KiB of
 * the answer is read.
 */
export async function sendAttempt(opts: {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowPrivateTargets: boolean;
}): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const abort = new AbortController();
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    // The answer so far: a status in time counts even if its body is still coming.
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    const excerpt = () =>
      loggable(Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'));
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Ends whatever is still under way: the check, the connection or the answer.
      abort.abort();
      resolve({ ...result, durationMs: elapsed() });
    };
    const timer = setTimeout(
      () =>
        statusCode === null
          ? finish({ statusCode: null, responseExcerpt: null, error: 'timeout' })
          : finish({ statusCode, responseExcerpt: excerpt(), error: null }),
      ATTEMPT_TIMEOUT_MS,
    );
    guardedRequest(opts.url, {
      method: 'POST',
      headers: { ...opts.headers, 'content-length': Buffer.byteLength(opts.body) },
      body: opts.body,
      allowPrivate: opts.allowPrivateTargets,
      signal: abort.signal,
    }).then(
      (res) => {
        statusCode = res.statusCode ?? null;
        let size = 0;
        const done = () => finish({ statusCode, responseExcerpt: excerpt(), error: null });
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= EXCERPT_BYTES) done();
        });
        res.on('end', done);
        res.on('error', done);
      },
      (error: Error) =>
        finish({ statusCode: null, responseExcerpt: null, error: described(error) }),
    );
  });
}
