import { z } from 'zod';
import { blank, text, textOr, url, whole } from './kinds';

/** Where the data lives, its secrets and the first admin (docs/configuration.md). */
export const dataSettings = {
  DATABASE_URL: url(
    ['postgres', 'postgresql'],
    'DATABASE_URL must be a postgres:// URL (e.g. postgres://user@host:5432/chorus).',
  ),
  /** The HTTP server's connections to DATABASE_URL, per instance (the worker keeps its own 5). */
  DATABASE_POOL_MAX: whole({
    min: 1,
    max: 1000,
    fallback: 10,
    message: 'DATABASE_POOL_MAX must be a whole number from 1 to 1000.',
  }),
  CHORUS_DATA_DIR: text(),
  /** @chorus/services' readEncryptionKey (32 bytes, base64 or hex). */
  CHORUS_ENCRYPTION_KEY: text(),
  NEXTAUTH_SECRET: text(),
  /** next-auth's other name for NEXTAUTH_SECRET. */
  AUTH_SECRET: text(),
  ADMIN_EMAIL: textOr('admin@example.com'),
  /** Taken as written (spaces are part of a password). */
  ADMIN_PASSWORD: z.preprocess(
    blank,
    z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters.').optional(),
  ),
  CHORUS_MEDIA_MAX_BYTES: whole({
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    fallback: 25 * 1024 * 1024,
    message: 'CHORUS_MEDIA_MAX_BYTES must be a positive whole number of bytes.',
  }),
  // The media store: @chorus/storage's storageFromEnv reads these together.
  CHORUS_STORAGE: text(),
  CHORUS_STORAGE_DIR: text(),
  CHORUS_S3_BUCKET: text(),
  CHORUS_S3_ENDPOINT: text(),
  CHORUS_S3_REGION: text(),
  CHORUS_S3_ACCESS_KEY_ID: text(),
  CHORUS_S3_SECRET_ACCESS_KEY: text(),
  CHORUS_S3_FORCE_PATH_STYLE: text(),
  CHORUS_S3_PREFIX: text(),
};
