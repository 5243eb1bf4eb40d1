import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { and, eq } from '../support/db';
import { follows, users } from '../../server/src/db/schema';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { statusCode: number; statusText?: string; body?: any };

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, account?: TestAccount, payload?: unknown) {
  const response = await app.inject({
    method,
    url,
    headers: account ? { authorization: `Bearer ${account.accessToken}` } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, json: response.json() as Answer, headers: response.headers };
}

async function followersCount(id: number): Promise<number> {
  const [row] = await app.fanstage.db.select({ count: users.followersCount }).from(users).where(eq(users.id, id));
  return row!.count;
}

async function isFollowing(follower: number, followed: number): Promise<boolean> {
  const rows = await app.fanstage.db
    .select()
    .from(follows)
    .where(and(eq(follows.followerId, follower), eq(follows.followedId, followed)));
  return rows.length > 0;
}

describe('follow', () => {
  it('is idempotent and keeps the followers count right under repeated follow and unfollow', async () => {
    const fan = await createAccount(app);
    const creator = await createAccount(app, { seller: true });
    for (let i = 0; i < 3; i++) expect((await call('POST', '/api/users/follow', fan, { id: creator.id })).json).toEqual({ statusCode: 1 });
    expect(await followersCount(creator.id)).toBe(1);
    await Promise.all([1, 2, 3, 4].map(() => call('POST', '/api/users/follow', fan, { id: creator.id })));
    expect(await followersCount(creator.id)).toBe(1);
    for (let i = 0; i < 3; i++) expect((await call('DELETE', '/api/users/follow', fan, { id: creator.id })).json).toEqual({ statusCode: 1 });
    expect(await followersCount(creator.id)).toBe(0);
    const others = await Promise.all([1, 2, 3].map(() => createAccount(app)));
    await Promise.all(others.map((other) => call('POST', '/api/users/follow', other, { id: creator.id })));
    expect(await followersCount(creator.id)).toBe(3);
    expect((await call('GET', `/papi/users/${creator.id}`)).json.body.followersCount).toBe(3);
  });

  it('answers the SPEC codes whatever the client sends', async () => {
    const fan = await createAccount(app);
    const cases: [unknown, number, string][] = [
      [{ id: fan.id }, 400, 'cannot-target-self'],
      [{ id: 999_999 }, 404, 'user-not-found'],
      [{ id: String(fan.id + 1) }, 400, 'invalid-request'],
      [{ id: 0 }, 400, 'invalid-request'],
      [{ id: 1.5 }, 400, 'invalid-request'],
      [{}, 400, 'invalid-request'],
      [[1], 400, 'invalid-request'],
    ];
    for (const [body, status, key] of cases) {
      const { status: got, json } = await call('POST', '/api/users/follow', fan, body);
      expect([got, json.statusCode, json.statusText], JSON.stringify(body)).toEqual([status, -1, key]);
    }
    for (const path of ['/api/users/block', '/api/users/hide']) {
      expect((await call('POST', path, fan, { id: fan.id })).json.statusText).toBe('cannot-target-self');
    }
    expect((await call('POST', '/api/users/follow', undefined, { id: 1 })).status).toBe(401);
  });

  it('needs a verified e-mail', async () => {
    const unverified = await createAccount(app, { verified: false });
    const creator = await createAccount(app);
    const { status, json } = await call('POST', '/api/users/follow', unverified, { id: creator.id });
    expect([status, json.statusCode, json.statusText]).toEqual([403, -1, 'email-not-verified']);
    expect(await followersCount(creator.id)).toBe(0);
  });
});

describe('block', () => {
  it('ends following both ways with the counts adjusted, and a blocked pair cannot follow', async () => {
    const a = await createAccount(app);
    const b = await createAccount(app);
    await call('POST', '/api/users/follow', a, { id: b.id });
    await call('POST', '/api/users/follow', b, { id: a.id });
    expect([await followersCount(a.id), await followersCount(b.id)]).toEqual([1, 1]);
    expect((await call('POST', '/api/users/block', a, { id: b.id })).json).toEqual({ statusCode: 1 });
    expect((await call('POST', '/api/users/block', a, { id: b.id })).json).toEqual({ statusCode: 1 });
    expect([await followersCount(a.id), await followersCount(b.id)]).toEqual([0, 0]);
    expect([await isFollowing(a.id, b.id), await isFollowing(b.id, a.id)]).toEqual([false, false]);
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const { status, json } = await call('POST', '/api/users/follow', from, { id: to.id });
      expect([status, json.statusText]).toEqual([404, 'user-not-found']);
    }
    expect((await call('DELETE', '/api/users/block', a, { id: b.id })).json).toEqual({ statusCode: 1 });
    expect((await call('POST', '/api/users/follow', b, { id: a.id })).json.statusCode).toBe(1);
    expect(await followersCount(a.id)).toBe(1);
  });

  it('answers user-not-found for someone who does not exist', async () => {
    const a = await createAccount(app);
    expect((await call('POST', '/api/users/block', a, { id: 888_888 })).json.statusText).toBe('user-not-found');
  });
});

