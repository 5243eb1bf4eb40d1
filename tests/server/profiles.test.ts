import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller, type Answer } from '../support/inject';
import { eq } from '../support/db';
import { users } from '../../server/src/db/schema';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer();
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

// Answers are checked field by field, so their bodies are read loosely.

const call = apiCaller(() => app);

async function upload(account: TestAccount | undefined, data: Buffer, name: string, type: string, field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(data)], { type }), name);
  const response = await fetch(`${server.baseUrl}/api/users/me/avatar`, {
    method: 'POST',
    headers: account ? { authorization: `Bearer ${account.accessToken}` } : {},
    body: form,
  });
  return { status: response.status, json: (await response.json()) as Answer };
}

describe('profiles as a viewer sees them', () => {
  it('answers visitors the public profile and a logged-in viewer the relation too', async () => {
    const viewer = await createAccount(app);
    const visitor = await call('GET', '/papi/users/lucy.rivers');
    expect(visitor.json.statusCode).toBe(2);
    expect(visitor.json.body.isFollowed).toBeUndefined();

    const viewed = await call('GET', '/papi/users/lucy.rivers', viewer);
    expect(viewed.json.statusCode).toBe(2);
    expect(viewed.json.body).toMatchObject({ username: 'lucy.rivers', isFollowed: false, blockedStatus: 0, isMySubscriber: false, isHidden: false });

    const api = await call('GET', '/api/users/Lucy.Rivers', viewer);
    expect(api.json.body).toMatchObject({ username: 'lucy.rivers', isFollowed: false, blockedStatus: 0 });
    expect(api.json.body.email).toBeUndefined();
  });

  it('answers 401 on /api without a token, and on /papi with a broken one', async () => {
    expect((await call('GET', '/api/users/lucy.rivers')).status).toBe(401);
    const broken = await app.inject({ method: 'GET', url: '/papi/users/lucy.rivers', headers: { authorization: 'Bearer nonsense' } });
    expect(broken.statusCode).toBe(401);
  });

  it('shows each viewer their own relation, even right after another viewer read the same profile', async () => {
    const a = await createAccount(app);
    const b = await createAccount(app);
    const target = await createAccount(app);
    expect((await call('POST', '/api/users/follow', a, { id: target.id })).json.statusCode).toBe(1);
    expect((await call('GET', `/papi/users/${target.id}`, a)).json.body.isFollowed).toBe(true);
    expect((await call('GET', `/papi/users/${target.id}`, b)).json.body.isFollowed).toBe(false);
    expect((await call('GET', `/papi/users/${target.id}`)).json.body.followersCount).toBe(1);
  });

  it('hides the blocker from the blocked, and shows the blocker blockedStatus 1', async () => {
    const blocker = await createAccount(app);
    const blocked = await createAccount(app);
    await call('POST', '/api/users/block', blocker, { id: blocked.id });
    const seenByBlocker = await call('GET', `/api/users/${blocked.username}`, blocker);
    expect(seenByBlocker.json.body.blockedStatus).toBe(1);
    const seenByBlocked = await call('GET', `/api/users/${blocker.username}`, blocked);
    expect(seenByBlocked.status).toBe(404);
    expect(seenByBlocked.json).toEqual({ statusCode: -1, statusText: 'user-not-found' });
    expect((await call('GET', `/papi/users/${blocker.id}`, blocked)).json.statusText).toBe('user-not-found');
    // Visitors still see both.
    expect((await call('GET', `/papi/users/${blocker.id}`)).json.statusCode).toBe(2);
    // Blocking back: each is now a blocker and sees the other, so either can unblock.
    await call('POST', '/api/users/block', blocked, { id: blocker.id });
    expect((await call('GET', `/api/users/${blocker.id}`, blocked)).json.body.blockedStatus).toBe(1);
    await call('DELETE', '/api/users/block', blocker, { id: blocked.id });
    expect((await call('GET', `/api/users/${blocker.id}`, blocked)).json.body.blockedStatus).toBe(1);
    expect((await call('GET', `/api/users/${blocked.id}`, blocker)).json.statusText).toBe('user-not-found');
  });
});

