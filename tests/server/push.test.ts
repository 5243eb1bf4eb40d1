import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { eq } from '../support/db';
import { fundWallet } from '../support/money';
import { closeSockets, connectSocket } from '../support/sockets';
import { acceptCall, callingCreator, isCall, ringCall, sendCall } from '../support/calls';
import { decryptPush, startPushReceiver, verifyVapid, type PushReceiver, type TestSubscription } from '../support/push-receiver';
import { pushDevices, serverKeys, users } from '../../server/src/db/schema';
import { endpointProblem } from '../../server/src/features/push/domain';
import { vapidKeys } from '../../server/src/features/push/service';
import { defaultPushServiceHosts } from '../../server/src/config';
import type { PushPayload } from '../../lib/contract/push';
import { say } from './support-chat';

let server: TestServer;
let app: FastifyInstance;
let receiver: PushReceiver;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
  receiver = await startPushReceiver();
});
afterAll(async () => {
  closeSockets();
  await server?.close();
  await receiver?.close();
});

const call = apiCaller(() => app);
const register = (account: TestAccount | undefined, body: unknown) => call('POST', '/api/device', account, body);
const devicesOf = (userId: number) => app.fanstage.db.select().from(pushDevices).where(eq(pushDevices.userId, userId));

async function registered(account: TestAccount): Promise<TestSubscription> {
  const subscription = receiver.subscription();
  const answer = await register(account, subscription.toJSON());
  expect(answer.json).toEqual({ statusCode: 1 });
  return subscription;
}

async function pushPayloadOf(subscription: TestSubscription): Promise<PushPayload> {
  const push = await receiver.next(subscription);
  expect(push.headers['content-encoding']).toBe('aes128gcm');
  expect(Number(push.headers.ttl)).toBeGreaterThan(0);
  const { publicKey, claims } = verifyVapid(push, receiver.origin);
  const settings = await call('GET', '/papi/settings');
  expect(publicKey).toBe(settings.json.body.pushPubKey);
  expect(claims.sub).toMatch(/^(mailto:|https:)/);
  return JSON.parse(decryptPush(subscription, push.body)) as PushPayload;
}

