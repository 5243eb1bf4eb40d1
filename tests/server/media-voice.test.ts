import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller, type Answer } from '../support/inject';
import { eq } from '../support/db';
import { expectLedgerBalanced, fundWallet, walletOf, earningsOf } from '../support/money';
import { closeSockets, connectSocket } from '../support/sockets';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { media, mediaUploads, users } from '../../server/src/db/schema';
import { mediaTypeAllowedFor, mediaTypeOfProbe } from '../../server/src/features/media/domain';
import { ffmpegPath, ffprobePath, mediaKeys, servedKey } from '../../server/src/media/pipeline';
import { say } from './support-chat';

let server: TestServer;
let app: FastifyInstance;
let fixtures: string;
/** Voice notes in the formats phones and browsers record, three seconds each. */
let notes: Record<'webm' | 'ogg' | 'mp3' | 'm4a' | 'wav', Buffer>;
let longMp3: Buffer;
let longRecording: Buffer;

const run = promisify(execFile);

/** Runs ffmpeg with `args` (output options included) and answers what it wrote to stdout. */
async function ffmpegOut(args: string[]): Promise<Buffer> {
  const { stdout } = await run(ffmpegPath, ['-v', 'error', ...args, 'pipe:1'], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

const sine = ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3'];
// Tags a recorder or an editor might leave, which must never be served.
const tags = ['-metadata', 'title=Home address: 5 Elm Street', '-metadata', 'artist=Recorder Owner'];

beforeAll(async () => {
  fixtures = await mkdtemp(path.join(tmpdir(), 'fanstage-voice-fixtures-'));
  const [webm, ogg, mp3, m4a, wav] = await Promise.all([
    // As MediaRecorder writes it: Opus in WebM, streamed, so the header carries no duration.
    ffmpegOut([...sine, '-c:a', 'libopus', '-b:a', '32k', '-f', 'webm']),
    ffmpegOut([...sine, ...tags, '-c:a', 'libopus', '-f', 'ogg']),
    ffmpegOut([...sine, ...tags, '-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3']),
    // MP4 needs a seekable output for its index, so this one goes through a file.
    (async () => {
      const file = path.join(fixtures, 'note.m4a');
      await run(ffmpegPath, ['-v', 'error', '-y', ...sine, ...tags, '-c:a', 'aac', '-f', 'ipod', file]);
      return readFile(file);
    })(),
    ffmpegOut([...sine, '-c:a', 'pcm_s16le', '-f', 'wav']),
  ]);
  notes = { webm: webm!, ogg: ogg!, mp3: mp3!, m4a: m4a!, wav: wav! };
  // The tagged fixtures really carry their tags, or the test of their removal would prove nothing.
  for (const tagged of [ogg!, mp3!, m4a!]) expect(tagged.includes('Elm Street')).toBe(true);
  // 35 minutes and a second of silence at 8 kHz and 8 kbit/s: about 2 MB, made in a second or two.
  longMp3 = await ffmpegOut(['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '2101', '-c:a', 'libmp3lame', '-b:a', '8k', '-f', 'mp3']);
  // The same sound streamed into Matroska, as a recorder writes it: no duration in the header.
  const longFile = path.join(fixtures, 'long.mp3');
  await writeFile(longFile, longMp3);
  longRecording = await ffmpegOut(['-i', longFile, '-c', 'copy', '-f', 'matroska']);
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  closeSockets();
  await server?.close();
  await rm(fixtures, { recursive: true, force: true });
});

// Answers are checked field by field, so their bodies are read loosely.

const call = apiCaller(() => app);
const salt = () => app.fanstage.config.priceSalt;

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

/** Upload and create in one go, as the chat composer does. */
async function createVoice(account: TestAccount, data: Buffer, options: { name?: string; price?: number; purpose?: 'post' | 'chat' } = {}) {
  const uploaded = await upload(account, data, options.name ?? 'voice.webm', 'audio/webm');
  expect(uploaded.json.statusCode).toBe(2);
  return call('POST', '/api/media', account, { fileNames: [uploaded.json.body.fileName], price: options.price, purpose: options.purpose ?? 'chat', mediaType: 'voice' });
}

function get(url: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url, headers });
}

/** Container, codec and tags of served bytes, as ffprobe reads them. */
async function probeServed(data: Buffer): Promise<{ format: { format_name: string; duration: string; tags?: Record<string, string> }; streams: { codec_type: string; codec_name: string; tags?: Record<string, string> }[] }> {
  const file = path.join(fixtures, `served-${Math.random().toString(36).slice(2)}.m4a`);
  await writeFile(file, data);
  const { stdout } = await run(ffprobePath, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
  return JSON.parse(stdout);
}

describe('voice note rules', () => {
  const stream = (codecType: string, codecName: string, attachedPic = false) => ({ codecType, codecName, attachedPic });

  it('tell a voice note by its streams and container, whatever the first bytes suggest', () => {
    expect(mediaTypeOfProbe('webm', { formatName: 'matroska,webm', streams: [stream('audio', 'opus')] })).toBe('voice');
    expect(mediaTypeOfProbe('mp4', { formatName: 'mov,mp4,m4a,3gp,3g2,mj2', streams: [stream('audio', 'aac')] })).toBe('voice');
    expect(mediaTypeOfProbe(null, { formatName: 'mp3', streams: [stream('audio', 'mp3'), stream('video', 'mjpeg', true)] })).toBe('voice');
    expect(mediaTypeOfProbe(null, { formatName: 'wav', streams: [stream('audio', 'pcm_s16le')] })).toBe('voice');
    expect(mediaTypeOfProbe('webm', { formatName: 'matroska,webm', streams: [stream('video', 'vp9'), stream('audio', 'opus')] })).toBe('video');
    // Sound in a container not taken (a playlist, a subtitle file…) or of a codec not taken.
    expect(mediaTypeOfProbe(null, { formatName: 'hls', streams: [stream('audio', 'aac')] })).toBeNull();
    expect(mediaTypeOfProbe(null, { formatName: 'wav', streams: [stream('audio', 'adpcm_ms')] })).toBeNull();
    expect(mediaTypeOfProbe(null, null)).toBeNull();
    // A known video container ffprobe could not read stays a video, refused later as `format`.
    expect(mediaTypeOfProbe('mp4', null)).toBe('video');
  });

  it('keep voice notes to chat', () => {
    expect(mediaTypeAllowedFor('voice', 'chat')).toBe(true);
    expect(mediaTypeAllowedFor('voice', 'post')).toBe(false);
    expect(mediaTypeAllowedFor('video', 'post')).toBe(true);
  });

  it('give a voice note no variants: only its sound is stored and served', () => {
    expect(mediaKeys('aa', 'm4a', 'voice')).toEqual(['aa.m4a']);
    expect(servedKey('aa', 'm4a', 'voice', undefined, true)).toBe('aa.m4a');
    for (const variant of ['blur', 'og', 'poster', '640']) expect(servedKey('aa', 'm4a', 'voice', variant, true)).toBeNull();
  });
});

describe('voice notes for chat', () => {
  it.each(['webm', 'ogg', 'mp3', 'm4a', 'wav'] as const)('from %s are ready, measured, served as AAC in M4A (audio/mp4, nosniff) without their tags', async (kind) => {
    const me = await createAccount(app);
    const uploaded = await upload(me, notes[kind], `note.${kind}`, 'audio/webm');
    expect(uploaded.status).toBe(200);
    const [staged] = await app.fanstage.db.select().from(mediaUploads).where(eq(mediaUploads.fileName, uploaded.json.body.fileName));
    expect(staged?.detectedType).toBe('voice');
    const { json } = await call('POST', '/api/media', me, { fileNames: [uploaded.json.body.fileName], purpose: 'chat', mediaType: 'voice' });
    expect(json.statusCode).toBe(2);
    const [view] = json.body;
    expect(view).toMatchObject({ mediaStatus: 3, mediaType: 'voice', format: 'm4a', mediaPrice: 0 });
    expect(view.mediaDuration).toBeCloseTo(3, 0);

    const served = await get(`/media/${view.mediaHash}.m4a`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('audio/mp4');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['accept-ranges']).toBe('bytes');
    const probe = await probeServed(served.rawPayload);
    expect(probe.format.format_name).toContain('m4a');
    expect(probe.streams.map((s) => `${s.codec_type}:${s.codec_name}`)).toEqual(['audio:aac']);
    expect(Number(probe.format.duration)).toBeCloseTo(3, 0);
    expect(JSON.stringify(probe)).not.toMatch(/Elm Street|Recorder Owner/);
    // Seekable: a player asks for parts of the file.
    const part = await get(`/media/${view.mediaHash}.m4a`, { range: 'bytes=0-99' });
    expect(part.statusCode).toBe(206);
    // A voice note has no pictures.
    expect((await get(`/media/${view.mediaHash}.m4a?t=blur`)).statusCode).toBe(404);
    expect((await get(`/media/${view.mediaHash}.m4a?t=poster`)).statusCode).toBe(404);
  });

  it('reads the type from the bytes: a text file named .webm is wrong_media_type (415)', async () => {
    const me = await createAccount(app);
    const { status, json } = await upload(me, Buffer.from('just some words, no sound at all\n'), 'voice.webm', 'audio/webm');
    expect(status).toBe(415);
    expect(json).toMatchObject({ statusCode: -1, statusText: 'wrong_media_type' });
  });

  it('refuses a voice note for a post as wrong_media_type, whatever mediaType the client claims', async () => {
    const me = await createAccount(app);
    const uploaded = await upload(me, notes.mp3, 'clip.mp4', 'video/mp4');
    const { json } = await call('POST', '/api/media', me, { fileNames: [uploaded.json.body.fileName], purpose: 'post', mediaType: 'video' });
    expect(json).toMatchObject({ statusCode: -1, statusText: 'wrong_media_type' });
    expect(json.body.media[0]).toMatchObject({ mediaStatus: 4, rejectReason: 'wrong_media_type' });
    // Without a purpose an upload is for a post.
    const again = await upload(me, notes.webm, 'voice.webm', 'audio/webm');
    expect((await call('POST', '/api/media', me, { fileNames: [again.json.body.fileName] })).json.statusText).toBe('wrong_media_type');
  });

  it('refuses one over 2100 seconds as tooLong, with or without a duration in its header', async () => {
    const me = await createAccount(app);
    for (const [data, name] of [
      [longMp3, 'long.mp3'],
      [longRecording, 'long.webm'],
    ] as const) {
      const { json } = await createVoice(me, data, { name });
      expect(json, name).toMatchObject({ statusCode: -1, statusText: 'tooLong' });
      expect(json.body.media[0]).toMatchObject({ mediaStatus: 4, mediaType: 'voice', rejectReason: 'tooLong' });
    }
  });

  it('refuses an empty or broken sound as format', async () => {
    const me = await createAccount(app);
    // A WebM header with its sound cut off after the first bytes.
    const { json } = await createVoice(me, notes.webm.subarray(0, 300));
    expect(json).toMatchObject({ statusCode: -1, statusText: 'format' });
  });

  it('priced, stays locked for the receiver until unlocked: no key, no sound, no stand-in picture', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const { json } = await createVoice(creator, notes.webm, { price: 160 });
    const note = json.body[0];
    expect(note).toMatchObject({ mediaStatus: 3, mediaType: 'voice', mediaPrice: 160, mediaIsOwner: true, mediaUnlockHash: expect.any(String) });
    // The owner plays their own note with their key.
    const own = await get(`/media/${note.mediaHash}.m4a?k=${encodeURIComponent(note.mediaUnlockHash)}`);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('audio/mp4');
    expect(own.headers['cache-control']).toBe('private, max-age=3600');

    const sc = await connectSocket(server, creator);
    const sf = await connectSocket(server, fan);
    const sent = await say(sc, { receiverId: fan.id, text: '', mediaId: note.mediaId });
    expect(sent.media).toMatchObject({ mediaId: note.mediaId, mediaType: 'voice', mediaPrice: 160, mediaUnlocked: true });
    const received = (await sf.nextOf('chatMessage')).message;
    expect(received.media).toMatchObject({ mediaType: 'voice', mediaPrice: 160, mediaUnlocked: false, mediaUnlockHash: null });
    const seen = (await call('GET', `/api/media/${note.mediaId}`, fan)).json.body;
    expect(seen).toMatchObject({ mediaType: 'voice', mediaUnlockHash: null });
    expect(seen.mediaDuration).toBeCloseTo(3, 0);
    for (const query of ['', '?k=1.2.abcdefghijklmnopqrstuv', '?t=640']) {
      const locked = await get(`/media/${note.mediaHash}.m4a${query}`);
      expect(locked.statusCode, query).toBe(403);
      expect(locked.json()).toMatchObject({ statusCode: -1, statusText: 'media-locked' });
    }
    // The addresses open without a key have nothing behind them.
    for (const variant of ['blur', 'og']) expect((await get(`/media/${note.mediaHash}.m4a?t=${variant}`)).statusCode, variant).toBe(404);

    await fundWallet(app, fan.id, fanPriceCents(160, salt()));
    await app.fanstage.db.update(users).set({ nsfwAgreement: 1 }).where(eq(users.id, fan.id));
    const unlocked = await call('POST', '/api/media/unlock', fan, { id: note.mediaId, price: 160 });
    expect(unlocked.json.statusCode).toBe(2);
    const key = unlocked.json.body.mediaUnlockHash as string;
    expect(key).toEqual(expect.any(String));
    expect(await walletOf(app, fan.id)).toBe(0);
    expect(await earningsOf(app, creator.id)).toBe(160);
    const played = await get(`/media/${note.mediaHash}.m4a?k=${encodeURIComponent(key)}`);
    expect(played.statusCode).toBe(200);
    expect(played.headers['content-type']).toBe('audio/mp4');
    expect(played.rawPayload).toEqual(own.rawPayload);
    const [row] = await app.fanstage.db.select().from(media).where(eq(media.id, note.mediaId));
    expect(row).toMatchObject({ kind: 'chat', mediaType: 'voice', format: 'm4a', status: 3 });
    await expectLedgerBalanced(app);
  });
});
