import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller, type Answer } from '../support/inject';
import { fundWallet, walletOf } from '../support/money';
import { newCallId, sendCall } from '../support/calls';
import { startTestServer, type TestServer } from '../support/server';
import { closeSockets, connectSocket } from '../support/sockets';
import { eq } from '../support/db';
import { embedOrigins, payoutRequests, subscriptionOffers, users } from '../../server/src/db/schema';
import { passIdCheck, photo, register } from './support-partner';

let server: TestServer;
let app: FastifyInstance;
let admin: TestAccount;
let fan: TestAccount;
/** Another creator's offer: editing or restoring an offer is refused before whose it is is asked. */
let othersOffer: number;
let picture: Buffer;
let pictures: { front: Buffer; back: Buffer; selfie: Buffer };

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
  admin = await createAccount(app, { level: 500 });
  fan = await createAccount(app);
  await fundWallet(app, fan.id, 10_000);
  const seller = await createAccount(app, { seller: true });
  othersOffer = (await call('POST', '/api/subscription/offer', seller, { name: 'Monthly', priceCents: 640 })).json.body.id as number;
  picture = await photo();
  pictures = { front: picture, back: await photo('#aa3366'), selfie: await photo('#66aa33') };
});
afterAll(async () => {
  closeSockets();
  await server?.close();
});

const call = apiCaller(() => app);

async function uploaded(owner: TestAccount): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(picture)], { type: 'image/jpeg' }), 'photo.jpg');
  const answer = await fetch(`${server.baseUrl}/api/media/binary`, { method: 'POST', headers: { authorization: `Bearer ${owner.accessToken}` }, body: form });
  return ((await answer.json()) as Answer).body.fileName as string;
}

/**
 * Every seller-only action, tried by `person`: each must be refused and leave nothing behind.
 * The seller checks are the ones `grep isSeller server/src` finds: prices (profile, chat, media,
 * posts), subscription offers (create, edit, offer again), mass messages, calls (the price list
 * and ringing), embed origins, being paid at all (tips, post and chat gifts, paid messages), and the
 * partner's own badge and action-girl answers. Archiving and deleting an offer are not guarded:
 * a former seller may still close an offer.
 */
