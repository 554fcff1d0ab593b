import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve(bytes: number): void;
  reject(error: unknown): void;
  onData(data: Uint8Array): void;
}

interface QueryQueue {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: {
    isInTransaction(): boolean;
    runExclusive<T>(fn: () => Promise<T>): Promise<T>;
    execProtocolRawStream(
      message: Uint8Array,
      options: { onRawData(data: Uint8Array): void },
    ): Promise<void>;
  };
  enqueue(
    handlerId: number,
    message: Uint8Array,
    onData: (data: Uint8Array) => void,
  ): Promise<number>;
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
}

/** Messages after which a client's exchange is complete: Sync, simple Query, Terminate, startup. */
const ENDS_EXCHANGE = new Set([0x53, 0x51, 0x58, 0x00]);

const SYNC = Uint8Array.of(0x53, 0, 0, 0, 4);
const ROLLBACK = simpleQuery('ROLLBACK');

function simpleQuery(text: string) {
  const body = new TextEncoder().encode(`${text}\0`);
  const message = new Uint8Array(5 + body.length);
  message[0] = 0x51;
  new DataView(message.buffer).setInt32(1, 4 + body.length);
  message.set(body, 5);
  return message;
}

/**
 * pglite-socket (0.2.x) serves every connection from one PGlite session and interleaves their
 * protocol messages one by one, so one client's Bind can land on another's Parse ("portal does
 * not exist", "bind message supplies 1 parameters…") when several connections are busy, as
 * pg-boss's pool and the app's are. This keeps the session with one connection from its first
 * extended-protocol message to its Sync, and through a transaction, as pglite-socket does.
 *
 * It also frees the session from a connection that is gone, as PostgreSQL would end that
 * connection's backend: whatever the connection left open (a transaction, an exchange without
 * its Sync, statements run in it) is rolled back before anyone else is served. pglite-socket
 * checks this only when the connection closes, so a message of the connection that was still
 * running then (a `BEGIN`) left the session in its transaction, and every client waited for
 * ever (a worker killed mid-query stopped the embedded database).
 */
export function serializeExchanges(server: PGLiteSocketServer) {
  const queue = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  /** Connections that have sent a message and not closed: only they can own the session. */
  const live = new Set<number>();
  let open: number | null = null;

  const enqueue = queue.enqueue.bind(queue);
  queue.enqueue = (handlerId, message, onData) => {
    live.add(handlerId);
    return enqueue(handlerId, message, onData);
  };

  const run = (message: Uint8Array, onRawData: (data: Uint8Array) => void) =>
    queue.db.runExclusive(() => queue.db.execProtocolRawStream(message, { onRawData }));
  const discard = () => {};

  /**
   * A ROLLBACK ends an explicit transaction or an exchange's implicit one; the Sync ends an
   * exchange that failed (the session ignores everything before it, the ROLLBACK too), and a
   * transaction that failed needs the second ROLLBACK.
   */
  async function release() {
    try {
      await run(ROLLBACK, discard);
      await run(SYNC, discard);
      if (queue.db.isInTransaction()) await run(ROLLBACK, discard);
    } finally {
      open = null;
      queue.lastHandlerId = null;
    }
  }

  queue.processQueue = async function processQueue(this: QueryQueue) {
    if (this.processing) return;
    this.processing = true;
    try {
      while (true) {
        const owner = open ?? (this.db.isInTransaction() ? this.lastHandlerId : null);
        if (owner !== null && !live.has(owner)) {
          await release();
          continue;
        }
        const index = owner === null ? 0 : this.queue.findIndex((q) => q.handlerId === owner);
        if (index === -1) break; // the owner's next message, or its leaving, starts the queue again
        const [item] = this.queue.splice(index, 1);
        if (!item) break;
        open = ENDS_EXCHANGE.has(item.message[0] ?? 0) ? null : item.handlerId;
        let bytes = 0;
        try {
          await run(item.message, (data) => {
            bytes += data.length;
            item.onData(data);
          });
        } catch (error) {
          open = null;
          item.reject(error);
          continue;
        }
        this.lastHandlerId = item.handlerId;
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  };

  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId: number) => {
    clear(handlerId);
    live.delete(handlerId);
  };
  // The queue itself releases what a gone connection held, even if a message of it was still
  // running when it closed.
  queue.clearTransactionIfNeeded = () => queue.processQueue();
}
