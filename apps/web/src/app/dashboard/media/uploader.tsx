'use client';

import { useRouter } from 'next/navigation';
import { useId, useRef, useState, type DragEvent } from 'react';
import { fileSize } from '~/components/format';
import { useToast } from '~/components/toast';
import { ACCEPT, ACCEPTED_FORMATS } from './media-kind';
import { uploadFile } from './upload-request';

type Upload = {
  key: number;
  name: string;
  /** 0 to 1; null until the browser first reports progress. */
  progress: number | null;
  state: 'uploading' | 'done' | 'failed';
  error?: string;
};

const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

/**
 * Uploads by drop or by the file picker, several at once, each with its own progress bar and
 * outcome. The size check here only spares a long upload the server would refuse: the server
 * checks the size and the type (from the bytes) whatever happens here.
 */
export function Uploader({ maxBytes }: { maxBytes: number }) {
  const router = useRouter();
  const show = useToast();
  const id = useId();
  const next = useRef(0);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);
  const patch = (key: number, change: Partial<Upload>) =>
    setUploads((all) =>
      all.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)),
    );

  const send = async (file: File, key: number) => {
    const outcome = await uploadFile(file, (progress) => patch(key, { progress }));
    if (outcome.ok) {
      patch(key, { state: 'done', progress: 1 });
      show(`Uploaded ${outcome.media.filename}.`);
      router.refresh();
    } else {
      patch(key, { state: 'failed', error: outcome.message });
      show(`${file.name}: ${outcome.message}`, 'error');
    }
  };

  const start = (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      const key = (next.current += 1);
      if (file.size > maxBytes) {
        const error = `It is ${fileSize(file.size)}; the limit is ${fileSize(maxBytes)}.`;
        setUploads((all) => [
          ...all,
          { key, name: file.name, progress: null, state: 'failed', error },
        ]);
        show(`${file.name}: ${error}`, 'error');
        continue;
      }
      setUploads((all) => [...all, { key, name: file.name, progress: null, state: 'uploading' }]);
      void send(file, key);
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    start(event.dataTransfer.files);
  };
  const onDragOver = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    // Without this the browser would open the dropped file instead.
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };
  const finished = uploads.filter((upload) => upload.state !== 'uploading').length;

  return (
    <section className="panel" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Upload</h2>
      <div
        className="dropzone"
        data-over={over || undefined}
        role="group"
        aria-label="Drop files here to upload them"
        onDragOver={onDragOver}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p>Drag files here, or</p>
        <input
          id={`${id}-files`}
          type="file"
          multiple
          accept={ACCEPT}
          className="sr-only"
          aria-describedby={`${id}-hint`}
          onChange={(event) => {
            start(event.target.files);
            // The same file can be picked again, after a refusal say.
            event.target.value = '';
          }}
        />
        <label htmlFor={`${id}-files`} className="button primary">
          Choose files
        </label>
        <p id={`${id}-hint`} className="muted small">
          {ACCEPTED_FORMATS}, up to {fileSize(maxBytes)} each.
        </p>
      </div>
      {uploads.length > 0 && (
        <>
          <ul className="uploads plain" aria-label="Uploads">
            {uploads.map((upload) => (
              <li key={upload.key}>
                <UploadRow upload={upload} inputId={`${id}-upload-${upload.key}`} />
              </li>
            ))}
          </ul>
          {finished > 0 && (
            <button
              type="button"
              className="link"
              onClick={() => setUploads((all) => all.filter((u) => u.state === 'uploading'))}
            >
              Clear finished uploads
            </button>
          )}
        </>
      )}
    </section>
  );
}

/** One file's progress (a bar named by the file) and its outcome. */
function UploadRow({ upload, inputId }: { upload: Upload; inputId: string }) {
  if (upload.state === 'failed') {
    return (
      <>
        <span className="upload-name">{upload.name}</span>
        <span className="error small">{upload.error}</span>
      </>
    );
  }
  const percent = upload.progress === null ? undefined : Math.round(upload.progress * 100);
  return (
    <>
      <label htmlFor={inputId} className="upload-name">
        {upload.name}
      </label>
      <span className="muted small">
        {upload.state === 'done' ? 'Uploaded' : percent === undefined ? 'Starting…' : `${percent}%`}
      </span>
      <progress id={inputId} max={100} value={percent} />
    </>
  );
}
