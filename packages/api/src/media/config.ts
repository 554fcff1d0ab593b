import { readSetting } from '@chorus/settings';
import { storageFromEnv } from '@chorus/storage';

type Env = NodeJS.ProcessEnv;

/** The default, as the settings declare it (25 MiB). */
export const DEFAULT_MAX_UPLOAD_BYTES = readSetting('CHORUS_MEDIA_MAX_BYTES', {});

/** CHORUS_MEDIA_MAX_BYTES: the largest file an upload may carry (docs/media.md: 25 MiB). */
export const maxUploadBytesFromEnv = (env: Env = process.env): number =>
  readSetting('CHORUS_MEDIA_MAX_BYTES', env);

/** Checks the media settings at start-up, so a bad one stops the process, naming it. */
export function assertMediaConfig(env: Env = process.env) {
  maxUploadBytesFromEnv(env);
  storageFromEnv(env);
}
