import { join } from 'node:path';
import type { StorageDriver } from './driver';
import { localDiskStorage } from './local';
import { s3Storage } from './s3';

type Env = Record<string, string | undefined>;

const read = (env: Env, name: string) => env[name]?.trim() || undefined;

function required(env: Env, name: string): string {
  const value = read(env, name);
  if (!value) throw new Error(`${name} is required when CHORUS_STORAGE is s3.`);
  return value;
}

/**
 * The store the settings name (README, "Configuration"): local disk (CHORUS_STORAGE_DIR, by
 * default `media/` in the data directory), or an S3-compatible bucket. A bad setting throws, naming it, so that start-up
 * stops rather than the first upload.
 */
export function storageFromEnv(env: Env, defaults: { dataDir?: string } = {}): StorageDriver {
  const kind = read(env, 'CHORUS_STORAGE') ?? 'local';
  if (kind === 'local') {
    const dataDir = read(env, 'CHORUS_DATA_DIR') ?? defaults.dataDir;
    const dir = read(env, 'CHORUS_STORAGE_DIR') ?? (dataDir && join(dataDir, 'media'));
    if (!dir) throw new Error('CHORUS_STORAGE_DIR is not set: run the app with `npm start`.');
    return localDiskStorage(dir);
  }
  if (kind !== 's3') throw new Error('CHORUS_STORAGE must be "local" or "s3".');
  const endpoint = read(env, 'CHORUS_S3_ENDPOINT');
  if (endpoint && !URL.canParse(endpoint)) throw new Error('CHORUS_S3_ENDPOINT must be a URL.');
  const accessKeyId = read(env, 'CHORUS_S3_ACCESS_KEY_ID');
  const secretAccessKey = read(env, 'CHORUS_S3_SECRET_ACCESS_KEY');
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error('CHORUS_S3_ACCESS_KEY_ID and CHORUS_S3_SECRET_ACCESS_KEY go together.');
  }
  const pathStyle = read(env, 'CHORUS_S3_FORCE_PATH_STYLE') ?? 'false';
  if (pathStyle !== 'true' && pathStyle !== 'false') {
    throw new Error('CHORUS_S3_FORCE_PATH_STYLE must be "true" or "false".');
  }
  const prefix = read(env, 'CHORUS_S3_PREFIX');
  if (prefix && !/^[A-Za-z0-9_./-]+\/$/.test(prefix)) {
    throw new Error('CHORUS_S3_PREFIX must be path segments ending with "/".');
  }
  return s3Storage({
    bucket: required(env, 'CHORUS_S3_BUCKET'),
    region: read(env, 'CHORUS_S3_REGION') ?? 'us-east-1',
    endpoint,
    prefix,
    forcePathStyle: pathStyle === 'true',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  });
}
