import { ZErrorEnvelope, ZMediaResponse, type Media } from '@chorus/validators';

/** The REST upload route; it accepts the dashboard session from our own pages. */
const UPLOAD_PATH = '/api/content/media';

export type UploadOutcome = { ok: true; media: Media } | { ok: false; message: string };

const parse = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
};

/**
 * What an answer means for the person who uploaded: the record, or the API's own message
 * (with the field problems of a validation error). The body is checked against the
 * envelope's schema before anything in it is used.
 */
export function uploadOutcome(status: number, body: string): UploadOutcome {
  const json = parse(body);
  const created = ZMediaResponse.safeParse(json);
  if (status === 201 && created.success) return { ok: true, media: created.data.data };
  if (status === 401) return { ok: false, message: 'Your session ended: sign in again.' };
  const refused = ZErrorEnvelope.safeParse(json);
  if (!refused.success || status >= 500) {
    return { ok: false, message: `The upload failed (HTTP ${status}); try again.` };
  }
  const { message, details } = refused.data.error;
  const issues = Array.isArray(details?.issues) ? (details.issues as unknown[]) : [];
  const said = issues
    .map((issue) => (issue as { message?: unknown }).message)
    .filter((text): text is string => typeof text === 'string');
  return { ok: false, message: said.length ? `${message} ${said.join(' ')}` : message };
}

/**
 * Sends one file as `multipart/form-data` with XMLHttpRequest, the one browser API that
 * reports upload progress; the session cookie goes with it (same origin). Never rejects:
 * a connection that fails is an outcome too.
 */
export function uploadFile(
  file: File,
  onProgress: (fraction: number) => void,
): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', UPLOAD_PATH);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => resolve(uploadOutcome(xhr.status, xhr.responseText));
    xhr.onerror = () =>
      resolve({ ok: false, message: 'The upload did not reach the server; try again.' });
    xhr.onabort = () => resolve({ ok: false, message: 'The upload was stopped.' });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
