import {
  AppError,
  importPosts,
  MAX_IMPORT_ROWS,
  tooManyRows,
  type ImportRow,
} from '@chorus/services';
import { ZImportQuery } from '@chorus/validators';
import { parse, type Parser } from 'csv-parse';
import { readCapped, utf8Text } from '../server/body-limit';
import type { Answer } from '../server/node-fetch';
import { controlIssue } from '../server/refuse-control';
import { bodyType, readJsonValue, sentType } from '../rest/body';
import { json } from '../server/respond';
import { signedIn, type HandlerContext } from '../rest/routes';
import { splitList, unsafeCell } from './csv';

/** The largest import body: 1,000 rows of a few KiB each, with room to spare. */
export const MAX_IMPORT_BYTES = 16 * 1024 * 1024;

/** The columns a CSV import reads (docs/settings-and-import-export.md); others (an export's `id`, `status`) are ignored. */
export const IMPORT_COLUMNS = ['title', 'content', 'tags', 'scheduledAt', 'channels'] as const;

const invalid = (message: string, issues: { path: string; message: string; line?: number }[]) =>
  new AppError('validation_error', message, { issues });

/**
 * What went wrong, in words, for each csv-parse error these options can raise: its codes are
 * the library's names, which never reach a client (docs/security.md, Input). `cells` is the record's
 * length where known, `columns` the header's.
 */
const CSV_PROBLEMS: Partial<Record<string, (cells?: number, columns?: number) => string>> = {
  CSV_QUOTE_NOT_CLOSED: () => 'A quoted cell is not closed: the file ends inside its quotes',
  CSV_INVALID_CLOSING_QUOTE: () =>
    'A quoted cell goes on after its closing quote: write a quote inside a quoted cell twice, as ""',
  CSV_RECORD_INCONSISTENT_COLUMNS: (cells, columns) =>
    cells !== undefined && columns !== undefined
      ? `This row has ${cells} cells where the header has ${columns} columns`
      : "This row's cells do not match the header's columns",
  CSV_MAX_RECORD_SIZE: () => `A row is larger than the import's limit of ${MAX_IMPORT_BYTES} bytes`,
};

/** A csv-parse error as a sentence for the client, naming the line where known. */
function csvProblem(error: { code: string; lines?: number; record?: unknown }, columns?: number) {
  const cells = Array.isArray(error.record) ? error.record.length : undefined;
  const problem = CSV_PROBLEMS[error.code]?.(cells, columns) ?? 'The file cannot be read as CSV';
  return error.lines ? `${problem} (line ${error.lines}).` : `${problem}.`;
}

/** At most this many of a header's names are repeated in a refusal. */
const NAMES_SHOWN = 20;

/** The names of a header, as a refusal quotes them: the first few, each cut short. */
function namesOf(header: string[]) {
  const shown = header.slice(0, NAMES_SHOWN).map((name) => `"${name.slice(0, 50)}"`);
  const more = header.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/** How to save a file that is not UTF-8, in the program most CSVs come from. */
const AS_UTF8 = 'as UTF-8 (in Excel, "CSV UTF-8 (Comma delimited)")';

/**
 * A CSV is read as UTF-8 by the rule every text body follows (`utf8Text`), with a refusal that
 * says what to do: spreadsheets save "CSV" in the machine's legacy encoding (Windows-1252 and
 * the like) unless asked for UTF-8.
 */
const notUtf8 = () =>
  new AppError('invalid_json', `The file is not UTF-8: save it ${AS_UTF8} and send it again.`);

/** The charsets a CSV may declare: UTF-8, and US-ASCII, the default of text/csv (RFC 4180) and a part of UTF-8. */
const CSV_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/**
 * A CSV declaring another charset (`text/csv; charset=windows-1252`) is refused as a
 * representation the import does not take (415), rather than read as UTF-8 against what its
 * sender said, as a JSON body declaring one is (rest/body.ts `bodyType`).
 */
function refuseOtherCharset(contentType: string) {
  const charset = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType)?.[2]?.toLowerCase();
  if (charset === undefined || CSV_CHARSETS.has(charset)) return;
  throw new AppError(
    'unsupported_media_type',
    `A CSV in charset "${charset.slice(0, 40)}" is not accepted: save the file ${AS_UTF8} and send it as text/csv; charset=utf-8.`,
  );
}

/**
 * A header naming a column twice (`title,title`) is refused: a record keeps one cell by name,
 * so the other would be dropped without a word. Empty names (the trailing commas some
 * spreadsheets write) name no column, so they may repeat.
 */
