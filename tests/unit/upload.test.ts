import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFile, checkMeasured, createFanstage, mediaKindOf, type Fanstage, type Measure, type SendBinary } from '../../lib/sdk';
import type { Account } from '../../lib/contract';
import { sendEnvelope, startApiServer, type ApiServer } from './support/api-server';
import { fakeToken, media } from './support/feed-fixtures';
import { profile } from './support/profiles';

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

let server: ApiServer;
let createAnswer: (body: { fileNames: string[]; price: number }) => unknown;

beforeAll(async () => {
  server = await startApiServer();
  server.on('/api/media', (req, res) => sendEnvelope(res, createAnswer(JSON.parse(req.body) as { fileNames: string[]; price: number }) as object));
  server.on('/api/media/binary', (_req, res) => sendEnvelope(res, { statusCode: 2, body: { fileName: 'up-1' } }));
});

afterAll(() => server.close());

function account(overrides: Partial<Account> = {}): Account {
  return {
    ...profile({ id: 5, username: 'me' }),
    email: 'me@example.com',
    emailVerified: true,
    phoneVerified: false,
    approvedState: 0,
    sexuality: null,
    birthday: null,
    appLanguage: 'en',
    nsfwAgreement: 1,
    notificationSound: 1,
    embedOrigins: [],
    ...overrides,
  };
}

function loggedIn(overrides: Partial<Account> = {}): Fanstage {
  const fanstage = createFanstage({ baseUrl: server.baseUrl });
  fanstage.session.adopt({ accessToken: fakeToken(5) });
  fanstage.session.setAccount(account(overrides));
  return fanstage;
}

/** Reports progress in steps, as XMLHttpRequest's upload events do. */
const steppedSend: SendBinary = async (_file, _name, onProgress) => {
  for (const percent of [10, 55, 100]) onProgress(percent);
  return { fileName: 'up-1' };
};

describe('the upload flow', () => {
  it('stops with the verify-email outcome when the e-mail is not verified', async () => {
    const upload = loggedIn({ emailVerified: false }).uploads.create();
    expect(await upload.start([file('image/png')], { measure: measures({ kind: 'image', width: 800, height: 800 }) })).toBe('verify-email');
    expect(upload.status.value).toBe('verify-email');
  });

  it('refuses a small picture before sending anything', async () => {
    const before = server.requests.length;
    const upload = loggedIn().uploads.create();
    expect(await upload.start([file('image/png')], { measure: measures({ kind: 'image', width: 300, height: 300 }) })).toBe('rejected');
    expect(upload.problem.value).toBe('lowRes');
    expect(server.requests.length).toBe(before);
  });

  it('sends the bytes with progress, then creates the media with the price and purpose', async () => {
    createAnswer = (body) => ({ statusCode: 2, body: [media({ mediaId: 9, mediaPrice: body.price })] });
    const upload = loggedIn().uploads.create();
    const progress: number[] = [];
    const status = await upload.start([file('image/png', 'a.png')], {
      price: 320,
      purpose: 'post',
      measure: measures({ kind: 'image', width: 800, height: 800 }),
      sendBinary: async (...args) => {
        const result = await steppedSend(...args);
        progress.push(upload.progress.value);
        return result;
      },
    });
    expect(status).toBe('done');
    expect(progress).toEqual([100]);
    expect(upload.media.value.map((m) => m.mediaId)).toEqual([9]);
    const created = server.requests.filter((r) => r.url === '/api/media').at(-1);
    expect(JSON.parse(created?.body ?? '{}')).toEqual({ fileNames: ['up-1'], price: 320, purpose: 'post', mediaType: 'image' });
    expect(created?.headers.authorization).toMatch(/^Bearer /);
  });

  it('sends the file through fetch when there is no XMLHttpRequest, keeping the token', async () => {
    createAnswer = () => ({ statusCode: 2, body: [media({ mediaId: 10 })] });
    const upload = loggedIn().uploads.create();
    expect(await upload.start([file('image/png', 'a.png')], { measure: measures({ kind: 'image', width: 800, height: 800 }) })).toBe('done');
    const binary = server.requests.filter((r) => r.url === '/api/media/binary').at(-1);
    expect(binary?.headers.authorization).toMatch(/^Bearer /);
    expect(binary?.headers['content-type']).toMatch(/^multipart\/form-data/);
    expect(upload.progress.value).toBe(100);
  });

  it('reports the server\'s refusal as the popup cause', async () => {
    createAnswer = () => ({ statusCode: -1, statusText: 'tooLong', body: { media: [media({ mediaStatus: 4, rejectReason: 'tooLong' })] } });
    const upload = loggedIn().uploads.create();
    expect(await upload.start([file('video/mp4', 'a.mp4')], { measure: measures({ kind: 'unplayable' }), sendBinary: steppedSend })).toBe('rejected');
    expect(upload.problem.value).toBe('tooLong');
    const created = server.requests.filter((r) => r.url === '/api/media').at(-1);
    expect(JSON.parse(created?.body ?? '{}')).toMatchObject({ unsupported: true, mediaType: 'video' });
  });
});
