import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { and, eq } from '../support/db';
import { notifications, profileVisits } from '../../server/src/db/schema';
import { recordNotification, recordProfileVisit } from '../../server/src/features/notifications/service';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

const call = apiCaller(() => app);

interface Seen {
  id: number;
  type: string;
  count: number;
  unread: boolean;
  postId: number | null;
  commentId: number | null;
  createdDate: number;
  fromUser: { id: number; username: string } | null;
}

async function page(account: TestAccount, query = ''): Promise<{ notifications: Seen[]; unreadCount: number }> {
  const { json } = await call('GET', `/api/2/notifications${query}`, account);
  expect(json.statusCode, JSON.stringify(json)).toBe(2);
  return json.body;
}

async function newPost(author: TestAccount, extra: Record<string, unknown> = {}): Promise<number> {
  const { json } = await call('POST', '/api/posts', author, { text: 'news', ...extra });
  return json.body.id;
}

describe('notifications of the social graph', () => {
  it('tell of a new follower, with their profile, as unread until read', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    await call('POST', '/api/users/follow', fan, { id: creator.id });
    await call('POST', '/api/users/follow', fan, { id: creator.id });
    const first = await page(creator);
    expect(first.notifications).toHaveLength(1);
    expect(first.notifications[0]).toMatchObject({ type: 'follow', count: 1, unread: true, postId: null, fromUser: { id: fan.id, username: fan.username } });
    expect(first.unreadCount).toBe(1);
    expect((await call('GET', '/api/count/', creator)).json).toEqual({ statusCode: 2, body: { notifications: 1, chats: 0, reactions: 0 } });

    expect((await call('POST', '/api/2/notifications/read', creator)).json).toEqual({ statusCode: 1 });
    const read = await page(creator);
    expect([read.notifications[0]!.unread, read.unreadCount]).toEqual([false, 0]);
    expect((await call('GET', '/api/count/', creator)).json.body.notifications).toBe(0);
    expect((await page(fan)).notifications).toEqual([]);
    expect((await call('GET', '/api/2/notifications')).status).toBe(401);
  });

  it('tell of profile visits once per visitor and day, never of one’s own', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    for (let i = 0; i < 3; i++) await recordProfileVisit(app.fanstage.db, fan.id, creator.id);
    await recordProfileVisit(app.fanstage.db, creator.id, creator.id);
    const visits = await page(creator, '?types=profileVisit');
    expect(visits.notifications.map((n) => [n.type, n.fromUser?.id])).toEqual([['profileVisit', fan.id]]);
    const rows = await app.fanstage.db.select().from(profileVisits).where(eq(profileVisits.profileId, creator.id));
    expect(rows.map((r) => r.visitorId)).toEqual([fan.id]);
    expect((await page(fan)).notifications).toEqual([]);
  });

  it('do not count reading a profile as a visit: a chat or a follow button reads it too', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    // The creator opens the chat with the fan: her page reads his profile, his hers.
    expect((await call('GET', `/api/users/${fan.username}`, creator)).json.statusCode).toBe(2);
    expect((await call('GET', `/api/users/${creator.username}`, fan)).json.statusCode).toBe(2);
    expect((await page(fan, '?types=profileVisit')).notifications).toEqual([]);
    expect((await page(creator, '?types=profileVisit')).notifications).toEqual([]);
  });

  it('hide notifications from people in a block either way, and show them again after unblocking', async () => {
    const creator = await createAccount(app, { seller: true });
    const [a, b] = [await createAccount(app), await createAccount(app)];
    await call('POST', '/api/users/follow', a, { id: creator.id });
    await call('POST', '/api/users/follow', b, { id: creator.id });
    expect((await page(creator)).unreadCount).toBe(2);
    await call('POST', '/api/users/block', creator, { id: a.id });
    await call('POST', '/api/users/block', b, { id: creator.id });
    const hidden = await page(creator);
    expect([hidden.notifications.length, hidden.unreadCount]).toEqual([0, 0]);
    await call('DELETE', '/api/users/block', creator, { id: a.id });
    expect((await page(creator)).notifications.map((n) => n.fromUser?.id)).toEqual([a.id]);
    // Nothing new is recorded across a block.
    await recordNotification(app.fanstage.db, { userId: creator.id, type: 'profileVisit', fromUserId: b.id });
    const [row] = await app.fanstage.db.select().from(notifications).where(and(eq(notifications.userId, creator.id), eq(notifications.type, 'profileVisit')));
    expect(row).toBeUndefined();
  });
});

