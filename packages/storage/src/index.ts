export { assertKey, type ByteRange, type StorageDriver } from './driver';
export { localDiskStorage } from './local';
export { s3Storage, type S3StorageOptions } from './s3';
export { storageFromEnv } from './config';
