import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DiskStorage, type MediaStorage } from '../../server/src/media/storage';
import { S3Storage, objectContentType, objectKeyOf } from '../../server/src/media/s3-storage';
import { mediaKeys, servedKey, videoContainerOf } from '../../server/src/media/pipeline';
import { mediaPriceProblem, needsUnlockKey, parseRange } from '../../server/src/features/media/domain';
import { ConfigError, loadConfig } from '../../server/src/config';
import { guardStorage, storageFailureAnswer, storageFailureOf } from '../../server/src/media/storage-failures';
import type { FastifyBaseLogger } from 'fastify';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The handful of S3 calls the storage makes (PUT, copy, GET with Range, HEAD, DELETE), path
 * style and without checking signatures: enough to see the requests are the right ones.
 */
function fakeS3(): { server: Server; objects: Map<string, { body: Buffer; type: string | undefined }>; full: { now: boolean } } {
  const objects = new Map<string, { body: Buffer; type: string | undefined }>();
  const full = { now: false };
  const missing = (response: ServerResponse, head = false) => {
    response.writeHead(404, { 'content-type': 'application/xml' });
    response.end(head ? undefined : '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>none</Message></Error>');
  };
  const server = createServer((request, response) => {
    const key = decodeURIComponent(new URL(request.url ?? '/', 'http://s3').pathname.slice(1));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const object = objects.get(key);
      if (request.method === 'PUT' && full.now) {
        // What MinIO answers when its disks are full.
        response.writeHead(507, { 'content-type': 'application/xml' });
        return response.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>XMinioStorageFull</Code><Message>Storage backend has reached its minimum free drive threshold.</Message></Error>');
      }
      switch (request.method) {
        case 'PUT': {
          const source = request.headers['x-amz-copy-source'];
          if (typeof source === 'string') {
            const from = objects.get(decodeURIComponent(source).replace(/^\//, ''));
            if (from === undefined) return missing(response);
            objects.set(key, { ...from });
            response.writeHead(200, { 'content-type': 'application/xml' });
            return response.end('<?xml version="1.0" encoding="UTF-8"?><CopyObjectResult><ETag>"e"</ETag></CopyObjectResult>');
          }
          objects.set(key, { body: Buffer.concat(chunks), type: request.headers['content-type'] });
          response.writeHead(200, { etag: '"e"' });
          return response.end();
        }
        case 'HEAD':
          if (object === undefined) return missing(response, true);
          response.writeHead(200, { 'content-length': object.body.length });
          return response.end();
        case 'GET': {
          if (object === undefined) return missing(response);
          const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
          if (range) {
            const [start, end] = [Number(range[1]), Number(range[2])];
            response.writeHead(206, { 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${object.body.length}` });
            return response.end(object.body.subarray(start, end + 1));
          }
          response.writeHead(200, { 'content-length': object.body.length });
          return response.end(object.body);
        }
        case 'DELETE':
          objects.delete(key);
          response.writeHead(204);
          return response.end();
        default:
          response.writeHead(405);
          return response.end();
      }
    });
  });
  return { server, objects, full };
}

let folder: string;
let s3: ReturnType<typeof fakeS3>;
let s3Storage: S3Storage;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'fanstage-storage-'));
  s3 = fakeS3();
  await new Promise<void>((resolve) => s3.server.listen(0, '127.0.0.1', resolve));
  const { port } = s3.server.address() as AddressInfo;
  s3Storage = new S3Storage({
    bucket: 'media',
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: 'test',
    secretAccessKey: 'test-secret',
    forcePathStyle: true,
    prefix: 'fanstage/',
  });
});
afterAll(async () => {
  s3Storage?.client.destroy();
  await new Promise((resolve) => s3?.server.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

describe.each([
  ['disk', () => new DiskStorage(path.join(folder, 'disk')) as MediaStorage],
  ['S3', () => s3Storage as MediaStorage],
])('%s media storage', (_name, storageOf) => {
  it('stores, measures, reads ranges of, copies and deletes files', async () => {
    const storage = storageOf();
    await storage.put('abc0123456789def.webp', Buffer.from('0123456789'));
    const local = path.join(folder, 'local.bin');
    await writeFile(local, 'streamed from a file');
    await storage.putFile('uploads/0f0f0f0f', local);

    expect(await storage.size('abc0123456789def.webp')).toBe(10);
    expect(await storage.exists('uploads/0f0f0f0f')).toBe(true);
    const whole = await storage.open('abc0123456789def.webp');
    expect(whole?.size).toBe(10);
    expect(await text(whole!.stream)).toBe('0123456789');
    const part = await storage.open('abc0123456789def.webp', { start: 2, end: 5 });
    expect(part?.size).toBe(10);
    expect(await text(part!.stream)).toBe('2345');

    expect(await storage.copy('uploads/0f0f0f0f', 'uploads/1e1e1e1e')).toBe(true);
    expect(await text((await storage.open('uploads/1e1e1e1e'))!.stream)).toBe('streamed from a file');
    expect(await storage.copy('uploads/missing', 'uploads/elsewhere')).toBe(false);

    await storage.delete('uploads/0f0f0f0f');
    await storage.delete('uploads/never-was');
    expect(await storage.exists('uploads/0f0f0f0f')).toBe(false);
    expect(await storage.open('uploads/0f0f0f0f')).toBeNull();
    expect(await storage.size('uploads/0f0f0f0f')).toBeNull();
  });

  it('treats keys that could escape the store as missing', async () => {
    const storage = storageOf();
    expect(await storage.open('../etc/passwd')).toBeNull();
    expect(await storage.exists('a/b/c.webp')).toBe(false);
  });
});

describe('a store that fails', () => {
  const logged: string[] = [];
  const log = { error: (_fields: unknown, message: string) => void logged.push(message) } as unknown as FastifyBaseLogger;

  it('answers storage-full (507) for a full disk or a full S3, service-unavailable (503, Retry-After) for an S3 that cannot be reached', async () => {
    s3.full.now = true;
    try {
      await expect(guardStorage(s3Storage, log).put('uploads/full', Buffer.from('x'))).rejects.toMatchObject({ key: 'storage-full', httpStatus: 507 });
    } finally {
      s3.full.now = false;
    }
    expect(s3.objects.has('fanstage/uploads/full')).toBe(false);

    const away = new S3Storage({ bucket: 'media', region: 'us-east-1', endpoint: 'http://127.0.0.1:9', accessKeyId: 'test', secretAccessKey: 'test-secret', forcePathStyle: true, prefix: '' });
    try {
      await expect(guardStorage(away, log).put('uploads/away', Buffer.from('x'))).rejects.toMatchObject({ key: 'service-unavailable', httpStatus: 503, retryAfter: 5 });
      await expect(guardStorage(away, log).open('uploads/away')).rejects.toMatchObject({ key: 'service-unavailable' });
    } finally {
      away.client.destroy();
    }
    expect(logged).toEqual(['media storage is full', 'media storage unreachable', 'media storage unreachable']);

    // A disk out of space or over its quota, however deep in the causes; anything else is not the store's.
    expect(storageFailureOf(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }))).toBe('full');
    expect(storageFailureOf(new Error('copy failed', { cause: Object.assign(new Error('quota'), { code: 'EDQUOT' }) }))).toBe('full');
    expect(storageFailureOf(new TypeError('undefined is not a function'))).toBeNull();
    expect(storageFailureAnswer(Object.assign(new Error('denied'), { code: 'EACCES' }))).toBeNull();
  });

  it('keeps what it was told of a missing file', async () => {
    const guarded = guardStorage(new DiskStorage(path.join(folder, 'guarded')), log);
    expect(await guarded.open('uploads/none')).toBeNull();
    expect(await guarded.size('uploads/none')).toBeNull();
    await guarded.delete('uploads/none');
  });
});

describe('S3 keys', () => {
  it('puts every key under the prefix with a content type by its extension', () => {
    expect([...s3.objects.keys()]).toContain('media/fanstage/abc0123456789def.webp');
    expect(s3.objects.get('media/fanstage/abc0123456789def.webp')?.type).toBe('image/webp');
    expect(objectKeyOf('fanstage/', 'uploads/abc')).toBe('fanstage/uploads/abc');
    expect(() => objectKeyOf('', '../x')).toThrow();
    expect(objectContentType('ab.mp4')).toBe('video/mp4');
    expect(objectContentType('uploads/abc')).toBe('application/octet-stream');
  });

  it('are configured from S3_* variables, and wrong values stop the start', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).s3).toBeUndefined();
    expect(
      loadConfig({ NODE_ENV: 'test', S3_BUCKET: 'media', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b' }).s3,
    ).toEqual({ bucket: 'media', region: 'us-east-1', endpoint: 'http://minio:9000', accessKeyId: 'a', secretAccessKey: 'b', forcePathStyle: true, prefix: '' });
    expect(() => loadConfig({ NODE_ENV: 'test', S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'a' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'test', S3_BUCKET: 'media', S3_ENDPOINT: 'minio:9000' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'test', S3_BUCKET: 'media', S3_PREFIX: 'no-slash' })).toThrow(ConfigError);
  });
});

describe('media rules', () => {
  it('reads one byte range, and ignores what it does not support', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
  });

  it('takes post prices from the post-media steps and chat prices from the chat-media steps, priced only by sellers', () => {
    expect(mediaPriceProblem(0, 'post', false)).toBeNull();
    expect(mediaPriceProblem(1920, 'post', true)).toBeNull();
    expect(mediaPriceProblem(3200, 'post', true)).toBe('invalid-price');
    expect(mediaPriceProblem(3200, 'chat', true)).toBeNull();
    expect(mediaPriceProblem(32, 'post', false)).toBe('verify-required');
  });

  it('needs the unlock key for everything of a priced media but the blurred preview and og', () => {
    expect(needsUnlockKey(0, undefined)).toBe(false);
    for (const variant of [undefined, '320', '640', '1280', 'poster', '500']) expect(needsUnlockKey(32, variant)).toBe(true);
    expect(needsUnlockKey(32, 'blur')).toBe(false);
    expect(needsUnlockKey(32, 'og')).toBe(false);
  });

  it('maps addresses to stored files: a locked og is the blurred one, video previews are WebP', () => {
    expect(servedKey('aa', 'webp', 'image', undefined, false)).toBe('aa.webp');
    expect(servedKey('aa', 'webp', 'image', 'og', false)).toBe('aa-og.webp');
    expect(servedKey('aa', 'webp', 'image', 'og', true)).toBe('aa-ogb.webp');
    expect(servedKey('aa', 'mp4', 'video', 'poster', true)).toBe('aa-poster.webp');
    expect(mediaKeys('aa', 'mp4', 'video')).toEqual(['aa.mp4', 'aa-poster.webp', 'aa-blur.webp', 'aa-og.webp', 'aa-ogb.webp']);
  });

  it('tells video containers by their first bytes, and HEIF pictures apart from them', () => {
    const box = (brand: string) => Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from(`ftyp${brand}`), Buffer.alloc(8)]);
    expect(videoContainerOf(box('isom'))).toBe('mp4');
    expect(videoContainerOf(box('qt  '))).toBe('mp4');
    expect(videoContainerOf(box('heic'))).toBeNull();
    expect(videoContainerOf(Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from('....webm')]))).toBe('webm');
    expect(videoContainerOf(Buffer.from('hello world, not a video'))).toBeNull();
  });
});
