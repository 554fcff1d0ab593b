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
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

/** Messages after which a client's exchange is complete: Sync, simple Query, Terminate, startup. */
const ENDS_EXCHANGE = new Set([0x53, 0x51, 0x58, 0x00]);

/**
 * pglite-socket (0.2.x) serves every connection from one PGlite session and interleaves their
 * protocol messages one by one, so one client's Bind can land on another's Parse ("portal does
 * not exist", "bind message supplies 1 parameters…") when several connections are busy, as
 * pg-boss's pool and the app's are. This keeps the session with one connection from its first
 * extended-protocol message to its Sync (and through a transaction, as pglite-socket does).
 */
export function serializeExchanges(server: PGLiteSocketServer) {
  const queue = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  let open: number | null = null;

  queue.processQueue = async function processQueue(this: QueryQueue) {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    while (this.queue.length > 0) {
      const owner = open ?? (this.db.isInTransaction() ? this.lastHandlerId : null);
      const index = owner === null ? 0 : this.queue.findIndex((q) => q.handlerId === owner);
      if (index === -1) break; // the owner's next message will start the queue again
      const [item] = this.queue.splice(index, 1);
      if (!item) break;
      open = ENDS_EXCHANGE.has(item.message[0] ?? 0) ? null : item.handlerId;
      let bytes = 0;
      try {
        await this.db.runExclusive(() =>
          this.db.execProtocolRawStream(item.message, {
            onRawData: (data) => {
              bytes += data.length;
              item.onData(data);
            },
          }),
        );
      } catch (error) {
        open = null;
        item.reject(error);
        continue;
      }
      this.lastHandlerId = item.handlerId;
      item.resolve(bytes);
    }
    this.processing = false;
  };

  // A client gone mid-exchange must not hold the session for ever.
  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId: number) => {
    clear(handlerId);
    if (open === handlerId) {
      open = null;
      void queue.processQueue();
    }
  };
}
