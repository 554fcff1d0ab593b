/**
 * The bare baseline of `npm run bench:api`: node:http + postgres.js + ioredis doing the work
 * of `GET /api/users`, `POST /api/users` and `GET /api/content/posts` and nothing else (no framework, no validation
 * library, no envelope code): the SHA-256 key lookup with its user and account, one Redis
 * counter, one page of users and the total (from the per-role counts, kept on create as
 * Chorus keeps them), the same JSON. What the product may cost is
 * measured against this. Env: PORT, DATABASE_URL, REDIS_URL.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { hashPassword } from '@chorus/auth';
import { Redis } from 'ioredis';
import postgres from 'postgres';

const sql = postgres(process.env.DATABASE_URL ?? '', { max: 10, onnotice: () => {} });
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

interface Caller {
  account_id: string;
  role: string;
}

async function caller(req: IncomingMessage): Promise<Caller | undefined> {
  const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (!token) return undefined;
  const hash = createHash('sha256').update(token).digest('hex');
  const [row] = await sql<Caller[]>`
    select u.role, a.id as account_id from api_keys k
    join users u on u.id = k.user_id join accounts a on a.id = k.account_id
    where k.token_hash = ${hash} and k.revoked_at is null
      and (k.expires_at is null or k.expires_at > now()) limit 1`;
  return row;
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

async function list(res: ServerResponse, who: Caller, url: URL) {
  const limit = Number(url.searchParams.get('limit') ?? 50);
  const page = Number(url.searchParams.get('page') ?? 1);
  const [rows, [counted]] = await Promise.all([
    sql`select id, name, email, role, created_at from users where account_id = ${who.account_id}
        order by created_at desc, id desc limit ${limit} offset ${(page - 1) * limit}`,
    sql<{ total: number }[]>`select coalesce(sum(count), 0)::int as total from user_counts
        where account_id = ${who.account_id}`,
  ]);
  const total = counted?.total ?? 0;
  send(res, 200, {
    data: rows.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      role: r.role,
      createdAt: (r.created_at as Date).toISOString(),
    })),
    pagination: { total, page, limit, pages: Math.ceil(total / limit) },
  });
}

const iso = (at: unknown) => (at instanceof Date ? at.toISOString() : null);

/**
 * A page of posts, newest first, with their media ids and targets, and the total from the
 * counts the database keeps per status (docs/posts-and-scheduler.md#the-lists-total): the page
 * and the total at once, then the media and targets of the page at once.
 */
async function listPosts(res: ServerResponse, who: Caller, url: URL) {
  const limit = Number(url.searchParams.get('limit') ?? 25);
  const page = Number(url.searchParams.get('page') ?? 1);
  const [rows, [counted]] = await Promise.all([
    sql`select * from posts where account_id = ${who.account_id}
        order by created_at desc, id desc limit ${limit} offset ${(page - 1) * limit}`,
    sql<{ total: number }[]>`select coalesce(sum(count), 0)::int as total from post_counts
        where account_id = ${who.account_id}`,
  ]);
  const ids = rows.map((r) => r.id as string);
  const [media, targets] = await Promise.all([
    sql`select post_id, media_id from post_media where post_id = any(${ids})
        order by post_id, position`,
    sql`select * from post_targets where post_id = any(${ids}) order by post_id, position`,
  ]);
  const total = counted?.total ?? 0;
  send(res, 200, {
    success: true,
    data: rows.map((r) => ({
      id: r.id,
      title: r.title,
      content: r.content,
      status: r.status,
      tags: r.tags,
      mediaIds: media.filter((m) => m.post_id === r.id).map((m) => m.media_id),
      scheduledAt: iso(r.scheduled_at),
      publishedAt: iso(r.published_at),
      authorId: r.author_id,
      targets: targets
        .filter((t) => t.post_id === r.id)
        .map((t) => ({ id: t.id, channelId: t.channel_id, status: t.status, url: t.url })),
      rejection: null,
      recurrence: r.recurrence,
      recurrenceOf: r.recurrence_of,
      nextOccurrences: [],
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
    })),
    meta: {
      pagination: {
        total,
        count: rows.length,
        perPage: limit,
        currentPage: page,
        totalPages: Math.ceil(total / limit),
      },
    },
  });
}

async function create(req: IncomingMessage, res: ServerResponse, who: Caller) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const input = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, string>;
  const id = `usr_${randomBytes(13).toString('hex')}`;
  const passwordHash = await hashPassword(input.password ?? '');
  const role = input.role ?? 'user';
  const [row] = await sql.begin(async (tx) => {
    const inserted = await tx`insert into users (id, account_id, name, email, password_hash, role)
      values (${id}, ${who.account_id}, ${input.name ?? ''}, ${input.email ?? ''}, ${passwordHash},
      ${role}) returning id, name, email, role, created_at`;
    await tx`insert into user_counts (account_id, role, count) values (${who.account_id}, ${role}, 1)
      on conflict (account_id, role) do update set count = user_counts.count + 1`;
    return inserted;
  });
  send(res, 201, { ...row, createdAt: (row?.created_at as Date).toISOString() });
}

createServer((req, res) => {
  (async () => {
    const who = await caller(req);
    if (!who) return send(res, 401, { success: false });
    await redis.incr(`baseline:${who.account_id}:${Math.floor(Date.now() / 60_000)}`);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/api/users' && req.method === 'GET') return list(res, who, url);
    if (url.pathname === '/api/users' && req.method === 'POST') return create(req, res, who);
    if (url.pathname === '/api/content/posts' && req.method === 'GET') {
      return listPosts(res, who, url);
    }
    send(res, 404, { success: false });
  })().catch(() => send(res, 500, { success: false }));
}).listen(Number(process.env.PORT ?? 3100), '127.0.0.1');
