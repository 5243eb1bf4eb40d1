import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, open, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller, type Answer } from '../support/inject';
import { eq } from '../support/db';
import { media, mediaUploads } from '../../server/src/db/schema';
import { ffmpegPath } from '../../server/src/media/pipeline';
import { sweepStaleUploads, uploadKey } from '../../server/src/features/media/service';

let server: TestServer;
let app: FastifyInstance;
let fixtures: string;
let photo: Buffer;
let small: Buffer;
let shortVideo: Buffer;
let longVideo: Buffer;

const run = promisify(execFile);

beforeAll(async () => {
  fixtures = await mkdtemp(path.join(tmpdir(), 'fanstage-media-fixtures-'));
  const ffmpeg = async (args: string[], name: string) => {
    await run(ffmpegPath, ['-v', 'error', '-y', ...args, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', path.join(fixtures, name)]);
    return readFile(path.join(fixtures, name));
  };
  [server, photo, small, shortVideo, longVideo] = await Promise.all([
    startTestServer({ seed: false }),
    // A camera photo with its location in EXIF, which must never reach anyone.
    // Noise, so a blurred copy is told apart from a sharp one by its contrast.
    sharp({ create: { width: 800, height: 600, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
      .jpeg()
      .withExif({ IFD0: { Artist: 'Camera Owner' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '50/1 5/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '14/1 25/1 0/1' } })
      .toBuffer(),
    sharp({ create: { width: 300, height: 300, channels: 3, background: '#aa3366' } }).jpeg().toBuffer(),
    ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=640x480:rate=25', '-t', '2'], 'short.mp4'),
    // One frame a second of a tiny picture: 35 minutes of video in a few kilobytes.
    ffmpeg(['-f', 'lavfi', '-i', 'color=c=red:size=160x120:rate=1', '-t', '2101'], 'long.mp4'),
  ]);
  app = server.app;
  // The fixture really carries a GPS block (tag 0x8825, little-endian), or the test below would prove nothing.
  expect((await sharp(photo).metadata()).exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true);
});
afterAll(async () => {
  await server?.close();
  await rm(fixtures, { recursive: true, force: true });
});

// Answers are checked field by field, so their bodies are read loosely.

const call = apiCaller(() => app);

async function upload(account: TestAccount, data: Buffer, name: string, type: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const response = await fetch(`${server.baseUrl}/api/media/binary`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.accessToken}` },
    body: form,
  });
  return { status: response.status, json: (await response.json()) as Answer };
}

/** Upload and create in one go, as the client does. */
async function createMedia(account: TestAccount, data: Buffer, options: { name?: string; type?: string; price?: number; purpose?: 'post' | 'chat' } = {}) {
  const uploaded = await upload(account, data, options.name ?? 'photo.jpg', options.type ?? 'image/jpeg');
  expect(uploaded.json.statusCode).toBe(2);
  return call('POST', '/api/media', account, { fileNames: [uploaded.json.body.fileName], price: options.price, purpose: options.purpose });
}

function get(url: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url, headers });
}

describe('POST /api/media/binary', () => {
  it('answers a random fileName for a picture and stages it for its owner', async () => {
    const me = await createAccount(app);
    const { status, json } = await upload(me, photo, 'holiday.jpg', 'image/jpeg');
    expect(status).toBe(200);
    expect(json.body.fileName).toMatch(/^[a-f0-9]{32}$/);
    const [row] = await app.fanstage.db.select().from(mediaUploads).where(eq(mediaUploads.fileName, json.body.fileName));
    expect(row).toMatchObject({ ownerId: me.id, detectedType: 'image', size: photo.length });
    expect(await app.fanstage.storage.exists(uploadKey(json.body.fileName))).toBe(true);
  });

  it('reads the type from the bytes: a text file named .jpg is wrong_media_type (415)', async () => {
    const me = await createAccount(app);
    const { status, json } = await upload(me, Buffer.from('just some words, no picture at all\n'), 'photo.jpg', 'image/jpeg');
    expect(status).toBe(415);
    expect(json).toMatchObject({ statusCode: -1, statusText: 'wrong_media_type' });
  });

  it('refuses uploads until the e-mail is verified', async () => {
    const me = await createAccount(app, { verified: false });
    const { status, json } = await upload(me, photo, 'photo.jpg', 'image/jpeg');
    expect(status).toBe(403);
    expect(json.statusText).toBe('email-not-verified');
  });

  it('refuses a picture over the size limit with payload-too-large (413)', async () => {
    const me = await createAccount(app);
    const config = app.fanstage.config;
    const limit = config.mediaMaxImageBytes;
    config.mediaMaxImageBytes = 1024;
    try {
      const { status, json } = await upload(me, photo, 'photo.jpg', 'image/jpeg');
      expect(status).toBe(413);
      expect(json.statusText).toBe('payload-too-large');
    } finally {
      config.mediaMaxImageBytes = limit;
    }
  });
});

describe('POST /api/media with pictures', () => {
  it('makes a ready WebP media with widths, a blurred preview and og, with no EXIF left in any file', async () => {
    const me = await createAccount(app);
    const { json } = await createMedia(me, photo);
    expect(json.statusCode).toBe(2);
    const [view] = json.body;
    expect(view).toMatchObject({ mediaStatus: 3, mediaType: 'image', format: 'webp', mediaPrice: 0, mediaIsOwner: true, mediaUnlockHash: null });
    expect(view.mediaAspectRatio).toBeCloseTo(800 / 600);
    expect(view.mediaDominantColor).toMatch(/^#[0-9a-f]{6}$/);
    expect(view.mediaHash).toMatch(/^[a-f0-9]{32}$/);

    const expected: Record<string, [number, number]> = { '': [800, 600], '320': [320, 240], '640': [640, 480], '1280': [800, 600], og: [1200, 630] };
    for (const variant of ['', '320', '640', '1280', 'blur', 'og']) {
      const response = await get(`/media/${view.mediaHash}.webp${variant ? `?t=${variant}` : ''}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toContain('immutable');
      const meta = await sharp(response.rawPayload).metadata();
      expect(meta.exif).toBeUndefined();
      if (variant === 'blur') expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(64);
      else expect([meta.width, meta.height]).toEqual(expected[variant]);
    }
  });

  it('deletes the staged upload once used, so its fileName works only once', async () => {
    const me = await createAccount(app);
    const uploaded = await upload(me, photo, 'photo.jpg', 'image/jpeg');
    const fileName = uploaded.json.body.fileName as string;
    expect((await call('POST', '/api/media', me, { fileNames: [fileName] })).json.statusCode).toBe(2);
    expect(await app.fanstage.storage.exists(uploadKey(fileName))).toBe(false);
    const again = await call('POST', '/api/media', me, { fileNames: [fileName] });
    expect(again.json).toMatchObject({ statusCode: -1, statusText: 'upload-not-found' });
  });

  it('refuses a 300×300 picture as low resolution, but not from support (level 100)', async () => {
    const me = await createAccount(app);
    const { status, json } = await createMedia(me, small);
    expect(status).toBe(400);
    expect(json).toMatchObject({ statusCode: -1, statusText: 'lowRes' });
    expect(json.body.media[0]).toMatchObject({ mediaStatus: 4, rejectReason: 'lowRes' });

    const support = await createAccount(app, { level: 100 });
    expect((await createMedia(support, small)).json.body[0]).toMatchObject({ mediaStatus: 3 });
  });

  it('answers upload-not-found for another user’s fileName', async () => {
    const owner = await createAccount(app);
    const thief = await createAccount(app);
    const uploaded = await upload(owner, photo, 'photo.jpg', 'image/jpeg');
    const { status, json } = await call('POST', '/api/media', thief, { fileNames: [uploaded.json.body.fileName] });
    expect(status).toBe(404);
    expect(json.statusText).toBe('upload-not-found');
  });

  it('answers -2 verify-required when a non-seller sets a price, and invalid-price off the steps', async () => {
    const fan = await createAccount(app);
    const priced = await createMedia(fan, photo, { price: 32 });
    expect(priced.json).toMatchObject({ statusCode: -2, statusText: 'verify-required' });

    const seller = await createAccount(app, { seller: true });
    expect((await createMedia(seller, photo, { price: 33 })).json).toMatchObject({ statusCode: -1, statusText: 'invalid-price' });
    // 3200 is a chat-media step, not a post-media one.
    expect((await createMedia(seller, photo, { price: 3200 })).json.statusText).toBe('invalid-price');
    expect((await createMedia(seller, photo, { price: 3200, purpose: 'chat' })).json.body[0]).toMatchObject({ mediaPrice: 3200, mediaStatus: 3 });
  });
});

/**
 * A real full disk: a tmpfs of 2 MB mounted over the server's media folder and filled to the
 * last byte (root only, as CI runs; mount(8) refuses anyone else).
 */
const canMount = process.platform === 'linux' && process.getuid?.() === 0;

describe.skipIf(!canMount)('when the media disk is full', () => {
  let mediaDir = '';
  const filler = () => path.join(mediaDir, 'filler');
  /** Fills what the disk has left, to the last block. */
  const fill = async () => {
    const handle = await open(filler(), 'a');
    try {
      for (;;) await handle.write(Buffer.alloc(64 * 1024, 1));
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      await handle.close();
    }
  };
  /** Every file the store holds besides the filler, half-written temporary ones included. */
  const stored = async () =>
    (await readdir(mediaDir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile() && entry.name !== 'filler')
      .map((entry) => path.relative(mediaDir, path.join(entry.parentPath, entry.name)));

  beforeAll(async () => {
    mediaDir = path.join(server.dataDir, 'media');
    await mkdir(mediaDir, { recursive: true });
    await run('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'fanstage-test-media', mediaDir]);
  });
  afterAll(async () => {
    if (mediaDir !== '') await run('umount', [mediaDir]).catch(() => {});
  });

  it('answers 507 storage-full to an upload and to its processing, keeps nothing half-written, and works again once there is room', async () => {
    const creator = await createAccount(app);
    const uploadsOf = () => app.fanstage.db.select().from(mediaUploads).where(eq(mediaUploads.ownerId, creator.id));
    const mediaOf = () => app.fanstage.db.select().from(media).where(eq(media.ownerId, creator.id));

    // The upload itself finds no room: refused whole, no row, no partial file.
    await fill();
    const refused = await upload(creator, photo, 'photo.jpg', 'image/jpeg');
    expect(refused).toEqual({ status: 507, json: { statusCode: -1, statusText: 'storage-full' } });
    expect(await uploadsOf()).toEqual([]);
    expect(await stored()).toEqual([]);

    // Room again: the same upload is taken.
    await rm(filler());
    const uploaded = await upload(creator, photo, 'photo.jpg', 'image/jpeg');
    expect(uploaded.status).toBe(200);
    const fileName = uploaded.json.body.fileName as string;

    // Its variants find no room: no media row, nothing of them stored, the upload still the creator's.
    await fill();
    const failed = await call('POST', '/api/media', creator, { fileNames: [fileName] });
    expect([failed.status, failed.json]).toEqual([507, { statusCode: -1, statusText: 'storage-full' }]);
    expect(await mediaOf()).toEqual([]);
    expect((await uploadsOf()).map((row) => row.fileName)).toEqual([fileName]);
    expect(await stored()).toEqual([uploadKey(fileName)]);

    // Room again: the same call makes the media, and the upload is used up.
    await rm(filler());
    const made = await call('POST', '/api/media', creator, { fileNames: [fileName] });
    expect(made.json.statusCode).toBe(2);
    expect(made.json.body[0].mediaStatus).toBe(3);
    expect(await mediaOf()).toHaveLength(1);
    expect(await uploadsOf()).toEqual([]);
  });
});

describe('POST /api/media with videos', () => {
  it('accepts a short video with its duration, a poster frame and seekable (Range) playback', async () => {
    const me = await createAccount(app);
    const { json } = await createMedia(me, shortVideo, { name: 'clip.mp4', type: 'video/mp4' });
    expect(json.statusCode).toBe(2);
    const [view] = json.body;
    expect(view).toMatchObject({ mediaStatus: 3, mediaType: 'video', format: 'mp4' });
    expect(view.mediaDuration).toBeCloseTo(2, 0);
    expect(view.mediaAspectRatio).toBeCloseTo(640 / 480);

    const poster = await get(`/media/${view.mediaHash}.mp4?t=poster`);
    expect(poster.statusCode).toBe(200);
    expect(poster.headers['content-type']).toBe('image/webp');
    expect((await sharp(poster.rawPayload).metadata()).width).toBe(640);
    expect((await get(`/media/${view.mediaHash}.mp4?t=blur`)).statusCode).toBe(200);

    const whole = await get(`/media/${view.mediaHash}.mp4`);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['x-content-type-options']).toBe('nosniff');
    const part = await get(`/media/${view.mediaHash}.mp4`, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${whole.rawPayload.length}`);
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(100, 200));
    const beyond = await get(`/media/${view.mediaHash}.mp4`, { range: `bytes=${whole.rawPayload.length}-` });
    expect(beyond.statusCode).toBe(416);
  });

  it('refuses a video over 2100 seconds as too long', async () => {
    const me = await createAccount(app);
    const { json } = await createMedia(me, longVideo, { name: 'long.mp4', type: 'video/mp4' });
    expect(json).toMatchObject({ statusCode: -1, statusText: 'tooLong' });
    expect(json.body.media[0]).toMatchObject({ mediaStatus: 4, rejectReason: 'tooLong' });
  });
});

describe('locked media addresses', () => {
  let seller: TestAccount;
  let fan: TestAccount;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let locked: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let free: any;

  beforeAll(async () => {
    seller = await createAccount(app, { seller: true });
    fan = await createAccount(app);
    locked = (await createMedia(seller, photo, { price: 64 })).json.body[0];
    free = (await createMedia(seller, photo)).json.body[0];
  });

  it('gives the owner an unlock key, and others none', async () => {
    expect(locked.mediaUnlockHash).toEqual(expect.any(String));
    // Others see a media only through something showing it to them: here a post.
    expect((await call('POST', '/api/posts', seller, { text: 'locked', mediaIds: [locked.mediaId] })).json.statusCode).toBe(2);
    const seen = await call('GET', `/api/media/${locked.mediaId}`, fan);
    expect(seen.json.body).toMatchObject({ mediaId: locked.mediaId, mediaPrice: 64, mediaIsOwner: false, mediaUnlockHash: null });
  });

  it('refuses the original and its widths without a valid key (403 media-locked)', async () => {
    for (const query of ['', '?t=640', '?t=1280', `?k=${encodeURIComponent('1.2.abcdefghijklmnopqrstuv')}`]) {
      const response = await get(`/media/${locked.mediaHash}.webp${query}`);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ statusCode: -1, statusText: 'media-locked' });
    }
  });

  it('serves the original with the owner’s key, privately cached', async () => {
    const response = await get(`/media/${locked.mediaHash}.webp?k=${encodeURIComponent(locked.mediaUnlockHash)}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, max-age=3600');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('always serves the blurred preview and a blurred og', async () => {
    const blur = await get(`/media/${locked.mediaHash}.webp?t=blur`);
    expect(blur.statusCode).toBe(200);
    expect(blur.headers['cache-control']).toContain('public');
    const og = await get(`/media/${locked.mediaHash}.webp?t=og`);
    expect(og.statusCode).toBe(200);
    expect((await sharp(og.rawPayload).metadata()).width).toBe(1200);
    const contrast = async (buffer: Buffer) => (await sharp(buffer).stats()).channels[0]!.stdev;
    const freeOg = await get(`/media/${free.mediaHash}.webp?t=og`);
    expect(await contrast(og.rawPayload)).toBeLessThan(10);
    expect(await contrast(freeOg.rawPayload)).toBeGreaterThan(30);
  });

  it('lets only the owner change the price, and a price on a free media moves it to a new address', async () => {
    expect((await call('PUT', `/api/media/${free.mediaId}`, fan, { price: 32 })).json.statusText).toBe('not-found');
    expect((await call('PUT', `/api/media/${free.mediaId}`, seller, { price: 31 })).json.statusText).toBe('invalid-price');
    const { json } = await call('PUT', `/api/media/${free.mediaId}`, seller, { price: 32, filter: 'sepia' });
    expect(json.body).toMatchObject({ mediaId: free.mediaId, mediaPrice: 32, mediaFilter: 'sepia' });
    expect(json.body.mediaHash).not.toBe(free.mediaHash);
    expect((await get(`/media/${free.mediaHash}.webp`)).statusCode).toBe(404);
    expect((await get(`/media/${json.body.mediaHash}.webp`)).statusCode).toBe(403);
    expect((await get(`/media/${json.body.mediaHash}.webp?k=${encodeURIComponent(json.body.mediaUnlockHash)}`)).statusCode).toBe(200);
  });

  it('copies a media into a new one with its own hash and the same pictures', async () => {
    const { json } = await call('POST', `/api/media/${locked.mediaId}/copy/`, seller);
    expect(json.statusCode).toBe(2);
    expect(json.body).toMatchObject({ mediaPrice: 64, mediaStatus: 3, mediaIsOwner: true });
    expect(json.body.mediaId).not.toBe(locked.mediaId);
    expect(json.body.mediaHash).not.toBe(locked.mediaHash);
    expect((await get(`/media/${json.body.mediaHash}.webp?t=blur`)).statusCode).toBe(200);
    expect((await get(`/media/${json.body.mediaHash}.webp?k=${encodeURIComponent(json.body.mediaUnlockHash)}`)).statusCode).toBe(200);
    expect((await call('POST', `/api/media/${locked.mediaId}/copy/`, fan)).json.statusText).toBe('not-found');
  });

  it('hides a rejected media from everyone but its owner', async () => {
    const rejected = (await createMedia(seller, small)).json.body.media[0];
    expect((await call('GET', `/api/media/${rejected.mediaId}`, seller)).json.body).toMatchObject({ mediaStatus: 4, rejectReason: 'lowRes' });
    expect((await call('GET', `/api/media/${rejected.mediaId}`, fan)).status).toBe(404);
  });
});

describe('stale uploads', () => {
  it('are swept after a day with their staged bytes', async () => {
    const me = await createAccount(app);
    const fileName = (await upload(me, photo, 'photo.jpg', 'image/jpeg')).json.body.fileName as string;
    const { db, storage } = app.fanstage;
    await db
      .update(mediaUploads)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60_000) })
      .where(eq(mediaUploads.fileName, fileName));
    expect(await sweepStaleUploads(app.fanstage)).toBeGreaterThanOrEqual(1);
    expect(await storage.exists(uploadKey(fileName))).toBe(false);
    expect(await db.select().from(mediaUploads).where(eq(mediaUploads.fileName, fileName))).toEqual([]);
    expect(await db.select({ id: media.id }).from(media).where(eq(media.ownerId, me.id))).toEqual([]);
  });

  it('take media stuck in status 5 for a day with them, and leave recent ones', async () => {
    const me = await createAccount(app);
    const { db } = app.fanstage;
    const row = (hash: string, createdAt: Date) => ({ hash, ownerId: me.id, kind: 'post', format: 'webp', width: 0, height: 0, status: 5, createdAt });
    await db.insert(media).values([row('0'.repeat(32), new Date(Date.now() - 25 * 60 * 60_000)), row('1'.repeat(32), new Date())]);
    await sweepStaleUploads(app.fanstage);
    const left = await db.select({ hash: media.hash }).from(media).where(eq(media.ownerId, me.id));
    expect(left).toEqual([{ hash: '1'.repeat(32) }]);
  });
});
