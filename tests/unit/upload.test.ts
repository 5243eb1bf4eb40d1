import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import sharp from 'sharp';
import { checkFile, checkMeasured, createFanstage, mediaKindOf, type Fanstage, type Measure } from '../../lib/sdk';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type AccountOptions, type TestAccount } from '../support/accounts';
import { eq } from '../support/db';
import { media } from '../../server/src/db/schema';

const file = (type: string, name = 'file') => Object.assign(new Blob(['x'], { type }), { name });
const measures = (result: Awaited<ReturnType<Measure>>): Measure => () => Promise.resolve(result);
const unreadable: Measure = () => Promise.reject(new Error('broken'));

describe('upload checks', () => {
  it('take images and videos, and HEIC or MP4 files the browser gives no type', () => {
    expect(mediaKindOf({ type: 'image/jpeg' })).toBe('image');
    expect(mediaKindOf({ type: 'video/mp4' })).toBe('video');
    expect(mediaKindOf({ type: '', name: 'IMG_0001.HEIC' })).toBe('image');
    expect(mediaKindOf({ type: '', name: 'clip.m4v' })).toBe('video');
    expect(mediaKindOf({ type: 'text/plain', name: 'notes.jpg' })).toBeNull();
    expect(mediaKindOf({ type: 'application/pdf' })).toBeNull();
  });

  it('take an audio file as a voice note only where voice notes are asked for', async () => {
    expect(mediaKindOf({ type: 'audio/mp4' })).toBeNull();
    expect(mediaKindOf({ type: 'audio/mp4' }, { voice: true })).toBe('voice');
    expect(mediaKindOf({ type: '', name: 'note.m4a' }, { voice: true })).toBe('voice');
    expect(mediaKindOf({ type: '', name: 'note.m4a' })).toBeNull();
    expect(await checkFile([file('audio/ogg', 'note.ogg')], measures({ kind: 'voice', duration: 12 }))).toEqual({ ok: false, problem: 'wrong_media_type' });
    expect(await checkFile([file('audio/ogg', 'note.ogg')], measures({ kind: 'voice', duration: 12 }), { voice: true })).toMatchObject({ ok: true, checked: { kind: 'voice' } });
    expect(checkMeasured({ kind: 'voice', duration: 2100.5 })).toBe('tooLong');
  });

  it('refuse pictures under 400 px on a side, except from support (level 100)', () => {
    expect(checkMeasured({ kind: 'image', width: 300, height: 300 })).toBe('lowRes');
    expect(checkMeasured({ kind: 'image', width: 1200, height: 399 })).toBe('lowRes');
    expect(checkMeasured({ kind: 'image', width: 400, height: 400 })).toBeNull();
    expect(checkMeasured({ kind: 'image', width: 300, height: 300 }, { level: 100 })).toBeNull();
  });

  it('refuse videos over 2100 seconds', () => {
    expect(checkMeasured({ kind: 'video', duration: 2100 })).toBeNull();
    expect(checkMeasured({ kind: 'video', duration: 2100.5 })).toBe('tooLong');
  });

  it('accept a video the browser cannot play, flagged unsupported', async () => {
    const result = await checkFile([file('video/quicktime', 'a.mov')], measures({ kind: 'unplayable' }));
    expect(result).toMatchObject({ ok: true, checked: { kind: 'video', unsupported: true } });
  });

  it('call a file that cannot be read a format error, and another type a wrong media type', async () => {
    expect(await checkFile([file('image/png')], unreadable)).toEqual({ ok: false, problem: 'format' });
    expect(await checkFile([file('text/plain', 'a.jpg')], unreadable)).toEqual({ ok: false, problem: 'wrong_media_type' });
  });

  it('use only the first file', async () => {
    const result = await checkFile([file('image/png', 'first.png'), file('text/plain', 'second.txt')], measures({ kind: 'image', width: 800, height: 600 }));
    expect(result).toMatchObject({ ok: true, checked: { file: { name: 'first.png' } } });
  });
});

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

interface Sent {
  url: string;
  authorization: string | null;
  body: unknown;
}

