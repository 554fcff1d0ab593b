'use client';

import { ZErrorEnvelope, ZImportResponse, type ImportResultBody } from '@chorus/validators';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { inDashboardWords } from '~/components/api-words';
import { Dialog, DialogClose } from '~/components/dialog';
import { DataTable } from '~/components/data-table';
import { count, counted } from '~/components/format';
import { useToast } from '~/components/toast';

/** The REST import route; it accepts the dashboard session from our own pages. */
const IMPORT_PATH = '/api/content/posts/import';

type Answer = { ok: true; result: ImportResultBody } | { ok: false; message: string };

/** Sends the file as it is (CSV or JSON), with the session cookie (same origin). */
async function send(file: File, dryRun: boolean): Promise<Answer> {
  const json = file.name.toLowerCase().endsWith('.json') || file.type === 'application/json';
  let res: Response;
  try {
    res = await fetch(`${IMPORT_PATH}?dryRun=${dryRun}`, {
      method: 'POST',
      headers: { 'content-type': json ? 'application/json' : 'text/csv' },
      body: file,
    });
  } catch {
    return { ok: false, message: 'The server could not be reached; try again.' };
  }
  const body: unknown = await res.json().catch(() => null);
  const done = ZImportResponse.safeParse(body);
  if (res.ok && done.success) return { ok: true, result: done.data.data };
  const refused = ZErrorEnvelope.safeParse(body);
  if (res.status === 400 && refused.success && Array.isArray(refused.data.error.details?.issues)) {
    // A refused import: the issues, shown in the preview like a dry run's.
    return {
      ok: true,
      result: {
        dryRun: false,
        valid: false,
        count: 0,
        rows: [],
        ids: [],
        issues: refused.data.error.details.issues as ImportResultBody['issues'],
      },
    };
  }
  if (res.status === 401) return { ok: false, message: 'Your session ended: sign in again.' };
  if (refused.success && res.status < 500)
    return { ok: false, message: inDashboardWords(refused.data.error.message) };
  return { ok: false, message: `The import failed (HTTP ${res.status}); try again.` };
}

/**
 * Import posts from a CSV or JSON file: a dry run first, whose table shows each post as it
 * would be and each issue with its row, then the import itself, all or nothing.
 */
export function ImportDialog() {
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportResultBody | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const show = useToast();
  const router = useRouter();
  const fileId = useId();

  const reset = () => {
    setFile(null);
    setPreview(null);
    setError(null);
  };

  async function run(dryRun: boolean) {
    if (!file) return;
    setPending(true);
    setError(null);
    const answer = await send(file, dryRun);
    setPending(false);
    if (!answer.ok) return setError(answer.message);
    if (dryRun || !answer.result.valid) return setPreview(answer.result);
    show(`Imported ${counted(answer.result.count, 'post', 'posts')}.`);
    setOpen(false);
    reset();
    router.refresh();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) reset();
      }}
      title="Import posts"
      description="A CSV with a header row (title, content, tags, scheduledAt, channels) or a JSON file ({ posts: [...] }, or a JSON export), up to 1,000 posts. Posts without a time are drafts."
      trigger={<button type="button">Import</button>}
    >
      <div className="form">
        <div className="field">
          <label htmlFor={fileId}>File</label>
          <input
            id={fileId}
            type="file"
            accept=".csv,text/csv,.json,application/json"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setPreview(null);
              setError(null);
            }}
          />
        </div>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {preview && <Preview result={preview} />}
        <div className="actions end">
          <DialogClose asChild>
            <button type="button">Cancel</button>
          </DialogClose>
          <button type="button" disabled={!file || pending} onClick={() => run(true)}>
            Preview
          </button>
          <button
            type="button"
            className="primary"
            disabled={!preview?.valid || pending}
            onClick={() => run(false)}
          >
            Import
          </button>
        </div>
      </div>
    </Dialog>
  );
}

function Preview({ result }: { result: ImportResultBody }) {
  return (
    <>
      {result.valid ? (
        <p role="status">
          {result.count === 1
            ? '1 post is ready to import.'
            : `${count(result.count)} posts are ready to import.`}
        </p>
      ) : (
        <div role="alert">
          <p className="error">
            Nothing can be imported until these are fixed (
            {counted(result.issues.length, 'issue', 'issues')}):
          </p>
          <DataTable
            label="Issues"
            rows={result.issues}
            rowKey={(_, i) => String(i)}
            columns={[
              {
                header: 'Row',
                cell: (issue) => (
                  <>
                    {issue.row}
                    {issue.line !== undefined && (
                      <span className="muted"> (line {issue.line})</span>
                    )}
                  </>
                ),
              },
              { header: 'Field', cell: (issue) => issue.path },
              // The file's column names stay (they are its header's), the API's requests go.
              { header: 'Issue', cell: (issue) => inDashboardWords(issue.message) },
            ]}
          />
        </div>
      )}
      <DataTable
        label="Posts to import"
        rows={result.rows}
        rowKey={(row) => String(row.row)}
        columns={[
          { header: 'Row', cell: (row) => row.row },
          { header: 'Title', cell: (row) => row.title },
          { header: 'Status', cell: (row) => row.status },
          { header: 'Scheduled (UTC)', cell: (row) => row.scheduledAt ?? '' },
          { header: 'Tags', cell: (row) => row.tags.join(', ') },
        ]}
      />
    </>
  );
}
