import { randomBytes } from 'node:crypto';

/** One file of a multipart body: streamed from storage, or a segment already in memory. */
export interface MultipartFile {
  field: string;
  filename: string;
  mimeType: string;
  size: number;
  content: ReadableStream<Uint8Array> | Uint8Array;
}

const encoder = new TextEncoder();
/** Quotes in a form-data name or filename would end it early. */
const quoted = (value: string) => `"${value.replace(/["\r\n]/g, '_')}"`;

async function* chunksOf(content: ReadableStream<Uint8Array> | Uint8Array) {
  if (content instanceof Uint8Array) {
    yield content;
    return;
  }
  const reader = content.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

function streamOf(chunks: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

/**
 * A multipart/form-data body of text fields and one file, streamed: the file's bytes pass
 * through as they are read, never held whole. Its length is known from the file's size, so it
 * goes with a Content-Length rather than chunked (which some upload endpoints refuse).
 */
export function multipartBody(fields: [string, string][], file: MultipartFile) {
  const boundary = `chorus-${randomBytes(16).toString('hex')}`;
  const head = encoder.encode(
    fields
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`,
      )
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(file.field)}; filename=${quoted(file.filename)}\r\n` +
      `Content-Type: ${file.mimeType}\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  async function* parts() {
    yield head;
    yield* chunksOf(file.content);
    yield tail;
  }
  return {
    body: streamOf(parts()),
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + file.size + tail.length),
    },
  };
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'application/pdf': 'pdf',
};

/** A file name networks accept for these bytes (some read the type from the extension). */
export const filenameFor = (id: string, mimeType: string) =>
  `${id}.${EXTENSIONS[mimeType] ?? 'bin'}`;
