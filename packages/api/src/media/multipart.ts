import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, tooLarge } from '@chorus/services';
import Busboy from 'busboy';

/** Room for the form's boundaries, part headers and small fields beside the file. */
const FORM_OVERHEAD = 256 * 1024;

const invalid = (path: string, message: string) =>
  new AppError('validation_error', message, { issues: [{ path, message }] });

export interface UploadForm<T> {
  /** What `onFile` made of the `file` part. */
  file: T;
  /** The text fields, by name (a Map: client names never touch an object's prototype). */
  fields: Map<string, string>;
}

/**
 * Counts the bytes a client sends and stops reading past `limit`, whatever the form says (a
 * chunked body has no Content-Length to refuse first); `refusal` is the file's 413.
 */
async function* capped(body: AsyncIterable<Uint8Array>, limit: number, refusal: () => AppError) {
  let received = 0;
  for await (const chunk of body) {
    received += chunk.byteLength;
    if (received > limit) throw refusal();
    yield chunk;
  }
}

/**
 * Reads a `multipart/form-data` upload as it arrives (docs/api.md and docs/media.md): the one `file`
 * part is handed to `onFile` as a stream, with backpressure, never buffered whole; text
 * fields are kept (small: busboy's limits). When `onFile` fails (415, 413), reading stops at
 * once; when anything else fails after `onFile` succeeded, `undo` gets its result back.
 */
export async function readUploadForm<T>(
  req: Request,
  opts: {
    maxFileBytes: number;
    onFile: (file: Readable, filename: string | undefined) => Promise<T>;
    undo: (result: T) => Promise<void>;
  },
): Promise<UploadForm<T>> {
  const contentType = req.headers.get('content-type') ?? '';
  // Another type is 415; multipart/form-data without its boundary is that type, malformed: 400,
  // as a body that does not follow its boundary is.
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) {
    throw new AppError(
      'unsupported_media_type',
      'Send the upload as multipart/form-data with a "file" part.',
    );
  }
  const limit = opts.maxFileBytes + FORM_OVERHEAD;
  const refusal = () => tooLarge(opts.maxFileBytes);
  if (Number(req.headers.get('content-length') ?? 0) > limit) throw refusal();
  let busboy: Busboy.Busboy;
  try {
    busboy = Busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      // One byte over the limit is enough for the size check to refuse it.
      limits: {
        fileSize: opts.maxFileBytes + 1,
        files: 3,
        fields: 20,
        fieldSize: 16 * 1024,
        parts: 24,
      },
    });
  } catch {
    throw invalid(
      'file',
      'The Content-Type has no boundary: send multipart/form-data; boundary=… as the form was built.',
    );
  }
  /**
   * The body passed its cap: the reason for whatever fails after it (busboy closing without a
   * file, the file's stream cut short), which may be reported before the pipeline's own error.
   */
  let overflow: AppError | undefined;
  const input = Readable.from(
    capped(
      (req.body ?? []) as unknown as AsyncIterable<Uint8Array>,
      limit,
      () => (overflow = refusal()),
    ),
  );
  const fields = new Map<string, string>();
  let handling: Promise<T> | undefined;
  let problem: AppError | undefined;

  return new Promise<UploadForm<T>>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      input.destroy();
      // Answer once whatever was stored is gone again.
      const undone = handling?.then(opts.undo, () => undefined).catch(() => undefined);
      void Promise.resolve(undone).then(() => reject(overflow ?? error));
    };
    busboy.on('file', (name, stream, info) => {
      if (name !== 'file' || handling) {
        if (name === 'file') problem ??= invalid('file', 'Send exactly one "file" part.');
        stream.on('error', () => undefined).resume();
        return;
      }
      handling = opts.onFile(stream, info.filename);
      handling.catch(fail);
    });
    busboy.on('field', (name, value, info) => {
      if (info.valueTruncated) problem ??= invalid(name, 'This field is too long.');
      fields.set(name, value);
    });
    for (const event of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      busboy.on(event, () => (problem ??= invalid('file', 'The form has too many parts.')));
    }
    busboy.on('close', () => {
      if (!handling) return fail(problem ?? invalid('file', 'A "file" part is required.'));
      handling.then((file) => {
        if (settled) return;
        if (problem) return fail(problem);
        settled = true;
        resolve({ file, fields });
      }, fail);
    });
    pipeline(input, busboy).catch((error: unknown) =>
      fail(error instanceof AppError ? error : invalid('file', 'The multipart body is malformed.')),
    );
  });
}