describe('GET and PUT /api/users/me', () => {
  it('answers the own account with e-mail and embed origins', async () => {
    const me = await createAccount(app);
    const { json } = await call('GET', '/api/users/me', me);
    expect(json.statusCode).toBe(2);
    expect(json.body).toMatchObject({ id: me.id, username: me.username, email: me.email, emailVerified: true, embedOrigins: [], birthday: null });
  });

  it('edits the profile and the public profile shows it at once', async () => {
    // A seller: only approved creators list sites for their widgets (tests/server/trust.test.ts).
    const me = await createAccount(app, { seller: true });
    await call('GET', `/papi/users/${me.id}`);
    const username = `edited_${me.id}`;
    const { json } = await call('PUT', '/api/users/me', me, {
      displayName: ' Edited Name ',
      bio: 'Hello there',
      username,
      gender: 2,
      sexuality: 3,
      appLanguage: 'cs',
      birthday: '1990-05-17',
      nsfwAgreement: 1,
      notificationSound: 2,
      embedOrigins: ['https://Shop.Example/', 'https://shop.example', 'http://localhost:5173'],
    });
    expect(json.statusCode).toBe(2);
    expect(json.body).toMatchObject({
      displayName: 'Edited Name',
      bio: 'Hello there',
      username,
      gender: 2,
      sexuality: 3,
      appLanguage: 'cs',
      birthday: '1990-05-17',
      nsfwAgreement: 1,
      notificationSound: 2,
      embedOrigins: ['http://localhost:5173', 'https://shop.example'],
    });
    const visible = await call('GET', `/papi/users/${me.id}`);
    expect(visible.json.body).toMatchObject({ displayName: 'Edited Name', username, gender: 2 });
    expect((await call('GET', `/papi/users/${username.toUpperCase()}`)).json.body.id).toBe(me.id);
  });

  it('answers the SPEC codes for bad fields and changes nothing', async () => {
    const me = await createAccount(app);
    const other = await createAccount(app);
    const cases: [unknown, number, number, string][] = [
      [{ username: other.username.toUpperCase() }, 409, -1, 'username-taken'],
      [{ username: 'settings' }, 400, -1, 'invalid-username'],
      [{ username: 'bad name!' }, 400, -1, 'invalid-username'],
      [{ birthday: '2020-01-01', displayName: 'Not applied' }, 400, -1, 'must_be_18'],
      [{ birthday: '1990-02-30' }, 400, -1, 'invalid-request'],
      [{ birthday: 19900101 }, 400, -1, 'invalid-request'],
      [{ messagePrice: 16 }, 403, -2, 'verify-required'],
      [{ callPrice: 0 }, 403, -2, 'verify-required'],
      [{ appLanguage: 'de' }, 400, -1, 'invalid-request'],
      [{ gender: 3 }, 400, -1, 'invalid-request'],
      [{ displayName: 5 }, 400, -1, 'invalid-request'],
      [{ embedOrigins: ['http://shop.example'] }, 400, -1, 'invalid-request'],
      [{ embedOrigins: 'https://shop.example' }, 400, -1, 'invalid-request'],
      [{ isSeller: true }, 400, -1, 'invalid-request'],
      [{ newPassword: 'something long' }, 400, -1, 'invalid-request'],
    ];
    for (const [body, status, code, key] of cases) {
      const { status: got, json } = await call('PUT', '/api/users/me', me, body);
      expect([got, json.statusCode, json.statusText], JSON.stringify(body)).toEqual([status, code, key]);
    }
    const { json } = await call('GET', '/api/users/me', me);
    expect(json.body).toMatchObject({ username: me.username, displayName: me.username, birthday: null, isSeller: false, messagePrice: 0 });
  });

  it('lets a seller set prices from the SPEC §9 steps only', async () => {
    const seller = await createAccount(app, { seller: true });
    const set = await call('PUT', '/api/users/me', seller, { messagePrice: 24, callPrice: 955 });
    expect(set.json.body).toMatchObject({ messagePrice: 24, callPrice: 955 });
    const off = await call('PUT', '/api/users/me', seller, { messagePrice: 25 });
    expect([off.status, off.json.statusText]).toEqual([400, 'invalid-request']);
    expect(off.json.body.field).toBe('messagePrice');
  });

  it('changes the password with the current one only', async () => {
    const me = await createAccount(app);
    const wrong = await call('PUT', '/api/users/me', me, { currentPassword: 'not it', newPassword: 'a brand new password' });
    expect(wrong.json.statusCode).toBe(-1);
    expect(wrong.json.statusText).toBe('wrong-password');
    const right = await call('PUT', '/api/users/me', me, { currentPassword: me.password, newPassword: 'a brand new password' });
    expect(right.json.statusCode).toBe(2);
    const login = await call('POST', '/papi/login', undefined, { email: me.email, password: 'a brand new password' });
    expect(login.json.statusCode).toBe(2);
  });
});