describe('notifications of posts', () => {
  it('merge likes of one post within an hour into one row naming the latest liker', async () => {
    const creator = await createAccount(app, { seller: true });
    const fans = [await createAccount(app), await createAccount(app), await createAccount(app)];
    const postId = await newPost(creator);
    const other = await newPost(creator);
    await call('POST', `/api/posts/${postId}/likes`, fans[0]);
    await call('POST', `/api/posts/${postId}/likes`, fans[1]);
    await call('POST', `/api/posts/${other}/likes`, fans[2]);
    // Liking one's own post notifies nobody.
    await call('POST', `/api/posts/${postId}/likes`, creator);
    let likes = (await page(creator, '?types=postLike')).notifications;
    expect(likes.map((n) => [n.postId, n.count, n.fromUser?.id])).toEqual([
      [other, 1, fans[2]!.id],
      [postId, 2, fans[1]!.id],
    ]);

    // An hour later the next like starts a new row.
    await app.fanstage.db
      .update(notifications)
      .set({ updatedAt: new Date(Date.now() - 61 * 60_000) })
      .where(and(eq(notifications.userId, creator.id), eq(notifications.postId, postId)));
    await call('POST', `/api/posts/${postId}/likes`, fans[2]);
    likes = (await page(creator, '?types=postLike')).notifications;
    expect(likes.map((n) => [n.postId, n.count])).toEqual([
      [postId, 1],
      [other, 1],
      [postId, 2],
    ]);
  });

  it('merge missed calls from one caller within an hour', async () => {
    const creator = await createAccount(app, { seller: true });
    const [a, b] = [await createAccount(app), await createAccount(app)];
    const { db } = app.fanstage;
    for (const from of [a, a, b, a]) await recordNotification(db, { userId: creator.id, type: 'missedCall', fromUserId: from.id });
    const calls = (await page(creator, '?types=missedCall')).notifications;
    expect(calls.map((n) => [n.fromUser?.id, n.count])).toEqual([
      [a.id, 3],
      [b.id, 1],
    ]);
    await recordNotification(db, { userId: creator.id, type: 'missedCall', fromUserId: creator.id });
    expect((await page(creator, '?types=missedCall')).notifications).toHaveLength(2);
  });

  it('tell the post’s owner of comments and the one replied to of replies, never oneself', async () => {
    const creator = await createAccount(app, { seller: true });
    const [a, b] = [await createAccount(app), await createAccount(app)];
    const postId = await newPost(creator);
    const top = (await call('POST', '/api/posts/comments', a, { postId, text: 'hi' })).json.body;
    const reply = (await call('POST', '/api/posts/comments', b, { postId, text: 'hello', parentId: top.id })).json.body;
    // The owner replying notifies the one replied to only.
    await call('POST', '/api/posts/comments', creator, { postId, text: 'welcome', parentId: reply.id });
    await call('POST', '/api/posts/comments', creator, { postId, text: 'my own' });
    await call('POST', `/api/posts/comments/${top.id}/like`, b);
    await call('POST', `/api/posts/comments/${top.id}/like`, a);

    const owner = (await page(creator, '?types=postComment,postCommentReply')).notifications;
    expect(owner.map((n) => [n.type, n.fromUser?.id, n.commentId])).toEqual([
      ['postComment', b.id, reply.id],
      ['postComment', a.id, top.id],
    ]);
    expect((await page(a)).notifications.map((n) => [n.type, n.fromUser?.id])).toEqual([
      ['postCommentLike', b.id],
      ['postCommentReply', b.id],
    ]);
    expect((await page(b)).notifications.map((n) => [n.type, n.fromUser?.id])).toEqual([['postCommentReply', creator.id]]);
  });

  it('tell followers of a new post, and of a scheduled one only once it starts', async () => {
    const creator = await createAccount(app, { seller: true });
    const follower = await createAccount(app);
    const stranger = await createAccount(app);
    await call('POST', '/api/users/follow', follower, { id: creator.id });
    const now = await newPost(creator);
    const later = await newPost(creator, { startDate: Date.now() + 3_600_000 });
    const seen = (await page(follower)).notifications;
    expect(seen.map((n) => [n.type, n.postId, n.fromUser?.id])).toEqual([['timeline', now, creator.id]]);
    expect((await page(stranger)).notifications).toEqual([]);
    await app.fanstage.db
      .update(notifications)
      .set({ updatedAt: new Date() })
      .where(eq(notifications.postId, later));
    expect((await page(follower)).notifications.map((n) => n.postId)).toEqual([later, now]);
  });
});

