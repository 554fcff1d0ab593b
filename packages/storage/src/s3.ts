import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import { assertKey, type StorageDriver } from './driver';

export interface S3StorageOptions {
  bucket: string;
  /** Prepended to every key (`chorus/`), so one bucket can hold other things too. */
  prefix?: string;
  /** An S3-compatible server's URL (MinIO, R2, …); AWS's own when absent. */
  endpoint?: string;
  region: string;
  /** Unset: the AWS SDK's default chain (environment, instance role, …). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** `https://host/bucket/key` rather than `https://bucket.host/key`, as most S3-compatible servers want. */
  forcePathStyle?: boolean;
}

/** One part in memory at a time: S3's smallest part (5 MiB) bounds what an upload holds. */
const PART_SIZE = 5 * 1024 * 1024;

/**
 * An S3-compatible bucket, shared by every instance. Uploads of unknown length go through
 * the multipart API one part at a time; a failed upload is aborted, so no object (and no
 * orphaned part) remains.
 */
export function s3Storage(options: S3StorageOptions): StorageDriver {
  const config: S3ClientConfig = {
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
  };
  const client = new S3Client(config);
  const Bucket = options.bucket;
  const keyOf = (key: string) => `${options.prefix ?? ''}${assertKey(key)}`;
  return {
    async put(key, body, { contentType }) {
      const upload = new Upload({
        client,
        params: { Bucket, Key: keyOf(key), Body: body, ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: 1,
        leavePartsOnError: false,
      });
      await upload.done();
    },
    async get(key, range) {
      try {
        const { Body } = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: keyOf(key),
            ...(range && { Range: `bytes=${range.start}-${range.end}` }),
          }),
        );
        return (Body as Readable | undefined) ?? null;
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
  };
}
