import { connect, type Socket } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serializeExchanges } from '../src/socket-queue';

/**
 * The embedded server's one PGlite session, when a connection goes away in the middle of its
 * work (a worker killed by SIGKILL): the others are served, and what the gone connection left
 * uncommitted is rolled back, as a PostgreSQL backend does when its client disconnects.
 * Connections are driven by hand, message by message, to stop them exactly where it matters.
 */

let pglite: PGlite;
let server: PGLiteSocketServer;
let port: number;
let sql: postgres.Sql;
const queue = () => (server as unknown as { queryQueue: { processing: boolean } }).queryQueue;

beforeAll(async () => {
  pglite = new PGlite();
  await pglite.waitReady;
  server = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 8 });
  serializeExchanges(server);
  await server.start();
  port = Number(server.getServerConn().split(':')[1]);
  sql = postgres({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', max: 2 });
  await sql`create table marks (n int)`;
});

afterEach(async () => {
  await sql`delete from marks`;
});

afterAll(async () => {
  await sql.end();
  await server.stop();
  await pglite.close();
});

function message(type: string, body: Uint8Array = new Uint8Array()) {
  const bytes = Buffer.alloc(5 + body.length);
  bytes.write(type, 0, 'latin1');
  bytes.writeInt32BE(4 + body.length, 1);
  bytes.set(body, 5);
  return bytes;
}
const cstring = (text: string) => Buffer.from(`${text}\0`);
const query = (text: string) => message('Q', cstring(text));
const parse = (text: string) =>
  message('P', Buffer.concat([cstring(''), cstring(text), Buffer.alloc(2)]));
const bind = () => message('B', Buffer.concat([cstring(''), cstring(''), Buffer.alloc(6)]));
const execute = () => message('E', Buffer.concat([cstring(''), Buffer.alloc(4)]));

/** A connection at the protocol level: it sends what it is told and reads message types. */
async function rawConnection() {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = Buffer.alloc(0);
  const types: string[] = [];
  const waiting: Array<{ type: string; resolve(): void }> = [];
  socket.on('data', (data) => {
    received = Buffer.concat([received, data]);
    while (received.length >= 5 && received.length >= 1 + received.readInt32BE(1)) {
      const type = String.fromCharCode(received[0] ?? 0);
      types.push(type);
      received = received.subarray(1 + received.readInt32BE(1));
      for (const wait of waiting.filter((w) => w.type === type)) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
    }
  });
  const next = (type: string) => new Promise<void>((resolve) => waiting.push({ type, resolve }));
  const params = Buffer.concat([
    cstring('user'),
    cstring('postgres'),
    cstring('database'),
    cstring('postgres'),
    cstring(''),
  ]);
  const startup = Buffer.alloc(8 + params.length);
  startup.writeInt32BE(startup.length, 0);
  startup.writeInt32BE(196608, 4);
  startup.set(params, 8);
  const ready = next('Z');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(startup);
  await ready;
  return {
    types,
    async send(bytes: Buffer, until: string) {
      const answered = next(until);
      socket.write(bytes);
      await answered;
    },
    write: (bytes: Buffer) => socket.write(bytes),
    close: () =>
      new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.destroy();
      }),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
const within = <T>(promise: Promise<T>, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not answer within 5 s`)), 5_000),
    ),
  ]);

describe('a connection gone in the middle of its work', () => {
  it('does not keep the session when its BEGIN was still running as it closed', async () => {
    const gone = await rawConnection();
    // Hold the session so that the BEGIN is taken from the queue and waits to run.
    let letGo = () => {};
    const held = pglite.runExclusive(() => new Promise<void>((resolve) => (letGo = resolve)));
    gone.write(query('BEGIN'));
    while (!queue().processing) await new Promise((resolve) => setImmediate(resolve));
    await gone.close();
    await settle(); // the server has seen the close before the BEGIN runs
    letGo();
    await held;

    await within(sql`insert into marks values (1)`, 'another connection');
    expect(pglite.isInTransaction()).toBe(false);
    expect(await within(sql`select n from marks`, 'another connection')).toEqual([{ n: 1 }]);
  });

  it('rolls back what it ran in an exchange it never synced', async () => {
    const gone = await rawConnection();
    await gone.send(Buffer.concat([parse('insert into marks values (2)'), bind(), execute()]), 'C');
    await gone.close();
    await settle();

    await within(sql`insert into marks values (3)`, 'another connection');
    expect(await sql`select n from marks`).toEqual([{ n: 3 }]);
  });

  it('rolls back its transaction', async () => {
    const gone = await rawConnection();
    await gone.send(query('BEGIN'), 'Z');
    await gone.send(query('insert into marks values (4)'), 'Z');
    await gone.close();
    await settle();

    await within(sql`insert into marks values (5)`, 'another connection');
    expect(await sql`select n from marks`).toEqual([{ n: 5 }]);
  });

  it('ends an exchange it left failed, which would make the session ignore the next client', async () => {
    const gone = await rawConnection();
    await gone.send(Buffer.concat([parse('select * from missing'), bind(), execute()]), 'E');
    await gone.close();
    await settle();

    expect(await within(sql`select 6 as n`, 'another connection')).toEqual([{ n: 6 }]);
  });

  it('ends a transaction it left failed', async () => {
    const gone = await rawConnection();
    await gone.send(query('BEGIN'), 'Z');
    await gone.send(query('insert into marks values (7)'), 'Z');
    await gone.send(query('select * from missing'), 'Z');
    await gone.close();
    await settle();

    await within(sql`insert into marks values (8)`, 'another connection');
    expect(pglite.isInTransaction()).toBe(false);
    expect(await sql`select n from marks`).toEqual([{ n: 8 }]);
  });
});