describe('the notifications list', () => {
  it('pages by 30 newest first and filters by type', async () => {
    const user = await createAccount(app);
    const { db } = app.fanstage;
    for (let i = 0; i < 33; i++) {
      await recordNotification(db, { userId: user.id, type: i % 3 === 0 ? 'verificationApproved' : 'partnerApproved' });
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const first = await page(user);
    expect(first.notifications).toHaveLength(30);
    expect(first.unreadCount).toBe(33);
    expect(first.notifications[0]!.fromUser).toBeNull();
    const times = first.notifications.map((n) => n.createdDate);
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const second = await page(user, '?offset=30');
    expect(second.notifications).toHaveLength(3);
    const ids = new Set([...first.notifications, ...second.notifications].map((n) => n.id));
    expect(ids.size).toBe(33);
    expect((await page(user, '?types=verificationApproved')).notifications).toHaveLength(11);
    expect((await page(user, '?types=verificationApproved,%20partnerApproved&limit=5')).notifications).toHaveLength(5);
    const bad = await call('GET', '/api/2/notifications?types=follow,nonsense', user);
    expect([bad.status, bad.json.statusText, bad.json.body.value]).toEqual([400, 'invalid-request', 'nonsense']);
    expect((await call('GET', '/api/2/notifications?limit=51', user)).json.statusText).toBe('invalid-request');
  });

  it('reads a page off its index: the unread count stops at 100, a tab merges its types in order, and the page after a served one starts where it ended', async () => {
    const user = await createAccount(app);
    const other = await createAccount(app);
    const { db } = app.fanstage;
    const types = ['follow', 'postGift', 'chatGift'] as const;
    const start = Date.now() - 60 * 60_000;
    // 130 notifications a second apart, the oldest a platform one of a type seen nowhere else.
    await db.insert(notifications).values([
      { userId: user.id, type: 'verificationApproved', fromUserId: null, createdAt: new Date(start), updatedAt: new Date(start) },
      ...Array.from({ length: 129 }, (_, i) => {
        const at = new Date(start + (i + 1) * 1000);
        return { userId: user.id, type: types[i % 3]!, fromUserId: other.id, createdAt: at, updatedAt: at };
      }),
    ]);
    const stored = await db.select({ id: notifications.id, type: notifications.type }).from(notifications).where(eq(notifications.userId, user.id));
    const newestFirst = stored.sort((a, b) => b.id - a.id);

    const first = await page(user);
    expect(first.unreadCount).toBe(100);
    expect(first.notifications.map((n) => n.id)).toEqual(newestFirst.slice(0, 30).map((n) => n.id));
    expect((await page(user, '?types=verificationApproved')).notifications.map((n) => n.id)).toEqual([newestFirst.at(-1)!.id]);

    // A tab of two types: its pages are the list of those types, newest first, each row once.
    const tab = newestFirst.filter((n) => n.type === 'follow' || n.type === 'chatGift').map((n) => n.id);
    const pages = [];
    for (const offset of [0, 30, 60, 90]) pages.push(...(await page(user, `?types=follow,chatGift&offset=${offset}`)).notifications.map((n) => n.id));
    expect(pages).toEqual(tab);

    // Something new arrives between two pages: the second still follows the first.
    await recordNotification(db, { userId: user.id, type: 'follow', fromUserId: other.id });
    const second = await page(user, '?offset=30');
    expect(second.notifications.map((n) => n.id)).toEqual(newestFirst.slice(30, 60).map((n) => n.id));
    // An offset no page of this node ended at is counted from the top, as it always was.
    expect((await page(user, '?offset=31&limit=2')).notifications.map((n) => n.id)).toEqual(newestFirst.slice(30, 32).map((n) => n.id));

    await call('POST', '/api/2/notifications/read', user);
    await recordNotification(db, { userId: user.id, type: 'follow', fromUserId: other.id });
    expect((await page(user)).unreadCount).toBe(1);
  });
});