describe('the VAPID key', () => {
  it('is made on the first start, kept in the database and published as pushPubKey', async () => {
    const settings = await call('GET', '/papi/settings');
    const key = settings.json.body.pushPubKey as string;
    expect(key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const [row] = await app.fanstage.db.select().from(serverKeys).where(eq(serverKeys.name, 'vapid'));
    expect(JSON.parse(row!.value).publicKey).toBe(key);
    expect((await vapidKeys(app.fanstage)).publicKey).toBe(key);
  });
});

describe('POST /api/device', () => {
  it('needs a signed-in user', async () => {
    const answer = await register(undefined, receiver.subscription().toJSON());
    expect(answer.status).toBe(401);
    expect(answer.json.statusCode).toBe(-1);
  });

  it('stores the browser for the viewer, who then counts as registered', async () => {
    const fan = await createAccount(app);
    expect((await call('GET', '/api/users/me', fan)).json.body.isPushRegistered).toBe(false);
    const subscription = await registered(fan);
    const rows = await devicesOf(fan.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ endpoint: subscription.endpoint, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth });
    expect((await call('GET', '/api/users/me', fan)).json.body.isPushRegistered).toBe(true);
  });

  it('refuses endpoints the server must not call, and keys that cannot encrypt', async () => {
    const fan = await createAccount(app);
    const good = receiver.subscription().toJSON();
    const refused = [
      { ...good, endpoint: 'http://10.0.0.7/push/x' },
      { ...good, endpoint: 'https://169.254.169.254/latest/meta-data' },
      { ...good, endpoint: 'https://internal.example.com/push' },
      { ...good, endpoint: 'ftp://127.0.0.1/push' },
      { ...good, endpoint: 'http://user:pw@127.0.0.1/push' },
      { ...good, endpoint: 'not an address at all' },
      { ...good, keys: { ...good.keys, p256dh: Buffer.alloc(65, 7).toString('base64url') } },
      { ...good, keys: { ...good.keys, auth: Buffer.alloc(12, 1).toString('base64url') } },
      { endpoint: good.endpoint },
    ];
    for (const body of refused) {
      const answer = await register(fan, body);
      expect(answer.json.statusCode, JSON.stringify(body)).toBe(-1);
      expect(answer.json.statusText).toBe('invalid-request');
    }
    expect(await devicesOf(fan.id)).toEqual([]);
  });

  it('in production takes only https endpoints of the known push services, never a loopback or IP address', () => {
    const production = { production: true, serviceHosts: defaultPushServiceHosts };
    expect(endpointProblem('https://fcm.googleapis.com/fcm/send/abc', production)).toBeNull();
    expect(endpointProblem('https://updates.push.services.mozilla.com/wpush/v2/abc', production)).toBeNull();
    expect(endpointProblem('https://web.push.apple.com/abc', production)).toBeNull();
    for (const endpoint of [
      'http://127.0.0.1:9/push',
      'https://127.0.0.1/push',
      'https://localhost/push',
      'https://[::1]/push',
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com:8443/fcm/send/abc',
      'https://fcm.googleapis.com.evil.example/x',
      'https://evilpush.services.mozilla.com.example/x',
      'https://push.services.mozilla.com/x',
      'https://10.0.0.1/x',
    ]) {
      expect(endpointProblem(endpoint, production), endpoint).not.toBeNull();
    }
    // Outside production a loopback receiver is allowed, so tests run without the internet.
    expect(endpointProblem('http://127.0.0.1:9/push', { production: false, serviceHosts: defaultPushServiceHosts })).toBeNull();
  });

  it('ties the browser to the caller only: a user id in the body is refused, and a stranger cannot remove it', async () => {
    const fan = await createAccount(app);
    const stranger = await createAccount(app);
    const subscription = receiver.subscription();
    const forged = await register(stranger, { ...subscription.toJSON(), userId: fan.id });
    expect(forged.json).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    expect(await devicesOf(fan.id)).toEqual([]);

    await register(fan, subscription.toJSON());
    const removed = await call('DELETE', '/api/device', stranger, { endpoint: subscription.endpoint });
    expect(removed.json.statusCode).toBe(1);
    expect(await devicesOf(fan.id)).toHaveLength(1);
    expect((await call('DELETE', '/api/device', undefined, { endpoint: subscription.endpoint })).status).toBe(401);
    expect(await call('DELETE', '/api/device', fan, { endpoint: subscription.endpoint })).toMatchObject({ json: { statusCode: 1 } });
    expect(await devicesOf(fan.id)).toEqual([]);
  });

  it('replaces a browser registered again, and keeps at most ten per user', async () => {
    const fan = await createAccount(app);
    const other = await createAccount(app);
    const first = await registered(fan);
    // The same browser signed in as someone else: the row moves to them.
    await register(other, first.toJSON());
    expect(await devicesOf(fan.id)).toEqual([]);
    expect(await devicesOf(other.id)).toHaveLength(1);
    const many: TestSubscription[] = [];
    for (let i = 0; i < 11; i += 1) many.push(await registered(fan));
    const kept = (await devicesOf(fan.id)).map((row) => row.endpoint).sort();
    expect(kept).toEqual(many.slice(1).map((s) => s.endpoint).sort());
  });

  it('is forgotten when its session logs out', async () => {
    const fan = await createAccount(app);
    const login = await call('POST', '/papi/login', undefined, { email: fan.email, password: fan.password, tokenInBody: true });
    const session = { ...fan, accessToken: login.json.body.accessToken as string };
    await registered(session);
    const other = await registered(fan);
    expect(await devicesOf(fan.id)).toHaveLength(2);
    await call('POST', '/papi/login/logout', undefined, { refreshToken: login.json.body.refreshToken });
    expect((await devicesOf(fan.id)).map((row) => row.endpoint)).toEqual([other.endpoint]);
  });
});

