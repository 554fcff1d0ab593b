import type { Principal } from '@chorus/auth';
import type { Db } from '@chorus/db';
import { issuePath, ZCreatePost, type CreatePostInput } from '@chorus/validators';
import { AppError } from '../shared/errors';
import { createPost } from '../posts';

/** At most this many posts per import (docs/settings-and-import-export.md). */
export const MAX_IMPORT_ROWS = 1000;

/** One post to import, as the client sent it (a JSON item, or a CSV record made an object). */
export interface ImportRow {
  /** 1-based position of the post in the import: the first post is row 1. */
  row: number;
  /** For CSV: the file's line where the record starts (the header is line 1). */
  line?: number;
  fields: Record<string, unknown>;
  /** What the edge refused in this row (a control character): its issues, the row not created. */
  refused?: { path: string; message: string }[];
}

export interface ImportIssue {
  row: number;
  line?: number;
  /** The field concerned, as in a post's create body (`scheduledAt`, `tags[2]`). */
  path: string;
  message: string;
}

export interface ImportPreview {
  row: number;
  title: string;
  status: 'draft' | 'scheduled';
  scheduledAt: string | null;
  tags: string[];
}

export interface ImportResult {
  dryRun: boolean;
  /** True when every row is valid: a dry run that could be imported as it is. */
  valid: boolean;
  count: number;
  /** The posts as they would be (dry run) or were created, in the import's order. */
  rows: ImportPreview[];
  /** The created posts' ids, in the import's order; empty for a dry run. */
  ids: string[];
  issues: ImportIssue[];
}

/** Thrown inside the transaction to undo everything: a dry run, or a row refused. */
class Rollback extends Error {}

const issueAt = (row: ImportRow, path: string, message: string): ImportIssue => ({
  row: row.row,
  ...(row.line !== undefined && { line: row.line }),
  path,
  message,
});

/**
 * A row as a create body: imported posts are drafts, or scheduled when the row has a
 * `scheduledAt` (docs/settings-and-import-export.md); publishing a post goes through its own status change.
 * A status the row gives is sent as given, so the create's own rules judge it: `scheduled`
 * without a time is refused as a create refuses it, never made a draft.
 */
function toCreate(row: ImportRow): { input?: CreatePostInput; issues: ImportIssue[] } {
  if (row.refused) {
    return { issues: row.refused.map((issue) => issueAt(row, issue.path, issue.message)) };
  }
  const { status, ...fields } = row.fields;
  if (status !== undefined && status !== 'draft' && status !== 'scheduled') {
    return { issues: [issueAt(row, 'status', 'Imported posts are draft or scheduled.')] };
  }
  const timed = fields.scheduledAt !== undefined && fields.scheduledAt !== null;
  // Without a status, a time makes the post scheduled; with neither, the create makes it a draft.
  const asked = status ?? (timed ? 'scheduled' : undefined);
  const parsed = ZCreatePost.safeParse({
    ...fields,
    ...(asked !== undefined && { status: asked }),
  });
  if (parsed.success) return { input: parsed.data, issues: [] };
  // One issue per field: a malformed time would also fail the year check after it.
  const byPath = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const path = issuePath(issue.path) || '(row)';
    if (!byPath.has(path)) byPath.set(path, issue.message);
  }
  return { issues: [...byPath].map(([path, message]) => issueAt(row, path, message)) };
}

/** The field a domain refusal of the create concerns, for its row's issue. */
const FIELD_OF_CODE: Partial<Record<string, string>> = {
  invalid_status_transition: 'scheduledAt',
  approval_required: 'scheduledAt',
  resource_not_found: 'mediaIds',
};

function issuesOfRefusal(row: ImportRow, error: AppError): ImportIssue[] {
  const issues = error.details?.issues;
  if (error.code === 'validation_error' && Array.isArray(issues)) {
    return (issues as { path?: string; message?: string }[]).map((issue) =>
      issueAt(row, issue.path ?? '(row)', issue.message ?? error.message),
    );
  }
  return [issueAt(row, FIELD_OF_CODE[error.code] ?? '(row)', error.message)];
}

const previewOf = (row: number, input: CreatePostInput): ImportPreview => ({
  row,
  title: input.title,
  status: input.status === 'scheduled' ? 'scheduled' : 'draft',
  scheduledAt: input.scheduledAt ? new Date(input.scheduledAt).toISOString() : null,
  tags: input.tags,
});

/**
 * Imports posts all together or not at all (docs/settings-and-import-export.md). Every row goes through the same
 * schema and the same `createPost` as a create (its own transaction becomes a savepoint of
 * this one), so an import can refuse nothing a create would take, and the reverse. Every row
 * is tried, so that one answer names all the issues; any issue, or a dry run, rolls the
 * whole transaction back: a dry run answers exactly what the import would, writing nothing.
 */
export async function importPosts(opts: {
  db: Db;
  principal: Principal;
  rows: ImportRow[];
  dryRun: boolean;
}): Promise<ImportResult> {
  const { db, principal, rows, dryRun } = opts;
  if (rows.length === 0) {
    throw new AppError('validation_error', 'The import has no posts.', {
      issues: [{ path: 'posts', message: 'At least one post is needed.' }],
    });
  }
  if (rows.length > MAX_IMPORT_ROWS) throw tooManyRows();
  const result: ImportResult = { dryRun, valid: true, count: 0, rows: [], ids: [], issues: [] };
  try {
    await db.transaction(async (tx) => {
      for (const row of rows) {
        const { input, issues } = toCreate(row);
        result.issues.push(...issues);
        if (!input) continue;
        result.rows.push(previewOf(row.row, input));
        try {
          const post = await createPost({ db: tx, principal, input });
          result.ids.push(post.id);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          result.issues.push(...issuesOfRefusal(row, error));
        }
      }
      if (dryRun || result.issues.length > 0) throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  result.valid = result.issues.length === 0;
  result.count = result.rows.length;
  if (dryRun) return { ...result, ids: [] };
  if (!result.valid) {
    const rowsWithIssues = new Set(result.issues.map((issue) => issue.row)).size;
    throw new AppError(
      'validation_error',
      `${rowsWithIssues} of ${rows.length} rows have issues: nothing was imported.`,
      { issues: result.issues },
    );
  }
  return result;
}

export const tooManyRows = () =>
  new AppError('validation_error', `An import takes at most ${MAX_IMPORT_ROWS} posts.`, {
    issues: [{ path: 'posts', message: `At most ${MAX_IMPORT_ROWS} rows.` }],
  });