async function expectNothingOfASeller(person: TestAccount) {
  const refusals: [string, unknown][] = [];
  const note = (what: string, json: Answer) => refusals.push([what, { statusCode: json.statusCode, statusText: json.statusText }]);

  note('message price', (await call('PUT', '/api/users/me', person, { messagePrice: 32 })).json);
  note('call price', (await call('PUT', '/api/users/me', person, { callPrice: 128 })).json);
  note('embed origins', (await call('PUT', '/api/users/me', person, { embedOrigins: ['https://my-site.example'] })).json);
  note('subscription offer', (await call('POST', '/api/subscription/offer', person, { name: 'Monthly', priceCents: 640 })).json);
  note('custom chat price', (await call('PUT', '/api/chat/conversations/', person, { senderId: fan.id, customPrice: 32 })).json);
  note('priced media', (await call('POST', '/api/media', person, { fileNames: [await uploaded(person)], price: 320, purpose: 'post' })).json);
  const free = await call('POST', '/api/media', person, { fileNames: [await uploaded(person)], purpose: 'post' });
  expect(free.json.statusCode).toBe(2);
  const mediaId = free.json.body[0].mediaId as number;
  note('media price change', (await call('PUT', `/api/media/${mediaId}`, person, { price: 320 })).json);
  note('chat media price', (await call('POST', '/api/media', person, { fileNames: [await uploaded(person)], price: 32, purpose: 'chat' })).json);
  note('calls', (await call('GET', `/api/users/${person.id}/call-packages`, fan)).json);
  note('tips to them', (await call('POST', '/api/users/tip', fan, { userId: person.id, giftId: 1 })).json);
  note('payout', (await call('POST', '/api/earnings/payout', person, { cPayout: 5000 })).json);
  note('badge', (await call('POST', '/api/partner/confirm-badge', person)).json);
  note('badge hidden', (await call('POST', '/api/partner/confirm-no-badge', person)).json);
  note('badge revoked by an administrator', (await call('POST', `/api/admin/partners/${person.id}/revoke-badge`, admin, { reason: 'x' })).json);
  note('action-girl', (await call('POST', '/api/partner/action-girl', person, { actionState: 2 })).json);
  note('offer price change', (await call('PUT', `/api/subscription/offer/${othersOffer}`, person, { priceCents: 1280 })).json);
  note('offer restored', (await call('POST', `/api/subscription/offer/${othersOffer}/restore`, person)).json);

  const socket = await connectSocket(server, person);
  const mark = socket.mark;
  socket.send({ type: 'massChatMessage', msgId: `m-${person.id}-0000000001`, recGroup: 'followers', text: 'hello everyone' });
  const error = await socket.nextOf('error', mark);
  refusals.push(['mass message', { statusCode: -1, statusText: (error as { statusText: string }).statusText }]);

  // A fan's socket: a gift in the chat and a call are refused, as the tip above.
  const fanSocket = await connectSocket(server, fan);
  let from = fanSocket.mark;
  fanSocket.send({ type: 'chatMessage', msgId: `g-${person.id}-0000000001`, receiverId: person.id, text: '', giftId: 1 });
  refusals.push(['chat gift to them', { statusCode: -1, statusText: ((await fanSocket.nextOf('error', from)) as { statusText: string }).statusText }]);
  from = fanSocket.mark;
  sendCall(fanSocket, newCallId(), 'preOffer', person.id);
  refusals.push(['calling them', { statusCode: -1, statusText: ((await fanSocket.nextOf('error', from)) as { statusText: string }).statusText }]);

  expect(Object.fromEntries(refusals)).toEqual({
    'message price': { statusCode: -2, statusText: 'verify-required' },
    'call price': { statusCode: -2, statusText: 'verify-required' },
    'embed origins': { statusCode: -1, statusText: 'embed-origins-not-allowed' },
    'subscription offer': { statusCode: -2, statusText: 'verify-required' },
    'custom chat price': { statusCode: -2, statusText: 'verify-required' },
    'priced media': { statusCode: -2, statusText: 'verify-required' },
    'media price change': { statusCode: -2, statusText: 'verify-required' },
    'chat media price': { statusCode: -2, statusText: 'verify-required' },
    calls: { statusCode: -1, statusText: 'calls-not-offered' },
    'tips to them': { statusCode: -1, statusText: 'gift-send-error' },
    // Payouts are not a seller's alone (affiliates earn too), but there is nothing to pay out.
    payout: { statusCode: -1, statusText: expect.stringMatching(/^(noMoney|payout-destination-required)$/) },
    badge: { statusCode: -1, statusText: 'partner-wrong-state' },
    'badge hidden': { statusCode: -1, statusText: 'partner-wrong-state' },
    'badge revoked by an administrator': { statusCode: -1, statusText: 'partner-wrong-state' },
    'action-girl': { statusCode: -2, statusText: 'verify-required' },
    'offer price change': { statusCode: -2, statusText: 'verify-required' },
    'offer restored': { statusCode: -2, statusText: 'verify-required' },
    'mass message': { statusCode: -1, statusText: 'verify-required' },
    'chat gift to them': { statusCode: -1, statusText: 'gift-send-error' },
    'calling them': { statusCode: -1, statusText: 'calls-not-offered' },
  });

  // A priced post is published free, with notASeller (SPEC §8 new_post_success_not_seller), and takes no gifts.
  const media = await call('POST', '/api/media', person, { fileNames: [await uploaded(person)], purpose: 'post' });
  const post = await call('POST', '/api/posts', person, { text: 'first', mediaIds: [media.json.body[0].mediaId], price: 320 });
  expect(post.json).toMatchObject({ statusCode: 2, body: { notASeller: true } });
  expect(post.json.body.media[0].mediaPrice).toBe(0);
  const fanWallet = await walletOf(app, fan.id);
  expect((await call('POST', '/api/posts/gift', fan, { postId: post.json.body.id, giftId: 1 })).json).toEqual({ statusCode: -1, statusText: 'gift-send-error' });
  expect(await walletOf(app, fan.id)).toBe(fanWallet);

  // Nothing of a seller's was written.
  const db = app.fanstage.db;
  const [row] = await db.select().from(users).where(eq(users.id, person.id));
  expect([row!.isSeller, row!.isPartner, row!.messagePrice, row!.callPrice, row!.hasBadge]).toEqual([false, false, 0, 0, false]);
  expect(await db.$count(subscriptionOffers, eq(subscriptionOffers.userId, person.id))).toBe(0);
  expect(await db.$count(embedOrigins, eq(embedOrigins.userId, person.id))).toBe(0);
  expect(await db.$count(payoutRequests, eq(payoutRequests.userId, person.id))).toBe(0);

  // A message price left in the row (as an earlier seller's would be) charges nothing: a message to them is free.
  await db.update(users).set({ messagePrice: 32 }).where(eq(users.id, person.id));
  try {
    const wallet = await walletOf(app, fan.id);
    from = fanSocket.mark;
    fanSocket.send({ type: 'chatMessage', msgId: `p-${person.id}-0000000001`, receiverId: person.id, text: 'hello', price: 32 });
    expect(await fanSocket.nextOf('chatMessage', from)).toMatchObject({ message: { receiverId: person.id, text: 'hello', price: 0 } });
    expect(await walletOf(app, fan.id)).toBe(wallet);
  } finally {
    await db.update(users).set({ messagePrice: 0 }).where(eq(users.id, person.id));
  }
}

