import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { closeSockets, connectSocket } from '../support/sockets';
import { eq } from '../support/db';
import { ErrorKeys } from '../../lib/contract/errors';
import { abuseReports, comments, moderationLog, refreshTokens, users } from '../../server/src/db/schema';
import { throttles } from '../../server/src/http/throttle';
import { block, post, word } from './support-feeds';
import { say } from './support-chat';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  closeSockets();
  await server?.close();
});

const rawCall = apiCaller(() => app);
/** Every answer is an envelope; a failure names a key of the catalogue and is never a 500. */
async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, account?: TestAccount, payload?: unknown) {
  const answer = await rawCall(method, url, account, payload);
  expect(answer.status).toBeLessThan(500);
  if (answer.json.statusCode < 0) expect(ErrorKeys).toContain(answer.json.statusText);
  return answer;
}

const report = (account: TestAccount | undefined, payload: unknown) => call('POST', '/api/abuse', account, payload);

async function comment(author: TestAccount, postId: number, text = 'a comment'): Promise<number> {
  const answer = await call('POST', '/api/posts/comments', author, { postId, text });
  expect(answer.json.statusCode).toBe(2);
  return answer.json.body.id as number;
}

/** A chat message from `from` to `to`, sent over a real socket as the site sends it. */
async function message(from: TestAccount, to: TestAccount, text: string): Promise<number> {
  const socket = await connectSocket(server, from);
  const sent = await say(socket, { receiverId: to.id, text });
  socket.close();
  return sent.id;
}

async function queue(admin: TestAccount) {
  const answer = await call('GET', '/api/admin/abuse?limit=100', admin);
  expect(answer.json.statusCode).toBe(2);
  return answer.json.body as { id: number; type: string; targetId: number; reason: string; text: string | null; reporter: { id: number }; author: { id: number; banned: boolean }; present: boolean; snapshot: Record<string, unknown> }[];
}

async function notificationTypes(account: TestAccount): Promise<string[]> {
  const answer = await call('GET', '/api/2/notifications', account);
  expect(answer.json.statusCode).toBe(2);
  return (answer.json.body.notifications as { type: string }[]).map((n) => n.type);
}

async function statusOf(reportId: number) {
  const [row] = await app.fanstage.db.select().from(abuseReports).where(eq(abuseReports.id, reportId));
  return row!;
}