describe('hide', () => {
  it('marks the profile hidden for the viewer only', async () => {
    const a = await createAccount(app);
    const b = await createAccount(app);
    const c = await createAccount(app);
    expect((await call('POST', '/api/users/hide', a, { id: b.id })).json).toEqual({ statusCode: 1 });
    expect((await call('POST', '/api/users/hide', a, { id: b.id })).json).toEqual({ statusCode: 1 });
    expect((await call('GET', `/api/users/${b.id}`, a)).json.body.isHidden).toBe(true);
    expect((await call('GET', `/api/users/${b.id}`, c)).json.body.isHidden).toBe(false);
  });
});

describe('relations', () => {
  it('pages by 30, newest first, filters by q literally, and marks the viewer’s relation', async () => {
    const star = await createAccount(app);
    const fans: TestAccount[] = [];
    for (let i = 0; i < 33; i++) {
      const fan = await createAccount(app, { username: `rel_fan_${String(i).padStart(2, '0')}` });
      fans.push(fan);
      await call('POST', '/api/users/follow', fan, { id: star.id });
    }
    const first = await call('GET', `/papi/users/relations?relationType=2&userId=${star.id}`);
    expect(first.json.statusCode).toBe(2);
    expect(first.json.body).toHaveLength(30);
    expect(first.json.body[0].username).toBe('rel_fan_32');
    const second = await call('GET', `/papi/users/relations?relationType=2&userId=${star.id}&offset=30`);
    expect(second.json.body.map((p: { username: string }) => p.username)).toEqual(['rel_fan_02', 'rel_fan_01', 'rel_fan_00']);

    const q = await call('GET', `/papi/users/relations?relationType=2&userId=${star.id}&q=FAN_1`);
    expect(q.json.body.map((p: { username: string }) => p.username).sort()).toEqual([
      'rel_fan_10', 'rel_fan_11', 'rel_fan_12', 'rel_fan_13', 'rel_fan_14', 'rel_fan_15', 'rel_fan_16', 'rel_fan_17', 'rel_fan_18', 'rel_fan_19',
    ]);
    // `_` is a LIKE wildcard; searched for, it matches only an underscore.
    expect((await call('GET', `/papi/users/relations?relationType=2&userId=${star.id}&q=rel%5F`)).json.body).toHaveLength(30);
    expect((await call('GET', `/papi/users/relations?relationType=2&userId=${star.id}&q=relxfan`)).json.body).toEqual([]);
    expect((await call('GET', `/papi/users/relations?relationType=2&userId=${star.id}&q=%25`)).json.body).toEqual([]);

    // On /api the list carries the viewer's relation to each person.
    const viewer = fans[0]!;
    await call('POST', '/api/users/follow', viewer, { id: fans[5]!.id });
    const mine = await call('GET', `/api/users/relations?relationType=2&userId=${star.id}&q=rel_fan_0`, viewer);
    const five = mine.json.body.find((p: { id: number }) => p.id === fans[5]!.id);
    expect(five).toMatchObject({ isFollowed: true, blockedStatus: 0, isMySubscriber: false });
    const following = await call('GET', '/api/users/relations?relationType=1', viewer);
    expect(following.json.body.map((p: { id: number }) => p.id)).toEqual([fans[5]!.id, star.id]);
  });

  it('lets blocked people vanish from each other’s lists and keeps the blocked list private', async () => {
    const star = await createAccount(app);
    const blocker = await createAccount(app);
    const blocked = await createAccount(app);
    const bystander = await createAccount(app);
    for (const fan of [blocker, blocked, bystander]) await call('POST', '/api/users/follow', fan, { id: star.id });
    await call('POST', '/api/users/block', blocker, { id: blocked.id });

    const ids = async (viewer: TestAccount | undefined, url: string) => ((await call('GET', url, viewer)).json.body as { id: number }[]).map((p) => p.id).sort();
    const followers = `/papi/users/relations?relationType=2&userId=${star.id}`;
    expect(await ids(undefined, followers)).toEqual([blocker.id, blocked.id, bystander.id].sort());
    expect(await ids(blocker, followers)).toEqual([blocker.id, bystander.id].sort());
    expect(await ids(blocked, followers)).toEqual([blocked.id, bystander.id].sort());
    expect(await ids(blocked, `/api/users/relations?relationType=2&userId=${star.id}`)).toEqual([blocked.id, bystander.id].sort());
    // The blocker's own lists are gone for the blocked person altogether.
    const gone = await call('GET', `/api/users/relations?relationType=1&userId=${blocker.id}`, blocked);
    expect([gone.status, gone.json.statusText]).toEqual([404, 'user-not-found']);

    const blockedList = await call('GET', '/api/users/relations?relationType=-1', blocker);
    expect(blockedList.json.body.map((p: { id: number }) => p.id)).toEqual([blocked.id]);
    expect(blockedList.json.body[0].blockedStatus).toBe(1);
    const someoneElses = await call('GET', `/api/users/relations?relationType=-1&userId=${blocker.id}`, bystander);
    expect([someoneElses.status, someoneElses.json.statusText]).toEqual([403, 'forbidden']);
    const publicBlocked = await call('GET', `/papi/users/relations?relationType=-1&userId=${blocker.id}`, blocker);
    expect([publicBlocked.status, publicBlocked.json.statusText]).toEqual([403, 'forbidden']);
  });

  it('accepts only the relation types 1, 2 and -1, and a user id on /papi', async () => {
    const me = await createAccount(app);
    for (const type of ['0', '3', '-2', 'x', '']) {
      const { status, json } = await call('GET', `/api/users/relations?relationType=${type}`, me);
      expect([status, json.statusCode, json.statusText], type).toEqual([400, -1, 'invalid-request']);
    }
    expect((await call('GET', '/api/users/relations', me)).status).toBe(400);
    expect((await call('GET', '/api/users/relations?relationType=1&offset=-1', me)).status).toBe(400);
    expect((await call('GET', '/api/users/relations?relationType=1')).status).toBe(401);
    const noUser = await call('GET', '/papi/users/relations?relationType=1');
    expect([noUser.status, noUser.json.body?.field]).toEqual([400, 'userId']);
    expect((await call('GET', '/papi/users/relations?relationType=1&userId=777777')).json.statusText).toBe('user-not-found');
  });
});