describe('DELETE /api/users/me', () => {
  it('requires a reason', async () => {
    const me = await createAccount(app);
    const missing = await call('DELETE', '/api/users/me', me, {});
    expect([missing.status, missing.json.statusCode, missing.json.statusText]).toEqual([400, -1, 'invalid-request']);
    const wrong = await call('DELETE', '/api/users/me', me, { deleteReason: 9, password: me.password });
    expect(wrong.json.statusCode).toBe(-1);
  });

  it('deletes softly, ends sessions, leaves follows and blocks, and the profile is gone', async () => {
    const me = await createAccount(app);
    const followed = await createAccount(app);
    const follower = await createAccount(app);
    await call('POST', '/api/users/follow', me, { id: followed.id });
    await call('POST', '/api/users/follow', follower, { id: me.id });
    await call('POST', '/api/users/block', me, { id: follower.id });
    await call('POST', '/api/users/follow', follower, { id: followed.id });
    expect((await call('GET', `/papi/users/${followed.id}`)).json.body.followersCount).toBe(2);

    const { json } = await call('DELETE', '/api/users/me', me, { deleteReason: 2, text: 'Taking a break', password: me.password });
    expect(json).toEqual({ statusCode: 1 });
    expect((await call('GET', `/papi/users/${me.id}`)).json.statusText).toBe('user-not-found');
    expect((await call('GET', `/papi/users/${me.username}`)).status).toBe(404);
    expect((await call('GET', '/api/users/me', me)).status).toBe(401);
    expect((await call('GET', `/papi/users/${followed.id}`)).json.body.followersCount).toBe(1);
    const [row] = await app.fanstage.db.select().from(users).where(eq(users.id, me.id));
    expect(row?.deleteReason).toBe(2);
    expect(row?.deletedAt).toBeInstanceOf(Date);
  });
});