describe('pushes', () => {
  it('tell of a chat message in the receiver’s language, encrypted for her browser and signed with the published key', async () => {
    const sender = await createAccount(app);
    await app.fanstage.db.update(users).set({ displayName: 'Lucy Rivers' }).where(eq(users.id, sender.id));
    const receiverAccount = await createAccount(app);
    await call('PUT', '/api/users/me', receiverAccount, { appLanguage: 'cs' });
    const subscription = await registered(receiverAccount);
    const socket = await connectSocket(server, sender);
    await say(socket, { receiverId: receiverAccount.id, text: 'Ahoj, jak se máš?' });
    const payload = await pushPayloadOf(subscription);
    expect(payload).toEqual({
      kind: 'chatMessage',
      title: 'Lucy Rivers',
      body: 'Ahoj, jak se máš?',
      icon: '/favicon.svg',
      url: `/chat/${sender.username}`,
      tag: `chat:${sender.username}`,
      silent: false,
      lang: 'cs',
    });
  });

  it('tell of an incoming call, silently for someone who muted sounds', async () => {
    const star = await callingCreator(app);
    await call('PUT', '/api/users/me', star, { notificationSound: 2, appLanguage: 'en' });
    const fan = await createAccount(app);
    await fundWallet(app, fan.id, 10_000);
    const subscription = await registered(star);
    const { callId } = await ringCall(server, fan, star);
    const payload = await pushPayloadOf(subscription);
    expect(payload).toMatchObject({ kind: 'incomingCall', title: 'Incoming call', url: `/chat/${fan.username}?call=${callId}`, tag: `call:${callId}`, silent: true, lang: 'en', callId });
    expect(payload.body).toContain('is calling you');
    // Accept and Decline, and nothing that would let anyone but her answer it.
    expect(payload.actions).toEqual([
      { action: 'accept', title: 'Accept' },
      { action: 'decline', title: 'Decline' },
    ]);
    expect(Object.keys(payload).sort()).toEqual(['actions', 'body', 'callId', 'icon', 'kind', 'lang', 'silent', 'tag', 'title', 'url']);
  });

  it('tell a creator of a gift on her post and of a new subscriber, and open the post or the notifications', async () => {
    const creator = await createAccount(app, { seller: true });
    const fan = await createAccount(app);
    await app.fanstage.db.update(users).set({ displayName: 'Big Fan' }).where(eq(users.id, fan.id));
    const subscription = await registered(creator);
    const post = await call('POST', '/api/posts', creator, { text: 'gift me' });
    const [gift] = (await call('GET', '/papi/gifts')).json.body as { id: number; gValue: number }[];
    await fundWallet(app, fan.id, 100_000);
    const gave = await call('POST', '/api/posts/gift', fan, { postId: post.json.body.id, giftId: gift!.id });
    expect(gave.json.statusCode).toBeGreaterThan(0);
    expect(await pushPayloadOf(subscription)).toMatchObject({ kind: 'gift', title: 'New gift', body: 'Big Fan sent you a gift', url: `/post/${post.json.body.id}`, lang: 'en' });

    const offer = await call('POST', '/api/subscription/offer', creator, { name: 'Monthly', priceCents: 320 });
    const subscribed = await call('POST', `/api/subscription/subscribe/${offer.json.body.id}`, fan, {});
    expect(subscribed.json.statusCode).toBe(2);
    expect(await pushPayloadOf(subscription)).toMatchObject({ kind: 'newSubscriber', title: 'New subscriber', body: 'Big Fan subscribed to you', url: '/notifications' });
  });

  it('stop for a browser whose push service answers 410, and the message is sent all the same', async () => {
    const sender = await createAccount(app);
    const receiverAccount = await createAccount(app);
    const gone = await registered(receiverAccount);
    receiver.answerWith(gone, 410);
    const socket = await connectSocket(server, sender);
    const echo = await say(socket, { receiverId: receiverAccount.id, text: 'still there?' });
    expect(echo.text).toBe('still there?');
    const push = await receiver.next(gone);
    expect(push.answered).toBe(410);
    await expect.poll(async () => (await devicesOf(receiverAccount.id)).length).toBe(0);
    expect((await call('GET', '/api/users/me', receiverAccount)).json.body.isPushRegistered).toBe(false);
  });

  it('close the ring’s notification when the call is taken, and make it a missed call when the caller gives up', async () => {
    const star = await callingCreator(app);
    await call('PUT', '/api/users/me', star, { appLanguage: 'cs' });
    const fan = await createAccount(app);
    await app.fanstage.db.update(users).set({ displayName: 'Věrný Fanoušek' }).where(eq(users.id, fan.id));
    await fundWallet(app, fan.id, 10_000);
    const subscription = await registered(star);

    const answered = await ringCall(server, fan, star);
    expect(await pushPayloadOf(subscription)).toMatchObject({ kind: 'incomingCall', title: 'Příchozí hovor', actions: [{ title: 'Přijmout' }, { title: 'Odmítnout' }] });
    await acceptCall(answered, fan);
    expect(await pushPayloadOf(subscription)).toMatchObject({ kind: 'callEnded', tag: `call:${answered.callId}`, callId: answered.callId, missed: false, silent: true });
    sendCall(answered.fanSocket, answered.callId, 'callStop', star.id);
    await answered.starSocket.nextOf('callMessage', 0, isCall(answered.callId, 'callStop'));

    const cancelled = await ringCall(server, fan, star);
    await pushPayloadOf(subscription);
    sendCall(cancelled.fanSocket, cancelled.callId, 'callStop', star.id);
    expect(await pushPayloadOf(subscription)).toEqual({
      kind: 'callEnded',
      title: 'Zmeškaný hovor',
      body: 'Věrný Fanoušek vám volal(a)',
      icon: '/favicon.svg',
      url: `/chat/${fan.username}`,
      tag: `call:${cancelled.callId}`,
      silent: true,
      lang: 'cs',
      callId: cancelled.callId,
      missed: true,
    });
  });
});