describe('POST /papi/users/cookie', () => {
  it('sets each SPEC §7 cookie with its SPEC §9 lifetime, readable by the site', async () => {
    const expected: Record<string, number> = { genderfilter: 30, pushdis: 14, smstip: 7, robin: 31, affcode: 31, cookielang: 730, preference: 730 };
    for (const [name, days] of Object.entries(expected)) {
      const { json, headers } = await call('POST', '/papi/users/cookie', undefined, { name, value: '2' });
      expect(json).toEqual({ statusCode: 1 });
      expect(headers['set-cookie']).toBe(`${name}=2; Max-Age=${days * 86_400}; Path=/; SameSite=Lax`);
    }
    const shorter = await call('POST', '/papi/users/cookie', undefined, { name: 'robin', value: 'a1', expires: 3 });
    expect(shorter.headers['set-cookie']).toBe(`robin=a1; Max-Age=${3 * 86_400}; Path=/; SameSite=Lax`);
    const capped = await call('POST', '/papi/users/cookie', undefined, { name: 'pushdis', value: '1', expires: 365 });
    expect(capped.headers['set-cookie']).toContain(`Max-Age=${14 * 86_400};`);
  });

  it('stores the age-and-terms consent as accept_18 with the terms stamp', async () => {
    const { json, headers } = await call('POST', '/papi/users/cookie', undefined, { name: 'accept', value: '20240307' });
    expect(json).toEqual({ statusCode: 1 });
    // A first consent also marks the browser as having no session (docs/auth.md).
    expect(headers['set-cookie']).toEqual([`accept_18=20240307; Max-Age=${365 * 86_400}; Path=/; SameSite=Lax`, `fs_session=0; Max-Age=${365 * 86_400}; Path=/; SameSite=Lax`]);
    // A browser that agreed before, or has a marker, keeps what it has.
    for (const cookie of ['accept_18=20200101', 'fs_session=1', 'fs_session=0']) {
      const again = await app.inject({ method: 'POST', url: '/papi/users/cookie', headers: { cookie }, payload: { name: 'accept', value: '20240307' } });
      expect(again.headers['set-cookie'], cookie).toBe(`accept_18=20240307; Max-Age=${365 * 86_400}; Path=/; SameSite=Lax`);
    }
    const old = await call('POST', '/papi/users/cookie', undefined, { name: 'accept', value: '20200101' });
    expect([old.status, old.json.statusText, old.headers['set-cookie']]).toEqual([400, 'invalid-request', undefined]);
  });

  it('refuses other names, values and types', async () => {
    const cases: unknown[] = [
      { name: 'session', value: '1' },
      { name: 'accept_18', value: '20240307' },
      { name: 'robin', value: 1 },
      { name: 'robin', value: 'x', expires: '3' },
      { name: 'robin', value: 'x', expires: -1 },
      { name: 'robin', value: 'a; Domain=evil.example' },
      { value: '1' },
    ];
    for (const body of cases) {
      const { status, json, headers } = await call('POST', '/papi/users/cookie', undefined, body);
      expect([status, json.statusCode, json.statusText, headers['set-cookie']], JSON.stringify(body)).toEqual([400, -1, 'invalid-request', undefined]);
    }
  });
});