describe('POST /api/users/me/avatar', () => {
  // Left half red, right half blue, stored on its side: EXIF orientation 6 turns it upright,
  // so the upright picture is red on top and blue at the bottom.
  async function sidewaysPhoto(): Promise<Buffer> {
    const half = (r: number, b: number) => ({ create: { width: 300, height: 400, channels: 3 as const, background: { r, g: 0, b } } });
    return sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .composite([
        { input: await sharp(half(255, 0)).png().toBuffer(), left: 0, top: 0 },
        { input: await sharp(half(0, 255)).png().toBuffer(), left: 300, top: 0 },
      ])
      .jpeg()
      .withExif({ IFD0: { Copyright: 'Secret Camera Owner', Artist: 'Someone' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
  }

  it('stores an upright, square, metadata-free avatar served in 60, 120 and 500 px WebP', async () => {
    const me = await createAccount(app);
    const { status, json } = await upload(me, await sidewaysPhoto(), 'holiday.jpg', 'image/jpeg');
    expect(status).toBe(200);
    expect(json.statusCode).toBe(2);
    const avatar = json.body.avatarMedia;
    expect(avatar.format).toBe('webp');
    for (const size of [60, 120, 500]) {
      const response = await app.inject({ method: 'GET', url: `/media/${avatar.mediaHash}.webp?t=${size}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      const meta = await sharp(response.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', size, size]);
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
    }
    const full = await app.inject({ method: 'GET', url: `/media/${avatar.mediaHash}.webp` });
    const { data, info } = await sharp(full.rawPayload).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    const [topR, , topB] = pixel(250, 40);
    const [bottomR, , bottomB] = pixel(250, 460);
    expect(topR).toBeGreaterThan(200);
    expect(topB).toBeLessThan(60);
    expect(bottomB).toBeGreaterThan(200);
    expect(bottomR).toBeLessThan(60);
    expect((await call('GET', `/papi/users/${me.id}`)).json.body.avatarMedia).toEqual(avatar);
  });

  it('reads the type from the bytes: a PNG named .txt is taken, a text file named .jpg is not', async () => {
    const me = await createAccount(app);
    const png = await sharp({ create: { width: 200, height: 200, channels: 4, background: '#3366ff' } }).png().toBuffer();
    expect((await upload(me, png, 'notes.txt', 'text/plain')).json.statusCode).toBe(2);
    const text = Buffer.from('This is not a picture at all, just some words.\n'.repeat(20));
    const refused = await upload(me, text, 'photo.jpg', 'image/jpeg');
    expect([refused.status, refused.json.statusCode, refused.json.statusText]).toEqual([415, -1, 'wrong_media_type']);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><rect width="300" height="300"/></svg>');
    expect((await upload(me, svg, 'photo.jpg', 'image/jpeg')).json.statusText).toBe('wrong_media_type');
    const truncated = (await sidewaysPhoto()).subarray(0, 400);
    expect((await upload(me, truncated, 'photo.jpg', 'image/jpeg')).json.statusText).toBe('wrong_media_type');
  });

  it('refuses pictures too small, too many pixels, or too large files', async () => {
    const me = await createAccount(app);
    const tiny = await sharp({ create: { width: 100, height: 400, channels: 3, background: '#fff' } }).png().toBuffer();
    const small = await upload(me, tiny, 'tiny.png', 'image/png');
    expect([small.status, small.json.statusText]).toEqual([400, 'lowRes']);
    // 8000 × 6000 = 48 megapixels in a small file.
    const huge = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#fff' } }).png({ compressionLevel: 9 }).toBuffer();
    const tooMany = await upload(me, huge, 'huge.png', 'image/png');
    expect([tooMany.status, tooMany.json.statusText]).toEqual([413, 'payload-too-large']);
    const big = Buffer.alloc(11 * 1024 * 1024, 7);
    const tooLarge = await upload(me, big, 'big.jpg', 'image/jpeg');
    expect([tooLarge.status, tooLarge.json.statusText]).toEqual([413, 'payload-too-large']);
  });

  it('needs a login, a verified e-mail, a multipart body and the file field', async () => {
    const png = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#000' } }).png().toBuffer();
    expect((await upload(undefined, png, 'a.png', 'image/png')).status).toBe(401);
    const unverified = await createAccount(app, { verified: false });
    const notYet = await upload(unverified, png, 'a.png', 'image/png');
    expect([notYet.status, notYet.json.statusText]).toEqual([403, 'email-not-verified']);
    const me = await createAccount(app);
    expect((await upload(me, png, 'a.png', 'image/png', 'picture')).json.statusText).toBe('invalid-request');
    const json = await call('POST', '/api/users/me/avatar', me, { file: 'abc' });
    expect([json.status, json.json.statusText]).toEqual([415, 'unsupported-media-type']);
  });
});