describe('answering a call outside the page', () => {
  it('declines a ringing call by its id over HTTP, for the callee alone, and the caller hears it was declined', async () => {
    const star = await callingCreator(app);
    const fan = await createAccount(app);
    await fundWallet(app, fan.id, 10_000);
    const subscription = await registered(star);
    const { callId, fanSocket } = await ringCall(server, fan, star);
    await pushPayloadOf(subscription);

    // Neither the caller nor a stranger may decline it for her.
    expect((await call('POST', `/api/calls/${callId}/decline`, fan, {})).json).toEqual({ statusCode: -1, statusText: 'call-not-found' });
    expect((await call('POST', `/api/calls/${callId}/decline`, await createAccount(app), {})).json).toEqual({ statusCode: -1, statusText: 'call-not-found' });
    expect((await call('POST', `/api/calls/${callId}/decline`, undefined, {})).status).toBe(401);

    expect((await call('POST', `/api/calls/${callId}/decline`, star, {})).json).toEqual({ statusCode: 1 });
    const answer = await fanSocket.nextOf('callMessage', 0, isCall(callId, 'preAnswer'));
    expect(answer.callMessageBody).toEqual({ accept: false, status: 54 });
    expect((await fanSocket.nextOf('callMessage', 0, isCall(callId, 'callStop'))).callMessageBody).toMatchObject({ reason: 'declined' });
    expect(await pushPayloadOf(subscription)).toMatchObject({ kind: 'callEnded', callId, missed: false });
    expect((await call('GET', `/api/calls/${callId}`, star)).json.body).toMatchObject({ state: 'declined', endReason: 'declined' });

    // Once over, it cannot be declined again.
    expect((await call('POST', `/api/calls/${callId}/decline`, star, {})).json).toEqual({ statusCode: -1, statusText: 'call-not-found' });
  });

  it('refuses an accept or a decline of a call another of her pages answered first, and the call goes on', async () => {
    const star = await callingCreator(app);
    const fan = await createAccount(app);
    await fundWallet(app, fan.id, 10_000);
    const ringing = await ringCall(server, fan, star);
    const otherTab = await connectSocket(server, star);
    await acceptCall(ringing, fan);

    sendCall(otherTab, ringing.callId, 'preAnswer', fan.id, { accept: true });
    expect(await otherTab.nextOf('error', 0, (m: { msgId?: string }) => m.msgId === ringing.callId)).toMatchObject({ statusText: 'call-taken', ref: 'callMessage' });
    expect((await call('POST', `/api/calls/${ringing.callId}/decline`, star, {})).json).toEqual({ statusCode: -1, statusText: 'call-taken' });
    expect((await call('GET', `/api/calls/${ringing.callId}`, star)).json.body).toMatchObject({ state: 'live' });
  });
});
