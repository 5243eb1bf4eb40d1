import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { closeSockets, connectSocket } from '../support/sockets';
import { eq } from '../support/db';
import { fundWallet } from '../support/money';
import { parseRelease } from '../../server/src/features/release/domain';
import { media, postMedia, posts, users } from '../../server/src/db/schema';

let server: TestServer;
let webRoot: string;
const call = apiCaller(() => server.app);

beforeAll(async () => {
  webRoot = await mkdtemp(path.join(tmpdir(), 'fanstage-release-'));
  server = await startTestServer({ seed: false, webRoot });
});
afterAll(async () => {
  closeSockets();
  await server?.close();
  await rm(webRoot, { recursive: true, force: true });
});

async function lockedPost(creator: TestAccount, price = 320): Promise<{ postId: number; mediaId: number }> {
  const { db } = server.app.fanstage;
  const [post] = await db.insert(posts).values({ userId: creator.id, text: 'locked', publishedAt: new Date(Date.now() - 60_000) }).returning({ id: posts.id });
  const [row] = await db
    .insert(media)
    .values({ hash: randomBytes(16).toString('hex'), ownerId: creator.id, kind: 'post', format: 'webp', width: 800, height: 600, status: 3, price })
    .returning({ id: media.id });
  await db.insert(postMedia).values({ postId: post!.id, mediaId: row!.id, position: 0 });
  return { postId: post!.id, mediaId: row!.id };
}

describe('GET /release', () => {
  it('answers null while the server has no built site, then the id the build wrote, without caching', async () => {
    const before = await server.app.inject({ method: 'GET', url: `/release?${Date.now()}` });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ statusCode: 2, body: { release: null } });
    expect(before.headers['cache-control']).toBe('no-store');

    await mkdir(path.join(webRoot, 'web'), { recursive: true });
    await writeFile(path.join(webRoot, 'web', 'release.json'), JSON.stringify({ release: '0.1.0+abc' }));
    expect((await server.app.inject({ method: 'GET', url: `/release?${Date.now()}` })).json().body).toEqual({ release: '0.1.0+abc' });

    // A deploy replaces the file: the next question gets the new id, no restart needed.
    await writeFile(path.join(webRoot, 'web', 'release.json'), JSON.stringify({ release: '0.1.0+abcdef' }));
    expect((await server.app.inject({ method: 'GET', url: '/release' })).json().body).toEqual({ release: '0.1.0+abcdef' });
  });

  it('reads only a well-formed release id from the file', () => {
    expect(parseRelease(null)).toBeNull();
    expect(parseRelease('not json')).toBeNull();
    expect(parseRelease('{"release":42}')).toBeNull();
    expect(parseRelease('{"release":"<script>"}')).toBeNull();
    expect(parseRelease(JSON.stringify({ release: 'x'.repeat(101) }))).toBeNull();
    expect(parseRelease('{"release":" 1.2.3+k9 "}')).toBe('1.2.3+k9');
  });
});

describe('live updates over the socket', () => {
  it('a new post reaches the followers with the site open, and nobody else', async () => {
    const creator = await createAccount(server.app, { seller: true });
    const follower = await createAccount(server.app);
    const stranger = await createAccount(server.app);
    expect((await call('POST', '/api/users/follow', follower, { id: creator.id })).json.statusCode).toBeGreaterThan(0);
    const [sf, ss] = [await connectSocket(server, follower), await connectSocket(server, stranger)];
    const [ff, fs] = [sf.mark, ss.mark];

    const created = await call('POST', '/api/posts', creator, { text: 'fresh from the studio' });
    expect(created.json.statusCode).toBe(2);
    expect(await sf.nextOf('newPost', ff)).toEqual({ type: 'newPost', postId: created.json.body.id, userId: creator.id });
    await ss.sync();
    expect(ss.all('newPost', fs)).toEqual([]);
  });

  it('a post media unlocked in one tab opens in every tab of that fan, and only the fan gets the key', async () => {
    const creator = await createAccount(server.app, { seller: true });
    const fan = await createAccount(server.app);
    const stranger = await createAccount(server.app);
    await server.app.fanstage.db.update(users).set({ nsfwAgreement: 1 }).where(eq(users.id, fan.id));
    await fundWallet(server.app, fan.id, 10_000);
    const { mediaId } = await lockedPost(creator);

    const tabA = await connectSocket(server, fan);
    const tabB = await connectSocket(server, fan);
    const owner = await connectSocket(server, creator);
    const other = await connectSocket(server, stranger);
    const marks = [tabA.mark, tabB.mark, owner.mark, other.mark] as const;

    const unlocked = await call('POST', '/api/media/unlock', fan, { id: mediaId, price: 320 });
    expect(unlocked.json.statusCode).toBe(2);
    const key = unlocked.json.body.mediaUnlockHash as string;
    expect(key).toBeTruthy();

    const isUnlock = (m: { type: string; event?: string }) => m.type === 'eventMessage' && m.event === 'mediaUnlock';
    for (const [tab, from] of [
      [tabA, marks[0]],
      [tabB, marks[1]],
    ] as const) {
      expect(await tab.next(isUnlock, from)).toEqual({ type: 'eventMessage', event: 'mediaUnlock', userId: creator.id, data: { mediaId, mediaUnlockHash: key } });
    }
    await owner.sync();
    await other.sync();
    // The key opens the original for the fan alone: nobody else hears of it.
    expect(owner.received.slice(marks[2]).filter(isUnlock)).toEqual([]);
    expect(other.received.slice(marks[3]).filter(isUnlock)).toEqual([]);
  });
});

describe('who liked a post', () => {
  it('is the author’s to see: a stranger and a liker are refused', async () => {
    const creator = await createAccount(server.app, { seller: true });
    const fan = await createAccount(server.app);
    const stranger = await createAccount(server.app);
    const { json } = await call('POST', '/api/posts', creator, { text: 'like me' });
    const id = json.body.id as number;
    await call('POST', `/api/posts/${id}/likes`, fan);
    const list = await call('GET', `/api/posts/${id}/likes?limit=15`, creator);
    expect(list.json.body.map((u: { id: number }) => u.id)).toEqual([fan.id]);
    expect((await call('GET', `/api/posts/${id}/likes`, stranger)).json.statusText).toBe('forbidden');
    expect((await call('GET', `/api/posts/${id}/likes`, fan)).json.statusText).toBe('forbidden');
    expect((await call('GET', `/api/posts/${id}/likes`)).status).toBe(401);
  });
});
