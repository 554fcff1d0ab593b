import type { ServerResponse } from 'node:http';
import { sendJson, startStandIn, type StandIn } from './http-kit';

/**
 * A server posing as a network (a Mastodon instance, a token endpoint) that answers what a test
 * scripts by path, hostile answers included: JSON of any shape, or a flood, a body far larger
 * than any real answer, written only as fast as the client reads it. Each flood records how
 * much of it was written before the client hung up, which is how a test sees that an answer
 * was not read whole (the memory it would have taken is the bytes read).
 */

export type HostileAnswer =
  | { status?: number; json: unknown }
  | {
      status?: number;
      /** The body's size in bytes: a JSON object with `fields`, padded to that size. */
      flood: number;
      fields?: Record<string, string>;
      /** Sends Content-Length (the flood's size); false: chunked, as a stream is. */
      declare?: boolean;
      /** Sends the headers, then nothing: a body announced and never coming. */
      stall?: boolean;
    };

export interface Flood {
  path: string;
  /** The body's size. */
  total: number;
  /** The bytes handed to the connection before it closed (the kernel's buffers included). */
  written: number;
  /** The client closed the connection before the whole body was written. */
  hungUp: boolean;
  /** Resolves when the connection has closed, the body sent or not. */
  closed: Promise<void>;
}

export interface HostileServer extends StandIn {
  /** Answers `path` (without its query) with `answer` from now on; 404 for paths not set. */
  answer(path: string, answer: HostileAnswer): void;
  reset(): void;
  floods: Flood[];
}

const CHUNK = 64 * 1024;

async function flood(
  res: ServerResponse,
  answer: Extract<HostileAnswer, { flood: number }>,
  record: Omit<Flood, 'closed'>,
) {
  const fields = JSON.stringify(answer.fields ?? {}).slice(0, -1);
  const head = Buffer.from(`${fields}${fields.length > 1 ? ',' : ''}"pad":"`);
  const tail = Buffer.from('"}');
  const padding = answer.flood - head.length - tail.length;
  if (padding < 0) throw new Error('the flood is smaller than its fields');
  res.writeHead(answer.status ?? 200, {
    'content-type': 'application/json',
    ...(answer.declare ? { 'content-length': String(answer.flood) } : {}),
  });
  res.flushHeaders();
  if (answer.stall) return;
  const pad = Buffer.alloc(CHUNK, 'x');
  const send = (bytes: Buffer) => {
    record.written += bytes.length;
    return res.write(bytes);
  };
  send(head);
  for (let left = padding; left > 0 && !res.destroyed;) {
    const size = Math.min(CHUNK, left);
    left -= size;
    if (!send(pad.subarray(0, size)) && !res.destroyed) {
      await new Promise<void>((resolve) => {
        const go = () => {
          res.off('drain', go);
          res.off('close', go);
          resolve();
        };
        res.on('drain', go);
        res.on('close', go);
      });
    }
  }
  if (!res.destroyed) {
    record.written += tail.length;
    res.end(tail);
  }
}

export async function startHostileServer(): Promise<HostileServer> {
  const answers = new Map<string, HostileAnswer>();
  const floods: Flood[] = [];
  const standIn = await startStandIn(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const answer = answers.get(path);
    if (!answer) return sendJson(res, 404, { error: 'Record not found' });
    if ('json' in answer) return sendJson(res, answer.status ?? 200, answer.json);
    const record = { path, total: answer.flood, written: 0, hungUp: false };
    const closed = new Promise<void>((resolve) =>
      res.once('close', () => {
        record.hungUp = !res.writableFinished;
        resolve();
      }),
    );
    floods.push(Object.assign(record, { closed }));
    await flood(res, answer, record);
  });
  return {
    ...standIn,
    answer: (path, answer) => void answers.set(path, answer),
    reset: () => {
      answers.clear();
      floods.length = 0;
    },
    floods,
  };
}