/** A signed-in account whose requests are noted as they leave for the real server. */
async function loggedIn(options: AccountOptions = {}): Promise<{ account: TestAccount; fanstage: Fanstage; sent: Sent[] }> {
  const account = await createAccount(server.app, options);
  const sent: Sent[] = [];
  const recording: typeof fetch = (input, init) => {
    sent.push({ url: String(input instanceof Request ? input.url : input), authorization: new Headers(init?.headers).get('authorization'), body: init?.body });
    return fetch(input, init);
  };
  const fanstage = createFanstage({ baseUrl: server.baseUrl, fetch: recording });
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  sent.length = 0;
  return { account, fanstage, sent };
}

/** A real PNG, which the server decodes. */
async function png(width: number, height: number) {
  const bytes = await sharp({ create: { width, height, channels: 3, background: { r: 30, g: 160, b: 90 } } }).png().toBuffer();
  return Object.assign(new Blob([new Uint8Array(bytes)], { type: 'image/png' }), { name: 'a.png' });
}

/** A real video of 2101 s: one still frame a second at 160 × 120, quick to encode and small. */
async function longVideo() {
  const dir = await mkdtemp(path.join(tmpdir(), 'fanstage-long-'));
  const out = path.join(dir, 'long.mp4');
  try {
    await promisify(execFile)(ffmpegInstaller.path, [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=teal:size=160x120:rate=1', '-t', '2101',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', out,
    ]);
    return Object.assign(new Blob([new Uint8Array(await readFile(out))], { type: 'video/mp4' }), { name: 'a.mp4' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const mediaOf = (ownerId: number) =>
  server.app.fanstage.db.select({ id: media.id, price: media.price, kind: media.kind }).from(media).where(eq(media.ownerId, ownerId));

describe('the upload flow against the real server', { timeout: 30_000 }, () => {
  it('stops with the verify-email outcome when the e-mail is not verified', async () => {
    const { account, fanstage, sent } = await loggedIn({ verified: false });
    const upload = fanstage.uploads.create();
    expect(await upload.start([await png(800, 800)], { measure: measures({ kind: 'image', width: 800, height: 800 }) })).toBe('verify-email');
    expect(upload.status.value).toBe('verify-email');
    expect(sent).toEqual([]);
    expect(await mediaOf(account.id)).toEqual([]);
  });

  it('refuses a small picture before sending anything', async () => {
    const { account, fanstage, sent } = await loggedIn();
    const upload = fanstage.uploads.create();
    expect(await upload.start([await png(300, 300)], { measure: measures({ kind: 'image', width: 300, height: 300 }) })).toBe('rejected');
    expect(upload.problem.value).toBe('lowRes');
    expect(sent).toEqual([]);
    expect(await mediaOf(account.id)).toEqual([]);
  });

  it('sends the bytes through fetch (no XMLHttpRequest here) with the token, then creates the media with the price and purpose', async () => {
    const { account, fanstage, sent } = await loggedIn({ seller: true });
    const upload = fanstage.uploads.create();
    const status = await upload.start([await png(800, 800)], { price: 320, purpose: 'post', measure: measures({ kind: 'image', width: 800, height: 800 }) });
    expect(status).toBe('done');
    // fetch tells nothing of the upload's progress: it is complete once the bytes are stored.
    expect(upload.progress.value).toBe(100);
    expect(sent.map((r) => new URL(r.url).pathname)).toEqual(['/api/media/binary', '/api/media']);
    expect(sent.every((r) => r.authorization === `Bearer ${account.accessToken}`)).toBe(true);
    expect(sent[0]!.body).toBeInstanceOf(FormData);
    const stored = await mediaOf(account.id);
    expect(stored).toEqual([{ id: expect.any(Number), price: 320, kind: 'post' }]);
    expect(upload.media.value.map((m) => m.mediaId)).toEqual([stored[0]!.id]);
  });

  it('reports the server\'s refusal as the popup cause', async () => {
    const { fanstage, sent } = await loggedIn({ seller: true });
    const upload = fanstage.uploads.create();
    // The browser could not play it, so only the server can tell it is too long.
    expect(await upload.start([await longVideo()], { measure: measures({ kind: 'unplayable' }) })).toBe('rejected');
    expect(upload.problem.value).toBe('tooLong');
    expect(JSON.parse(String(sent.at(-1)?.body))).toMatchObject({ unsupported: true, mediaType: 'video' });
  });
});
