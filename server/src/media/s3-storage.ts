import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../config';
import { contentTypeOf } from './images';
import { isValidKey, type ByteRange, type MediaStorage } from './storage';

/** True for the SDK's "no such object" answers (GET says NoSuchKey, HEAD only 404). */
function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/** The object key of a storage key: the configured prefix plus the key, checked like disk paths. */
export function objectKeyOf(prefix: string, key: string): string {
  if (!isValidKey(key)) throw new Error(`invalid media key: ${key}`);
  return `${prefix}${key}`;
}

/** `Content-Type` stored with an object, so a bucket served directly by a CDN answers safely too. */
export function objectContentType(key: string): string {
  const dot = key.lastIndexOf('.');
  return (dot > key.lastIndexOf('/') && contentTypeOf(key.slice(dot + 1))) || 'application/octet-stream';
}

/**
 * Media on S3 or an S3-compatible service (MinIO, Cloudflare R2, Backblaze B2, …), so any
 * number of server nodes share one store. Objects are private; the server streams them,
 * because it alone decides who may see a locked original.
 */
export class S3Storage implements MediaStorage {
  readonly client: S3Client;

  constructor(readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId !== undefined && settings.secretAccessKey !== undefined
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // Checksums only where the API demands them: several S3-compatible services refuse the
      // newer default (streamed aws-chunked uploads with CRC trailers).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(key: string): string {
    return objectKeyOf(this.settings.prefix, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key), Body: data, ContentLength: data.length, ContentType: objectContentType(key) }),
    );
  }

  async putFile(key: string, file: string): Promise<void> {
    const { size } = await stat(file);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.key(key),
        Body: createReadStream(file),
        ContentLength: size,
        ContentType: objectContentType(key),
      }),
    );
  }

  async open(key: string, range?: ByteRange): Promise<{ stream: Readable; size: number } | null> {
    if (!isValidKey(key)) return null;
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      // A ranged answer carries the whole size after the slash of Content-Range.
      const total = answer.ContentRange ? Number(answer.ContentRange.split('/')[1]) : answer.ContentLength;
      if (answer.Body === undefined || total === undefined || !Number.isFinite(total)) return null;
      return { stream: answer.Body as Readable, size: total };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async size(key: string): Promise<number | null> {
    if (!isValidKey(key)) return null;
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key) }));
      return answer.ContentLength ?? null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== null;
  }

  async copy(from: string, to: string): Promise<boolean> {
    if (!isValidKey(from)) return false;
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.settings.bucket,
          Key: this.key(to),
          CopySource: `${this.settings.bucket}/${encodeURIComponent(this.key(from)).replace(/%2F/g, '/')}`,
        }),
      );
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    if (!isValidKey(key)) return;
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key) }));
  }
}
