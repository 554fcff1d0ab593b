import { storageFromEnv } from '@chorus/storage';

type Env = NodeJS.ProcessEnv;

export const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

/** CHORUS_MEDIA_MAX_BYTES: the largest file an upload may carry (docs/media.md: 25 MiB). */
export function maxUploadBytesFromEnv(env: Env = process.env): number {
  const raw = env.CHORUS_MEDIA_MAX_BYTES?.trim();
  if (!raw) return DEFAULT_MAX_UPLOAD_BYTES;
  const bytes = Number(raw);
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new Error('CHORUS_MEDIA_MAX_BYTES must be a positive whole number of bytes.');
  }
  return bytes;
}

/** Checks the media settings at start-up, so a bad one stops the process, naming it. */
export function assertMediaConfig(env: Env = process.env) {
  maxUploadBytesFromEnv(env);
  storageFromEnv(env);
}