describe('POST /api/abuse', () => {
  it('stores a report of someone else’s post with a snapshot of the post', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const { id, mediaIds } = await post(app, creator.id, { text: 'look at this', media: 2 });
    // The form shows what is about to be reported.
    const preview = await call('GET', `/api/abuse/target?type=post&id=${id}`, fan);
    expect(preview.json).toEqual({ statusCode: 2, body: { type: 'post', id, text: 'look at this', author: { id: creator.id, username: creator.username, displayName: expect.any(String) }, mediaCount: 2 } });
    const answer = await report(fan, { type: 'post', id, reason: 'spam', text: '  selling fake followers \u0007 ' });
    expect(answer.json.statusCode).toBe(2);
    const stored = await statusOf(answer.json.body.id as number);
    expect(stored).toMatchObject({ reporterId: fan.id, targetType: 'post', targetId: id, targetUserId: creator.id, reason: 'spam', text: 'selling fake followers', status: 'open' });
    expect(stored.snapshot).toEqual({ text: 'look at this', authorId: creator.id, authorUsername: creator.username, mediaIds });
  });

  it('refuses a visitor, bad input and one’s own things with clear envelope errors', async () => {
    const creator = await createAccount(app, { seller: true });
    const { id } = await post(app, creator.id, { text: 'mine' });
    expect((await report(undefined, { type: 'post', id, reason: 'spam' })).status).toBe(401);
    for (const payload of [
      { type: 'photo', id, reason: 'spam' },
      { type: 'post', id, reason: 'boring' },
      { type: 'post', id: 0, reason: 'spam' },
      { type: 'post', id: 2_147_483_648, reason: 'spam' },
      { type: 'post', reason: 'spam' },
      { type: 'post', id, reason: 'other', text: 'x'.repeat(1001) },
      { type: 'post', id, reason: 'other', extra: true },
    ]) {
      const answer = await report(creator, payload);
      expect(answer.status, JSON.stringify(payload)).toBe(400);
      expect(answer.json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    }
    expect((await report(creator, { type: 'post', id, reason: 'spam' })).json).toEqual({ statusCode: -1, statusText: 'cannot-target-self' });
    expect((await report(creator, { type: 'user', id: creator.id, reason: 'spam' })).json.statusText).toBe('cannot-target-self');
    const own = await comment(creator, id);
    expect((await report(creator, { type: 'comment', id: own, reason: 'spam' })).json.statusText).toBe('cannot-target-self');
  });

  it('answers not-found for what the reporter cannot see', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const blockedFan = await createAccount(app);
    const { id } = await post(app, creator.id, { text: 'hello' });
    const gone = await post(app, creator.id, { text: 'gone', deletedAt: new Date() });
    const later = await post(app, creator.id, { text: 'later', publishedAt: new Date(Date.now() + 86_400_000) });
    const commentId = await comment(fan, id);
    await block(app, creator.id, blockedFan.id);
    expect((await report(fan, { type: 'post', id: 2_000_000_000, reason: 'spam' })).json.statusText).toBe('post-doesnt-exists');
    expect((await report(fan, { type: 'post', id: gone.id, reason: 'spam' })).json.statusText).toBe('post-doesnt-exists');
    expect((await report(fan, { type: 'post', id: later.id, reason: 'spam' })).json.statusText).toBe('post-doesnt-exists');
    expect((await report(blockedFan, { type: 'post', id, reason: 'spam' })).json.statusText).toBe('post-doesnt-exists');
    // A comment under a post hidden from the reporter by a block is not there for them either.
    expect((await report(blockedFan, { type: 'comment', id: commentId, reason: 'spam' })).json.statusText).toBe('comment-not-found');
    expect((await report(creator, { type: 'comment', id: 2_000_000_000, reason: 'spam' })).json.statusText).toBe('comment-not-found');
    expect((await report(fan, { type: 'user', id: 2_000_000_000, reason: 'spam' })).json.statusText).toBe('user-not-found');
  });

  it('takes a chat message only from a party of its conversation, and not the sender’s own', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const stranger = await createAccount(app);
    const id = await message(creator, fan, `rude ${word()}`);
    expect((await report(stranger, { type: 'message', id, reason: 'harassment' })).json).toEqual({ statusCode: -1, statusText: 'message-not-found' });
    expect((await call('GET', `/api/abuse/target?type=message&id=${id}`, stranger)).json.statusText).toBe('message-not-found');
    expect((await call('GET', `/api/abuse/target?type=message&id=${id}`, creator)).json.statusText).toBe('cannot-target-self');
    expect((await call('GET', `/api/abuse/target?type=message&id=${id}`)).status).toBe(401);
    expect((await call('GET', `/api/abuse/target?type=message&id=${id}`, fan)).json.body).toMatchObject({ type: 'message', author: { id: creator.id } });
    expect((await report(creator, { type: 'message', id, reason: 'harassment' })).json.statusText).toBe('cannot-target-self');
    const answer = await report(fan, { type: 'message', id, reason: 'harassment' });
    expect(answer.json.statusCode).toBe(2);
    const stored = await statusOf(answer.json.body.id as number);
    expect(stored.targetUserId).toBe(creator.id);
    expect(stored.snapshot).toMatchObject({ authorId: creator.id, receiverId: fan.id, mediaIds: [] });
  });

  it('keeps one open report per reporter and thing, and takes another once it is closed', async () => {
    const admin = await createAccount(app, { level: 500 });
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const first = await report(fan, { type: 'user', id: creator.id, reason: 'impersonation' });
    expect(first.json.statusCode).toBe(2);
    const again = await report(fan, { type: 'user', id: creator.id, reason: 'spam' });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ statusCode: -1, statusText: 'already-reported' });
    // Someone else's report of the same profile is theirs.
    expect((await report(await createAccount(app), { type: 'user', id: creator.id, reason: 'spam' })).json.statusCode).toBe(2);
    expect((await call('POST', `/api/admin/abuse/${first.json.body.id}/dismiss`, admin)).json.statusCode).toBe(2);
    expect((await report(fan, { type: 'user', id: creator.id, reason: 'spam' })).json.statusCode).toBe(2);
  });

  it(`answers too-many-requests after ${throttles['abuse-reporter'].limit} reports within the hour`, async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const { limit, windowMs } = throttles['abuse-reporter'];
    const ids: number[] = [];
    for (let i = 0; i <= limit; i++) ids.push((await post(app, creator.id, { text: `post ${i}` })).id);
    for (const id of ids.slice(0, limit)) expect((await report(fan, { type: 'post', id, reason: 'spam' })).json.statusCode).toBe(2);
    const refused = await report(fan, { type: 'post', id: ids[limit]!, reason: 'spam' });
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ statusCode: -1, statusText: 'too-many-requests' });
    app.fanstage.clock.advance(windowMs + 1);
    expect((await report(fan, { type: 'post', id: ids[limit]!, reason: 'spam' })).json.statusCode).toBe(2);
  });
});

