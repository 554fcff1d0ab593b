import { exportPosts } from '@chorus/services';
import { issuePath, ZExportPostsQuery, type Post } from '@chorus/validators';
import { stringify } from 'csv-stringify/sync';
import { streamed, type Answer } from '../server/node-fetch';
import { describeError, log } from '../server/logger';
import { controlRefusal } from '../server/refuse-control';
import { AppError } from '@chorus/services';
import { signedIn, type HandlerContext } from '../rest/routes';
import { safeCell } from './csv';

/**
 * The CSV's columns: those an import reads first, in the form it reads them (`channels`: the
 * targets' channel ids, as the import makes targets of them), then what only an export says.
 */
export const EXPORT_COLUMNS = [
  'title',
  'content',
  'tags',
  'scheduledAt',
  'channels',
  'id',
  'status',
  'publishedAt',
  'mediaIds',
  'authorId',
  'createdAt',
  'updatedAt',
] as const;

const csvRow = (post: Post) =>
  EXPORT_COLUMNS.map((column) => {
    const value =
      column === 'channels' ? post.targets.map((target) => target.channelId) : post[column];
    const text = Array.isArray(value) ? value.join(',') : (value ?? '');
    return safeCell(String(text));
  });

/** The query as the list reads it, refused with the list's issues when it does not parse. */
function queryOf(url: URL) {
  const raw: Record<string, string> = Object.create(null);
  for (const [key, value] of url.searchParams) raw[key] = value;
  const refused = controlRefusal(raw);
  if (refused) throw refused;
  const parsed = ZExportPostsQuery.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new AppError('validation_error', 'The request is not valid.', {
    issues: parsed.error.issues.map((issue) => ({
      path: issuePath(issue.path),
      message: issue.message,
    })),
  });
}

/**
 * `GET /api/content/posts/export?format=csv|json`: the account's posts matching the list's
 * filters, newest first, streamed a batch at a time as the client reads (a pull stream: a
 * slow client holds one batch, not the list). An error after the first bytes cannot change
 * the status any more: the stream is aborted, so the client sees a broken download rather
 * than a short file that looks complete.
 */
export async function handleExport(req: Request, ctx: HandlerContext): Promise<Answer> {
  const { format, ...filters } = queryOf(new URL(req.url));
  const { db, headers } = ctx;
  const principal = signedIn(ctx);
  const day = new Date().toISOString().slice(0, 10);
  headers.set(
    'Content-Type',
    format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
  );
  headers.set('Content-Disposition', `attachment; filename="posts-${day}.${format}"`);
  headers.set('Cache-Control', 'no-store');
  // The filters are checked (a reversed range is a 400) before the first byte is promised.
  const batches = exportPosts({ db, principal, filters });
  const first = await batches.next();
  if (req.method === 'HEAD') {
    await batches.return(undefined);
    return new Response(null, { status: 200, headers });
  }
  const encoder = new TextEncoder();
  let started = false;
  let pending: IteratorResult<Post[]> | null = first;
  const encode = (posts: Post[]) => {
    if (format === 'csv') return stringify(posts.map(csvRow));
    const items = posts.map((post) => JSON.stringify(post)).join(',');
    const text = `${started ? ',' : '['}${items}`;
    started = true;
    return text;
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (format === 'csv') controller.enqueue(encoder.encode(stringify([[...EXPORT_COLUMNS]])));
    },
    async pull(controller) {
      try {
        const next = pending ?? (await batches.next());
        pending = null;
        if (next.done) {
          if (format === 'json') controller.enqueue(encoder.encode(started ? ']' : '[]'));
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(encode(next.value)));
      } catch (error) {
        log('error', 'export failed', { error: describeError(error) });
        controller.error(error);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return streamed(new Response(body, { status: 200, headers }));
}
