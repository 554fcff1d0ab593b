import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { WEBHOOK_ATTEMPT_TIMEOUT_SECONDS } from '@chorus/settings';
import { checkTarget, guardedLookup } from './targets';

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

/**
 * One POST of a signed body: redirects are not followed (a 3xx is a failure), the whole
 * exchange is cut at 10 s, and only the first 1 KiB of the answer is read. The target is
 * checked again now, and the connection itself refuses private addresses (DNS can change).
 */
export async function sendAttempt(opts: {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowPrivateTargets: boolean;
}): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    await checkTarget(opts.url, opts.allowPrivateTargets);
  } catch (error) {
    return {
      statusCode: null,
      durationMs: elapsed(),
      responseExcerpt: null,
      error: `refused: ${(error as Error).message}`,
    };
  }
  const url = new URL(opts.url);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
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
      req.destroy();
      resolve({ ...result, durationMs: elapsed() });
    };
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...opts.headers, 'content-length': Buffer.byteLength(opts.body) },
        lookup: guardedLookup(opts.allowPrivateTargets),
        agent: false,
      },
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
    );
    const timer = setTimeout(
      () =>
        statusCode === null
          ? finish({ statusCode: null, responseExcerpt: null, error: 'timeout' })
          : finish({ statusCode, responseExcerpt: excerpt(), error: null }),
      ATTEMPT_TIMEOUT_MS,
    );
    req.on('error', (error) =>
      finish({
        statusCode: null,
        responseExcerpt: null,
        error: loggable(error.message).slice(0, 200),
      }),
    );
    req.end(opts.body);
  });
}