function refuseRepeatedColumns(names: string[]) {
  const seen = new Set<string>();
  for (const name of names) {
    if (name !== '' && seen.has(name)) {
      throw invalid('The CSV header names a column twice.', [
        {
          path: '(csv)',
          line: 1,
          message: `The column "${name.slice(0, 50)}" is named twice in the header: keep one.`,
        },
      ]);
    }
    seen.add(name);
  }
}

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
 * Waits until the parser takes more, or is destroyed: a parser that failed on the chunk just
 * written (a stray quote) never drains, and waiting for that alone held the request open
 * for good.
 */
const drained = (parser: Parser) =>
  new Promise<void>((resolve) => {
    if (parser.destroyed) return resolve();
    const done = () => {
      parser.off('drain', done);
      parser.off('close', done);
      resolve();
    };
    parser.once('drain', done);
    parser.once('close', done);
  });

/**
 * Parses a CSV body as it streams in (`csv-parse`): a header row, then one post a row. Stops
 * reading at the 1,001st record or past the byte limit, without buffering the rest.
 */
async function readCsv(req: Request): Promise<ImportRow[]> {
  if (Number(req.headers.get('content-length') ?? 0) > MAX_IMPORT_BYTES) {
    await readCapped(req, MAX_IMPORT_BYTES); // throws payload_too_large
  }
  let header: string[] = [];
  const parser = parse({
    bom: true,
    columns: (names: string[]) => {
      header = names.map((name) => name.trim());
      refuseRepeatedColumns(header);
      return header;
    },
    skip_empty_lines: true,
    info: true,
    max_record_size: MAX_IMPORT_BYTES,
  });
  const rows: ImportRow[] = [];
  let size = 0;
  const text = utf8Text(notUtf8);
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
        if (!parser.write(text(chunk, true))) await drained(parser);
        if (parser.destroyed) return;
      }
      // A character cut off at the end of the body is refused here.
      const rest = text(new Uint8Array(), false);
      if (rest !== '') parser.write(rest);
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
        const message = `The file's columns are ${namesOf(header)}; an import reads ${IMPORT_COLUMNS.join(', ')}, and needs title.`;
        throw invalid('The CSV needs a header row naming its columns, with `title`.', [
          { path: 'title', message, line: 1 },
        ]);
      }
      if (rows.length === MAX_IMPORT_ROWS) throw tooManyRows();
      rows.push({ row: rows.length + 1, line: info.lines, fields: fieldsOfRecord(record) });
    }
  } catch (error) {
    parser.destroy();
    if (error instanceof AppError) throw error;
    const parsed = error as { code?: unknown; lines?: number; record?: unknown };
    if (typeof parsed.code === 'string' && parsed.code.startsWith('CSV_')) {
      const { lines } = parsed;
      const message = csvProblem({ ...parsed, code: parsed.code }, header.length || undefined);
      throw invalid('The CSV is not well formed.', [
        { path: '(csv)', message, ...(lines && { line: lines }) },
      ]);
    }
    throw error;
  } finally {
    await feed;
  }
  return rows;
}

/**
 * `{ posts: [...] }`, or the array a JSON export writes, so that an export imports back as it
 * was saved: each item a post's create body (docs/settings-and-import-export.md).
 */
async function readJsonRows(req: Request): Promise<ImportRow[]> {
  const body = await readJsonValue(req, undefined, MAX_IMPORT_BYTES);
  const items: unknown = Array.isArray(body)
    ? body
    : typeof body === 'object' && body !== null && (body as { posts?: unknown }).posts;
  if (!Array.isArray(items)) {
    throw invalid(
      'The body is an array of posts (as a JSON export writes it) or `{ posts: [...] }`.',
      [{ path: 'posts', message: 'Expected an array of posts.' }],
    );
  }
  if (items.length > MAX_IMPORT_ROWS) throw tooManyRows();
  return items.map((item: unknown, index) => ({
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
  const contentType = req.headers.get('content-type');
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  let rows: ImportRow[];
  if (type === 'text/csv') {
    refuseOtherCharset(contentType ?? '');
    rows = await readCsv(req);
  } else if (bodyType(contentType) === 'json') rows = await readJsonRows(req);
  else {
    throw new AppError(
      'unsupported_media_type',
      `Content type ${sentType(contentType)} is not accepted: send text/csv or application/json (UTF-8).`,
    );
  }
  // A control character is its row's issue, as the create's refusals are (and a dry run lists
  // it among them), where the edge's rule elsewhere refuses the whole request.
  for (const row of rows) {
    const issue = controlIssue(row.fields);
    if (issue) row.refused = [issue];
  }
  const { db, headers } = ctx;
  const principal = signedIn(ctx);
  const run = async () => {
    const data = await importPosts({ db, principal, rows, dryRun });
    return json(dryRun ? 200 : 201, { success: true, data }, headers);
  };
  if (dryRun) return run();
  return ctx.idempotent({ posts: rows.map((row) => row.fields) }, run);
}