describe('a declined applicant has nothing of a seller’s', () => {
  it('after a declined identity check: in 101 (verify again), and every seller-only action is refused', async () => {
    const person = await createAccount(app);
    await register(call, person);
    await passIdCheck(call, person, '200000002', pictures);
    expect((await call('GET', '/api/partner', person)).json.body).toMatchObject({ approvedState: 101, isSeller: false, isPartner: false, idCheck: { status: 'declined' } });
    await expectNothingOfASeller(person);
  });

  it('after an administrator declined the application: back in 7 with the reason, and every seller-only action is refused', async () => {
    const person = await createAccount(app);
    await register(call, person);
    await passIdCheck(call, person, '100000001', pictures);
    await call('POST', `/api/admin/partners/${person.id}/decline`, admin, { reason: 'Incomplete address.' });
    expect((await call('GET', '/api/partner', person)).json.body).toMatchObject({ approvedState: 7, isSeller: false, declineReason: 'Incomplete address.' });
    await expectNothingOfASeller(person);
  });

  it('the same actions pass once an administrator approves (so the refusals above are the seller check, not something else)', async () => {
    const person = await createAccount(app);
    await register(call, person);
    await passIdCheck(call, person, '100000001', pictures);
    await call('POST', `/api/admin/partners/${person.id}/approve`, admin, {});
    expect((await call('PUT', '/api/users/me', person, { messagePrice: 32, callPrice: 128, embedOrigins: ['https://my-site.example'] })).json.statusCode).toBe(2);
    expect((await call('POST', '/api/subscription/offer', person, { name: 'Monthly', priceCents: 640 })).json.statusCode).toBe(2);
    expect((await call('PUT', '/api/chat/conversations/', person, { senderId: fan.id, customPrice: 32 })).json.statusCode).toBeGreaterThan(0);
    expect((await call('POST', '/api/media', person, { fileNames: [await uploaded(person)], price: 320, purpose: 'post' })).json.statusCode).toBe(2);
    expect((await call('GET', `/api/users/${person.id}/call-packages`, fan)).json.statusCode).toBe(2);
    expect((await call('POST', '/api/users/tip', fan, { userId: person.id, giftId: 1 })).json.statusCode).toBe(2);
    const post = await call('POST', '/api/posts', person, { text: 'approved now' });
    expect((await call('POST', '/api/posts/gift', fan, { postId: post.json.body.id, giftId: 1 })).json.statusCode).toBe(2);
    const own = (await call('POST', '/api/subscription/offer', person, { name: 'Second', priceCents: 640 })).json.body.id as number;
    expect((await call('PUT', `/api/subscription/offer/${own}`, person, { priceCents: 1280 })).json.statusCode).toBe(2);
    expect((await call('POST', '/api/partner/confirm-no-badge', person)).json.statusCode).toBe(2);
    const fanSocket = await connectSocket(server, fan);
    const from = fanSocket.mark;
    fanSocket.send({ type: 'chatMessage', msgId: `g-${person.id}-0000000002`, receiverId: person.id, text: '', giftId: 1, price: 32 });
    expect(await fanSocket.nextOf('chatMessage', from)).toMatchObject({ message: { receiverId: person.id, giftId: 1 } });
  });
});
