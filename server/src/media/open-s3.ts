import type { S3Settings } from '../config';
import type { MediaStorage } from './storage';

/**
 * S3 storage, loaded only when configured: the AWS SDK is large and disk setups never need it.
 * Apart from ./storage.ts, which the S3 store itself builds on.
 */
export async function openS3Storage(settings: S3Settings): Promise<MediaStorage> {
  const { S3Storage } = await import('./s3-storage');
  return new S3Storage(settings);
}
