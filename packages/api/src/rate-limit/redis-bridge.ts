import { createHash } from 'node:crypto';
import type { Requester, UpstashRequest, UpstashResponse } from '@upstash/redis';
import { Redis as TcpRedis } from 'ioredis';

export type { TcpRedis };

type Reply = UpstashResponse<unknown>;

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/**
 * Redis 7.0 refuses the `#!lua flags=allow-key-locking` first line of @upstash/ratelimit's
 * scripts; without it a script runs with the same (pre-7.0) semantics.
 */
const stripShebang = (script: string) => script.replace(/^#![^\n]*\n/, '');

/** A Redis error reply (e.g. NOSCRIPT), as opposed to a connection failure. */
const isReplyError = (error: unknown) => error instanceof Error && error.name === 'ReplyError';

/**
 * Lets @upstash/redis (hence @upstash/ratelimit) talk to an ordinary Redis over TCP: it hands
 * each command as Upstash's REST body (a command array; batches under `pipeline` or
 * `multi-exec`) and expects Upstash's answers, `{ result }` or `{ error }`, plain values.
 * Connection failures reject, so the limiter can fail open.
 */
export function redisBridge(client: TcpRedis): Requester {
  // The script's own sha (what the library sends) → the sha Redis knows it by once stripped.
  const shas = new Map<string, string>();

  function translate(command: string[]): string[] {
    const [name = '', first = '', ...rest] = command;
    switch (name.toLowerCase()) {
      case 'eval':
      case 'eval_ro': {
        const script = stripShebang(first);
        shas.set(sha1(first), sha1(script));
        return [name, script, ...rest];
      }
      case 'evalsha':
      case 'evalsha_ro':
        // Unknown shas go through as they are: Redis says NOSCRIPT and the library sends EVAL.
        return [name, shas.get(first) ?? first, ...rest];
      default:
        return command;
    }
  }

  // REST bodies are JSON: numbers arrive as numbers, Redis wants strings.
  const toCommand = (body: unknown) => translate((body as unknown[]).map(String));

  async function one(body: unknown): Promise<Reply> {
    const [name = '', ...args] = toCommand(body);
    try {
      return { result: await client.call(name, ...args) };
    } catch (error) {
      if (isReplyError(error)) return { error: (error as Error).message };
      throw error;
    }
  }

  async function batch(body: unknown, transaction: boolean): Promise<Reply[]> {
    const commands = (body as unknown[]).map(toCommand);
    const results = await (transaction ? client.multi(commands) : client.pipeline(commands)).exec();
    if (!results) throw new Error('The transaction was aborted.');
    return results.map(([error, result]) =>
      error ? { error: error.message } : { result: result ?? null },
    );
  }

  return {
    request: async <TResult>(req: UpstashRequest) => {
      const [path] = req.path ?? [];
      // Batches answer a list of replies, which is what @upstash/redis's Pipeline reads.
      const reply =
        path === 'pipeline' || path === 'multi-exec'
          ? await batch(req.body, path === 'multi-exec')
          : await one(req.body);
      return reply as UpstashResponse<TResult>;
    },
  };
}

/**
 * A TCP client that gives up quickly: commands sent while Redis is away fail at the first
 * failed reconnection instead of queueing for long (the limiter bounds each wait anyway).
 */
export function tcpRedis(url: string, onError: (error: Error) => void): TcpRedis {
  const client = new TcpRedis(url, {
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    // Commands of concurrent requests leave in one write (one system call), not one each.
    enableAutoPipelining: true,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  });
  // Without a listener ioredis prints every reconnection failure to the console.
  client.on('error', onError);
  return client;
}
