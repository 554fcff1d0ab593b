import {
  AppError,
  importPosts,
  MAX_IMPORT_ROWS,
  tooManyRows,
  type ImportRow,
} from '@chorus/services';
import { ZImportQuery } from '@chorus/validators';
import { parse } from 'csv-parse';
import { readCapped } from '../server/body-limit';
import type { Answer } from '../server/node-fetch';
import { controlRefusal } from '../server/refuse-control';
import { readJsonBody } from '../rest/body';
import { json } from '../server/respond';
import { signedIn, type HandlerContext } from '../rest/routes';
import { splitList, unsafeCell } from './csv';

/** The largest import body: 1,000 rows of a few KiB each, with room to spare. */
export const MAX_IMPORT_BYTES = 16 * 1024 * 1024;

/** The columns a CSV import reads (docs/settings-and-import-export.md); others (an export's `id`, `status`) are ignored. */
export const IMPORT_COLUMNS = ['title', 'content', 'tags', 'scheduledAt', 'channels'] as const;

const invalid = (message: string, issues: { path: string; message: string; line?: number }[]) =>
  new AppError('validation_error', message, { issues });

/** A CSV record as the create body its columns stand for. */
function fieldsOfRecord(record: Record<string, string>): Record<string, unknown> {
  const fields: Record<string, unknown> = Object.create(null);
  const cell = (name: string) => unsafeCell(record[name] ?? '');
  fields.title = cell('title');
  if ('content' in record) fields.content = cell('content');
  if ('tags' in record) fields.tags = splitList(cell('tags'));
  const scheduledAt = cell('scheduledAt').trim();
  if (scheduledAt !== '') fields.scheduledAt = scheduledAt;
  const channels = 'channels' in record ? splitList(cell('channels')) : [];
  // Channels become the create's targets, checked there like any create's.
  if (channels.length > 0) fields.targets = channels.map((channelId) => ({ channelId }));
  return fields;
}

/**
 * Parses a CSV body as it streams in (`csv-parse`): a header row, then one post a row. Stops
 * reading at the 1,001st record or past the byte limit, without buffering the rest.
 */
async function readCsv(req: Request): Promise<ImportRow[]> {
  if (Number(req.headers.get('content-length') ?? 0) > MAX_IMPORT_BYTES) {
    await readCapped(req, MAX_IMPORT_BYTES); // throws payload_too_large
  }
  const parser = parse({
    bom: true,
    columns: (header: string[]) => header.map((name) => name.trim()),
    skip_empty_lines: true,
    info: true,
    max_record_size: MAX_IMPORT_BYTES,
  });
  const rows: ImportRow[] = [];
  let size = 0;
  const feed = (async () => {
    try {
      for await (const chunk of (req.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > MAX_IMPORT_BYTES) {
          throw new AppError(
            'payload_too_large',
            `The request body exceeds ${MAX_IMPORT_BYTES} bytes.`,
            {
              limit: MAX_IMPORT_BYTES,
            },
          );
        }
        if (!parser.write(chunk)) await new Promise((resolve) => parser.once('drain', resolve));
        if (parser.destroyed) return;
      }
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      if (rows.length === 0 && !('title' in record)) {
        throw invalid('The CSV needs a header row naming its columns, with `title`.', [
          { path: 'title', message: `Columns read: ${IMPORT_COLUMNS.join(', ')}.`, line: 1 },
        ]);
      }
      if (rows.length === MAX_IMPORT_ROWS) throw tooManyRows();
      rows.push({ row: rows.length + 1, line: info.lines, fields: fieldsOfRecord(record) });
    }
  } catch (error) {
    parser.destroy();
    if (error instanceof AppError) throw error;
    const { code, lines } = error as { code?: string; lines?: number };
    if (typeof code === 'string' && code.startsWith('CSV_')) {
      throw invalid('The CSV is not well formed.', [
        {
          path: '(csv)',
          message: `${code} near line ${lines ?? '?'}.`,
          ...(lines && { line: lines }),
        },
      ]);
    }
    throw error;
  } finally {
    await feed;
  }
  return rows;
}

/** `{ posts: [...] }`: each item a post's create body (docs/settings-and-import-export.md). */
async function readJsonRows(req: Request): Promise<ImportRow[]> {
  const body = (await readJsonBody(req, undefined, MAX_IMPORT_BYTES)) as { posts?: unknown };
  if (!Array.isArray(body.posts)) {
    throw invalid('The body needs `posts`, an array of posts.', [
      { path: 'posts', message: 'Expected an array of posts.' },
    ]);
  }
  if (body.posts.length > MAX_IMPORT_ROWS) throw tooManyRows();
  return body.posts.map((item: unknown, index) => ({
    row: index + 1,
    fields:
      typeof item === 'object' && item !== null && !Array.isArray(item)
        ? Object.assign(Object.create(null) as Record<string, unknown>, item)
        : { title: undefined },
  }));
}

/**
 * `POST /api/content/posts/import`: CSV (`text/csv`) or JSON, at most 1,000 posts, created all
 * together or not at all; `?dryRun=true` answers the issues and the posts as they would be.
 */
export async function handleImport(req: Request, ctx: HandlerContext): Promise<Answer> {
  const url = new URL(req.url);
  const query = ZImportQuery.safeParse({ dryRun: url.searchParams.get('dryRun') ?? undefined });
  if (!query.success) {
    throw invalid('The request is not valid.', [
      { path: 'dryRun', message: 'Must be true or false.' },
    ]);
  }
  const dryRun = query.data.dryRun;
  const type = (req.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  let rows: ImportRow[];
  if (type === 'text/csv') rows = await readCsv(req);
  else if (type === 'application/json' || type?.endsWith('+json')) rows = await readJsonRows(req);
  else {
    throw new AppError(
      'unsupported_media_type',
      `Content type ${type ? `"${type}"` : '(none)'} is not accepted: send text/csv or application/json.`,
    );
  }
  const refused = controlRefusal({ posts: rows.map((row) => row.fields) });
  if (refused) throw refused;
  const { db, headers } = ctx;
  const principal = signedIn(ctx);
  const run = async () => {
    const data = await importPosts({ db, principal, rows, dryRun });
    return json(dryRun ? 200 : 201, { success: true, data }, headers);
  };
  if (dryRun) return run();
  return ctx.idempotent({ posts: rows.map((row) => row.fields) }, run);
}