describe('the administrators’ queue', () => {
  it('is refused to visitors, fans, creators and support', async () => {
    const fan = await createAccount(app);
    const creator = await createAccount(app, { seller: true });
    const support = await createAccount(app, { level: 100 });
    const target = await post(app, creator.id, { text: 'x' });
    const filed = await report(fan, { type: 'post', id: target.id, reason: 'spam' });
    const reportId = filed.json.body.id as number;
    expect((await call('GET', '/api/admin/abuse')).status).toBe(401);
    for (const who of [fan, creator, support]) {
      const list = await call('GET', '/api/admin/abuse', who);
      expect(list.status).toBe(403);
      expect(list.json).toEqual({ statusCode: -1, statusText: 'forbidden' });
      for (const action of ['hide-post', 'delete-comment', 'delete-message', 'ban', 'dismiss']) {
        expect((await call('POST', `/api/admin/abuse/${reportId}/${action}`, who)).json).toEqual({ statusCode: -1, statusText: 'forbidden' });
      }
    }
    expect((await call('POST', `/api/admin/abuse/${reportId}/hide-post`)).status).toBe(401);
    // Nothing happened to the post or the report.
    expect((await call('GET', `/papi/posts/${target.id}`)).json.statusCode).toBe(2);
    expect((await statusOf(reportId)).status).toBe('open');
  });

  it('lists open reports newest first with the thing, reporter, author, reason and text', async () => {
    const admin = await createAccount(app, { level: 500 });
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const { id } = await post(app, creator.id, { text: 'first' });
    const older = (await report(fan, { type: 'post', id, reason: 'copyright', text: 'my photo' })).json.body.id as number;
    const newer = (await report(fan, { type: 'user', id: creator.id, reason: 'impersonation' })).json.body.id as number;
    const list = await queue(admin);
    const mine = list.filter((r) => r.id === older || r.id === newer);
    expect(mine.map((r) => r.id)).toEqual([newer, older]);
    expect(mine[1]).toMatchObject({ type: 'post', targetId: id, reason: 'copyright', text: 'my photo', reporter: { id: fan.id }, author: { id: creator.id, banned: false }, present: true, snapshot: { text: 'first' } });
    expect(list.findIndex((r) => r.id === newer)).toBeLessThan(list.findIndex((r) => r.id === older));
  });

  it('refuses an action that does not fit the report, and a closed or unknown report', async () => {
    const admin = await createAccount(app, { level: 500 });
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const { id } = await post(app, creator.id, { text: 'x' });
    const reportId = (await report(fan, { type: 'post', id, reason: 'spam' })).json.body.id as number;
    for (const action of ['delete-comment', 'delete-message']) {
      const answer = await call('POST', `/api/admin/abuse/${reportId}/${action}`, admin);
      expect(answer.status).toBe(409);
      expect(answer.json).toEqual({ statusCode: -1, statusText: 'moderation-not-applicable' });
    }
    expect((await call('POST', `/api/admin/abuse/${reportId}/erase`, admin)).json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    expect((await call('POST', `/api/admin/abuse/${reportId}/dismiss`, admin)).json.body).toEqual({ action: 'dismiss', closedReports: [reportId] });
    expect((await call('POST', `/api/admin/abuse/${reportId}/hide-post`, admin)).json).toEqual({ statusCode: -1, statusText: 'report-not-found' });
    expect((await call('POST', '/api/admin/abuse/2000000000/dismiss', admin)).json.statusText).toBe('report-not-found');
    // Dismissing left the post where it was.
    expect((await call('GET', `/papi/posts/${id}`)).json.statusCode).toBe(2);
    const [logged] = await app.fanstage.db.select().from(moderationLog).where(eq(moderationLog.reportId, reportId));
    expect(logged).toMatchObject({ adminId: admin.id, action: 'dismiss', targetType: 'post', targetId: id, targetUserId: creator.id });
  });
});

describe('moderation actions', () => {
  it('hides a post for everyone, tells its author, closes every open report of it and logs who did it', async () => {
    const admin = await createAccount(app, { level: 500 });
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const otherFan = await createAccount(app);
    // A woman's posts are on the visitors' default public timeline (SPEC §3 gender filter).
    await app.fanstage.db.update(users).set({ gender: 2 }).where(eq(users.id, creator.id));
    const tag = word('t');
    const { id } = await post(app, creator.id, { text: `reported ${tag}`, media: 1 });
    const fanReport = (await report(fan, { type: 'post', id, reason: 'illegal' })).json.body.id as number;
    const otherReport = (await report(otherFan, { type: 'post', id, reason: 'spam' })).json.body.id as number;
    // The visitors' cached pages hold the post before it is hidden.
    const lists = ['/papi/2/timeline?limit=15', `/papi/2/posts?username=${creator.username}`, `/papi/search/posts?q=${tag}`];
    for (const url of lists) {
      const seen = await call('GET', url);
      expect(JSON.stringify(seen.json.body), url).toContain(`"id":${id}`);
    }
    expect((await call('GET', `/papi/posts/${id}`)).json.statusCode).toBe(2);

    const answer = await call('POST', `/api/admin/abuse/${fanReport}/hide-post`, admin);
    expect(answer.json).toEqual({ statusCode: 2, body: { action: 'hide-post', closedReports: [fanReport, otherReport].sort((a, b) => a - b) } });

    for (const who of [undefined, fan, otherFan]) {
      expect((await call('GET', `/papi/posts/${id}`, who)).json.statusText).toBe('post-doesnt-exists');
      for (const url of lists) expect(JSON.stringify((await call('GET', url, who)).json.body), url).not.toContain(`"id":${id}`);
    }
    expect((await call('GET', `/api/posts/${id}`, creator)).json.statusText).toBe('post-doesnt-exists');
    expect(await notificationTypes(creator)).toContain('notificationDeletedByAdmin');
    expect(await notificationTypes(fan)).not.toContain('notificationDeletedByAdmin');
    for (const reportId of [fanReport, otherReport]) expect(await statusOf(reportId)).toMatchObject({ status: 'actioned', closedBy: admin.id, closedWith: 'hide-post' });
    expect((await queue(admin)).some((r) => r.targetId === id && r.type === 'post')).toBe(false);
    const log = await app.fanstage.db.select().from(moderationLog).where(eq(moderationLog.reportId, fanReport));
    expect(log).toMatchObject([{ adminId: admin.id, action: 'hide-post', targetType: 'post', targetId: id, targetUserId: creator.id }]);
    const [author] = await app.fanstage.db.select({ postsCount: users.postsCount }).from(users).where(eq(users.id, creator.id));
    expect(author!.postsCount).toBe(0);
  });

  it('deletes a comment with its replies and tells its author', async () => {
    const admin = await createAccount(app, { level: 500 });
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const rude = await createAccount(app);
    const { id } = await post(app, creator.id, { text: 'a post' });
    const commentId = await comment(rude, id, 'you are awful');
    const reply = await call('POST', '/api/posts/comments', fan, { postId: id, parentId: commentId, text: 'agreed?' });
    expect(reply.json.statusCode).toBe(2);
    const reportId = (await report(creator, { type: 'comment', id: commentId, reason: 'harassment' })).json.body.id as number;
    expect((await queue(admin)).find((r) => r.id === reportId)).toMatchObject({ type: 'comment', present: true, snapshot: { text: 'you are awful', postId: id } });
    expect((await call('POST', `/api/admin/abuse/${reportId}/delete-comment`, admin)).json.body).toEqual({ action: 'delete-comment', closedReports: [reportId] });
    const list = await call('GET', `/papi/posts/${id}/comments`);
    expect(JSON.stringify(list.json.body)).not.toContain('you are awful');
    expect(await app.fanstage.db.select().from(comments).where(eq(comments.id, commentId))).toEqual([]);
    expect((await call('GET', `/papi/posts/${id}`)).json.body.totalCommentsCount).toBe(0);
    expect(await notificationTypes(rude)).toContain('notificationDeletedByAdmin');
    // The report still reads from its snapshot.
    expect((await statusOf(reportId)).snapshot).toMatchObject({ text: 'you are awful' });
  });

  it('deletes a chat message from the conversation, tells its sender, and takes it out of both people’s open chats', async () => {
    const admin = await createAccount(app, { level: 500 });
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const stranger = await createAccount(app);
    const text = `buy my stuff ${word()}`;
    await message(fan, creator, 'hi there');
    const id = await message(creator, fan, text);
    const reportId = (await report(fan, { type: 'message', id, reason: 'spam' })).json.body.id as number;
    const sockets = { creator: await connectSocket(server, creator), fan: await connectSocket(server, fan), stranger: await connectSocket(server, stranger) };
    expect((await call('POST', `/api/admin/abuse/${reportId}/delete-message`, admin)).json.body.closedReports).toEqual([reportId]);
    // Each hears of it under the other one's id, the conversation it was in; nobody else does.
    expect(await sockets.creator.nextOf('eventMessage', 0, (m) => m.event === 'messageDeleted')).toEqual({ type: 'eventMessage', event: 'messageDeleted', userId: fan.id, data: { messageId: id } });
    expect(await sockets.fan.nextOf('eventMessage', 0, (m) => m.event === 'messageDeleted')).toEqual({ type: 'eventMessage', event: 'messageDeleted', userId: creator.id, data: { messageId: id } });
    await sockets.stranger.sync();
    expect(sockets.stranger.all('eventMessage')).toEqual([]);
    for (const [viewer, other] of [
      [fan, creator],
      [creator, fan],
    ] as const) {
      const history = await call('GET', `/api/chat/conversations/${other.id}`, viewer);
      expect(history.json.statusCode).toBe(2);
      const messages = history.json.body.messages as { id: number; text: string }[];
      expect(messages.map((m) => m.text)).toEqual(['hi there']);
      const list = await call('GET', '/api/chat/conversations', viewer);
      expect(JSON.stringify(list.json.body)).not.toContain(text);
    }
    expect(await notificationTypes(creator)).toContain('notificationDeletedByAdmin');
  });

  it('bans an account: its sessions, refresh tokens and sockets end, it cannot sign in, and its reports are settled', async () => {
    const admin = await createAccount(app, { level: 500 });
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    const { id } = await post(app, creator.id, { text: 'bad' });
    const login = await app.inject({ method: 'POST', url: '/papi/login', payload: { email: creator.email, password: creator.password, tokenInBody: true } });
    const refreshToken = login.json().body.refreshToken as string;
    const socket = await connectSocket(server, creator);
    const postReport = (await report(fan, { type: 'post', id, reason: 'spam' })).json.body.id as number;
    const profileReport = (await report(fan, { type: 'user', id: creator.id, reason: 'spam' })).json.body.id as number;

    const answer = await call('POST', `/api/admin/abuse/${profileReport}/ban`, admin);
    expect(answer.json.body).toEqual({ action: 'ban', closedReports: [postReport, profileReport].sort((a, b) => a - b) });
    expect(await socket.next((m) => m.type === 'beforeLogout')).toEqual({ type: 'beforeLogout', reason: 'admin-blocked' });
    expect(await socket.closed).toBe(4401);
    expect((await call('GET', '/api/2/notifications', creator)).status).toBe(401);
    const refreshed = await app.inject({ method: 'POST', url: '/papi/login/refresh', payload: { refreshToken } });
    expect(refreshed.json().statusCode).toBe(-1);
    const tokens = await app.fanstage.db.select({ revokedAt: refreshTokens.revokedAt }).from(refreshTokens).where(eq(refreshTokens.userId, creator.id));
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.every((t) => t.revokedAt !== null)).toBe(true);
    const again = await app.inject({ method: 'POST', url: '/papi/login', payload: { email: creator.email, password: creator.password } });
    expect(again.json()).toEqual({ statusCode: -1, statusText: 'banned' });
    // The banned account's posts leave with it.
    expect((await call('GET', `/papi/posts/${id}`, fan)).json.statusText).toBe('post-doesnt-exists');
    const log = await app.fanstage.db.select().from(moderationLog).where(eq(moderationLog.reportId, profileReport));
    expect(log).toMatchObject([{ adminId: admin.id, action: 'ban', targetType: 'user', targetId: creator.id }]);
  });

  it('does not ban an administrator', async () => {
    const admin = await createAccount(app, { level: 500 });
    const otherAdmin = await createAccount(app, { level: 500 });
    const fan = await createAccount(app);
    const reportId = (await report(fan, { type: 'user', id: otherAdmin.id, reason: 'other' })).json.body.id as number;
    expect((await call('POST', `/api/admin/abuse/${reportId}/ban`, admin)).json).toEqual({ statusCode: -1, statusText: 'moderation-not-applicable' });
    expect((await call('GET', '/api/2/notifications', otherAdmin)).json.statusCode).toBe(2);
    expect((await statusOf(reportId)).status).toBe('open');
  });
});
