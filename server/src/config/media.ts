/**
 * The media store's settings: an S3-compatible bucket when S3_BUCKET is set (S3_REGION,
 * S3_ENDPOINT, the access keys, path style and key prefix); local disk otherwise.
 */
import { ConfigError, nonEmpty, type Env } from './env';

export interface S3Settings {
  bucket: string;
  region: string;
  /** For services other than AWS (MinIO, R2, …): their address. */
  endpoint: string | undefined;
  /** Without them the AWS SDK's default chain (environment, instance role) is used. */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** `bucket` in the path instead of the host name (most S3-compatible services want it). */
  forcePathStyle: boolean;
  /** Prepended to every key, so one bucket can hold several installations. */
  prefix: string;
}

export function s3Settings(env: Env): S3Settings | undefined {
  const bucket = nonEmpty(env.S3_BUCKET);
  if (bucket === undefined) return undefined;
  const endpoint = nonEmpty(env.S3_ENDPOINT);
  if (endpoint !== undefined && !/^https?:\/\/[^/\s]+\/?$/.test(endpoint)) {
    throw new ConfigError(`S3_ENDPOINT must be an http(s) origin such as https://s3.example.com (got "${endpoint}").`);
  }
  const accessKeyId = nonEmpty(env.S3_ACCESS_KEY_ID);
  const secretAccessKey = nonEmpty(env.S3_SECRET_ACCESS_KEY);
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together.');
  }
  const pathStyle = (nonEmpty(env.S3_FORCE_PATH_STYLE) ?? 'false').toLowerCase();
  if (!['1', '0', 'true', 'false'].includes(pathStyle)) throw new ConfigError(`S3_FORCE_PATH_STYLE must be true or false (got "${pathStyle}").`);
  const prefix = nonEmpty(env.S3_PREFIX) ?? '';
  if (prefix !== '' && !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/$/.test(prefix)) {
    throw new ConfigError(`S3_PREFIX must be a folder ending in / such as fanstage/ (got "${prefix}").`);
  }
  return {
    bucket,
    region: nonEmpty(env.S3_REGION) ?? 'us-east-1',
    endpoint,
    accessKeyId,
    secretAccessKey,
    forcePathStyle: pathStyle === '1' || pathStyle === 'true',
    prefix,
  };
}
