import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createFanstage, isSdkError, PAYMENT_MESSAGE, type Fanstage, type FanstageOptions, type Gift, type PopupHandle } from '../../lib/sdk';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type AccountOptions, type TestAccount } from '../support/accounts';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';
import { fanPriceCents } from '../../lib/sdk/rules/price';
import { media, postMedia, posts } from '../../server/src/db/schema';
import { MIN_PAYOUT_CENTS } from '../../server/src/features/spending/domain';

let server: TestServer;

const cards = { ok: '4242 4242 4242 4242', decline: '4000 0000 0000 0002', secondStep: '4000 0000 0000 3220' };

beforeAll(async () => {
  server = await startTestServer({ seed: false });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

/** Where `/gopay-return`'s message arrives in these tests: what a browser window would be. */
function messageSource() {
  return new EventTarget() as EventTarget & { addEventListener(type: 'message', listener: (event: MessageEvent) => void): void; removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void };
}

function unescape(value: string): string {
  return value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

/** What a person does on the sandbox processor's card page: types the card and submits; approves a second step. */
async function payOnCardPage(url: string, number: string, decision: 'approve' | 'decline' = 'approve'): Promise<string | null> {
  let page = await fetch(url, { headers: { accept: 'text/html' }, redirect: 'manual' }).then((r) => r.text());
  for (let step = 0; step < 2; step++) {
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
    if (!action) throw new Error(`No form on the card page: ${page.slice(0, 300)}`);
    const fields: Record<string, string> = {};
    for (const match of page.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) fields[match[1]!] = unescape(match[2]!);
    const body = fields.step ? { ...fields, decision } : { ...fields, number, expiry: '12/34', cvc: '123', name: 'Ada Fan' };
    const response = await fetch(new URL(unescape(action), server.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
      redirect: 'manual',
    });
    const location = response.headers.get('location');
    await response.arrayBuffer();
    if (!location || !location.includes('/checkout/')) return location;
    // A second step: the processor's page asks for an approval.
    page = await fetch(new URL(location, server.baseUrl), { headers: { accept: 'text/html' } }).then((r) => r.text());
  }
  return null;
}

/**
 * A browser window for the card page: it is opened blank, then sent to the card page, where
 * the person pays with `number`; the return page then tells its opener, as /gopay-return does.
 */
function cardWindows(number: string, messages: EventTarget, decision: 'approve' | 'decline' = 'approve') {
  const opened: string[] = [];
  const payments: Promise<unknown>[] = [];
  let closeAfterPaying = false;
  function visit(handle: { closed: boolean }, url: string) {
    if (url === 'about:blank') return;
    opened.push(url);
    payments.push(
      payOnCardPage(url, number, decision).then((returnedTo) => {
        const id = returnedTo ? new URL(returnedTo).searchParams.get('id') : null;
        if (id) messages.dispatchEvent(new MessageEvent('message', { origin: new URL(server.baseUrl).origin, data: { type: PAYMENT_MESSAGE, id } }));
        if (closeAfterPaying) handle.closed = true;
      }),
    );
  }
  return {
    opened,
    payments,
    closeAfterPaying() {
      closeAfterPaying = true;
    },
    open(url: string): PopupHandle {
      const handle = {
        closed: false,
        close() {
          handle.closed = true;
        },
        focus() {},
        location: {
          set href(next: string) {
            visit(handle, next);
          },
        },
      };
      visit(handle, url);
      return handle;
    },
  };
}

async function as(options: AccountOptions = {}, extra: Partial<FanstageOptions> = {}): Promise<{ account: TestAccount; fanstage: Fanstage }> {
  const account = await createAccount(server.app, options);
  const fanstage = createFanstage({ baseUrl: server.baseUrl, session: { mode: 'cookie' }, ...extra });
  fanstage.session.adopt({ accessToken: account.accessToken });
  return { account, fanstage };
}

async function firstPackage(fanstage: Fanstage) {
  const list = await fanstage.wallet.loadPackages();
  expect(list.length).toBeGreaterThan(0);
  return list[0]!;
}

let giftCatalogue: Gift[] = [];
async function aGift(fanstage: Fanstage, index = 0): Promise<Gift> {
  if (giftCatalogue.length === 0) giftCatalogue = await fanstage.api.gifts();
  return giftCatalogue[index]!;
}

describe('the wallet store on the real server', { timeout: 30_000 }, () => {
  it('loads the balance and discards a balance older than the one it holds', async () => {
    const { account, fanstage } = await as();
    await fundWallet(server.app, account.id, 700);
    const loaded = await fanstage.wallet.refresh();
    expect(loaded?.gBalance).toBe(700);
    const ts = loaded!.ts;

    // A late message from before the last movement changes nothing.
    expect(fanstage.wallet.apply({ ...loaded!, gBalance: 5, ts: ts - 1 })).toBe(false);
    expect(fanstage.wallet.balance.value?.gBalance).toBe(700);
    // A newer part of a balance is merged into it.
    expect(fanstage.wallet.apply({ gBalance: 650, ts: ts + 1 })).toBe(true);
    expect(fanstage.wallet.balance.value).toMatchObject({ gBalance: 650, ts: ts + 1, cBalance: loaded!.cBalance });
    // And a refresh that answers an older balance than a spend already reported is discarded too.
    fanstage.wallet.apply({ gBalance: 640, ts: ts + 10_000_000 });
    await fanstage.wallet.refresh();
    expect(fanstage.wallet.balance.value?.gBalance).toBe(640);
  });

  it('tops up with a new card in a popup, saving the card, and the credits reach the wallet', async () => {
    const messages = messageSource();
    const windows = cardWindows(cards.ok, messages);
    const { account, fanstage } = await as({}, { payments: { openWindow: windows.open, messages, pollMs: 50 } });
    await fanstage.wallet.refresh();
    const pkg = await firstPackage(fanstage);
    const [processor] = await fanstage.wallet.loadProcessors();
    expect(processor?.name).toBe('sandbox');

    const order = await fanstage.wallet.topUp({ packageId: pkg.id, processor: 'sandbox', saveCard: true, mode: 'popup' });
    expect(order).toMatchObject({ status: 'paid', credits: pkg.cValue, amount: pkg.gValue });
    expect(windows.opened).toHaveLength(1);
    expect(windows.opened[0]).toContain(`/papi/payments/sandbox/checkout/${order.id}`);
    expect(fanstage.wallet.balance.value?.gBalance).toBe(pkg.cValue);
    expect(await walletOf(server.app, account.id)).toBe(pkg.cValue);
    expect(fanstage.wallet.payment.value).toBeNull();

    // The card was saved: the next top-up charges it without any page.
    const saved = await fanstage.wallet.loadCards(true);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ last4: '4242', pgw: 'sandbox' });
    const again = await fanstage.wallet.topUp({ packageId: pkg.id, processor: 'sandbox', cardId: saved[0]!.id, mode: 'popup' });
    expect(again.status).toBe('paid');
    expect(windows.opened).toHaveLength(1);
    expect(fanstage.wallet.balance.value?.gBalance).toBe(pkg.cValue * 2);
    expect(await walletOf(server.app, account.id)).toBe(pkg.cValue * 2);

    // The history lists both top-ups, newest first.
    const history = fanstage.wallet.transactions;
    await history.start();
    expect(history.items.value.filter((t) => t.transactionType === 'topup').map((t) => t.amountCents)).toEqual([pkg.cValue, pkg.cValue]);
    expect(history.status.value).toBe('ended');

    // A removed card is gone on the server too.
    await fanstage.wallet.deleteCard(saved[0]!.id);
    expect(fanstage.wallet.cards.value).toEqual([]);
    expect(await fanstage.wallet.loadCards(true)).toEqual([]);
    await expectLedgerBalanced(server.app);
  });

  it('rejects a declined card with payment-declined and moves no money', async () => {
    const messages = messageSource();
    const windows = cardWindows(cards.decline, messages);
    const { account, fanstage } = await as({}, { payments: { openWindow: windows.open, messages, pollMs: 50 } });
    await fanstage.wallet.refresh();
    const pkg = await firstPackage(fanstage);
    const failure = await fanstage.wallet.topUp({ packageId: pkg.id, processor: 'sandbox', mode: 'popup' }).catch((error: unknown) => error);
    expect(isSdkError(failure) && failure.code).toBe('payment-declined');
    expect(await walletOf(server.app, account.id)).toBe(0);
    expect(fanstage.wallet.balance.value?.gBalance).toBe(0);
  });

  it('goes through a second step the processor asks for', async () => {
    const messages = messageSource();
    const windows = cardWindows(cards.secondStep, messages);
    const { account, fanstage } = await as({}, { payments: { openWindow: windows.open, messages, pollMs: 50 } });
    const pkg = await firstPackage(fanstage);
    const order = await fanstage.wallet.topUp({ packageId: pkg.id, processor: 'sandbox', mode: 'popup' });
    expect(order.status).toBe('paid');
    expect(await walletOf(server.app, account.id)).toBe(pkg.cValue);
  });

  it('offers to open the card page from a click when the browser blocked the popup', async () => {
    const messages = messageSource();
    const windows = cardWindows(cards.ok, messages);
    let blocked = true;
    const { account, fanstage } = await as({}, { payments: { openWindow: (url) => (blocked ? null : windows.open(url)), messages, pollMs: 50 } });
    const pkg = await firstPackage(fanstage);
    const paying = fanstage.wallet.topUp({ packageId: pkg.id, processor: 'sandbox', mode: 'popup' });
    await expect.poll(() => fanstage.wallet.payment.value?.phase).toBe('blocked');
    blocked = false;
    expect(fanstage.wallet.openCardPage()).toBe(true);
    expect((await paying).status).toBe('paid');
    expect(await walletOf(server.app, account.id)).toBe(pkg.cValue);
  });

  it('leaves the page for the card page in redirect mode, and the return page waits for the outcome', async () => {
    const visited: string[] = [];
    const { account, fanstage } = await as({}, { payments: { navigate: (url) => visited.push(url), pollMs: 50 } });
    const pkg = await firstPackage(fanstage);
    const created = await fanstage.wallet.topUp({ packageId: pkg.id, processor: 'sandbox', mode: 'redirect' });
    expect(created.status).toBe('created');
    expect(visited).toEqual([created.redirectUrl]);
    const returnedTo = await payOnCardPage(created.redirectUrl!, cards.ok);
    expect(returnedTo).toContain(`/gopay-return?id=${created.id}`);
    const paid = await fanstage.wallet.awaitPayment(created.id);
    expect(paid.status).toBe('paid');
    expect(fanstage.wallet.balance.value?.gBalance).toBe(pkg.cValue);
    expect(await walletOf(server.app, account.id)).toBe(pkg.cValue);
  });

  it('keeps a card removed here though an answer of the card list asked for before arrives after it', async () => {
    const messages = messageSource();
    const windows = cardWindows(cards.ok, messages);
    const { fanstage } = await as({}, { payments: { openWindow: windows.open, messages, pollMs: 50 } });
    const pkg = await firstPackage(fanstage);
    await fanstage.wallet.topUp({ packageId: pkg.id, processor: 'sandbox', saveCard: true, mode: 'popup' });
    const [card] = await fanstage.wallet.loadCards(true);
    expect(card).toBeDefined();
    // Asked before the removal (as a paid top-up asks), answered with the card still in it.
    const stale = fanstage.wallet.loadCards(true);
    await fanstage.wallet.deleteCard(card!.id);
    expect(await stale).toHaveLength(1);
    expect(fanstage.wallet.cards.value).toEqual([]);
    expect(await fanstage.wallet.loadCards(true)).toEqual([]);
  });

  it('closes the card window only once /gopay-return in it has reported, never under a page still resuming its session', async () => {
    // The return page resumes the session (a refresh that rotates the cookie) before it reports;
    // a window closed under that request would leave the browser with a spent refresh token.
    const silent = messageSource();
    const quiet = cardWindows(cards.ok, messageSource());
    const handles: PopupHandle[] = [];
    const first = await as({}, { payments: { openWindow: (url) => handles[handles.push(quiet.open(url)) - 1]!, messages: silent, pollMs: 20 } });
    const pkg = await firstPackage(first.fanstage);
    const paid = await first.fanstage.wallet.topUp({ packageId: pkg.id, processor: 'sandbox', mode: 'popup' });
    expect(paid.status).toBe('paid');
    expect(handles).toHaveLength(1);
    expect(handles[0]!.closed).toBe(false);

    // Reported: the payer's page closes the window it opened.
    const messages = messageSource();
    const reporting = cardWindows(cards.ok, messages);
    const opened: PopupHandle[] = [];
    const second = await as({}, { payments: { openWindow: (url) => opened[opened.push(reporting.open(url)) - 1]!, messages, pollMs: 60_000 } });
    expect((await second.fanstage.wallet.topUp({ packageId: pkg.id, processor: 'sandbox', mode: 'popup' })).status).toBe('paid');
    expect(opened).toHaveLength(1);
    expect(opened[0]!.closed).toBe(true);
  });

  it('stops waiting when the person closes the card window without paying', async () => {
    const opened: string[] = [];
    const handle = { closed: false, close: () => undefined, location: { set href(url: string) { opened.push(url); handle.closed = true; } } };
    const { fanstage } = await as({}, { payments: { openWindow: () => handle, pollMs: 20 } });
    const pkg = await firstPackage(fanstage);
    const failure = await fanstage.wallet.topUp({ packageId: pkg.id, processor: 'sandbox', mode: 'popup' }).catch((error: unknown) => error);
    expect(isSdkError(failure) && failure.code).toBe('aborted');
    expect(opened).toHaveLength(1);
    expect(fanstage.wallet.payment.value).toBeNull();
  });

  it('tips a creator from the wallet and applies the new balance; a creator earns the gift', async () => {
    const creator = await as({ seller: true });
    const { account, fanstage } = await as();
    const g = await aGift(fanstage, 0);
    await fundWallet(server.app, account.id, g.gValue + 3);
    await fanstage.wallet.refresh();
    const result = await fanstage.wallet.tip(creator.account.id, g.id);
    expect(result.gBalance).toBe(3);
    expect(fanstage.wallet.balance.value?.gBalance).toBe(3);
    expect(await walletOf(server.app, account.id)).toBe(3);
    expect(await earningsOf(server.app, creator.account.id)).toBe(g.cValue);

    // Another tip it cannot pay for: noMoney, for the caller to open the top-up; nothing moves.
    const failure = await fanstage.wallet.tip(creator.account.id, g.id).catch((error: unknown) => error);
    expect(isSdkError(failure) && failure.code).toBe('noMoney');
    expect(await walletOf(server.app, account.id)).toBe(3);
  });

  it('sends a tip again with the same key after its answer was lost, so it is given once', async () => {
    const creator = await as({ seller: true });
    let loseNextTipAnswer = true;
    const losingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (loseNextTipAnswer && String(input instanceof Request ? input.url : input).includes('/api/users/tip')) {
        loseNextTipAnswer = false;
        await response.arrayBuffer();
        // The request reached the server and was carried out; only the answer never arrived.
        throw new TypeError('fetch failed');
      }
      return response;
    };
    const { account, fanstage } = await as({}, { fetch: losingFetch });
    const g = await aGift(fanstage, 0);
    await fundWallet(server.app, account.id, g.gValue * 3);
    const lost = await fanstage.wallet.tip(creator.account.id, g.id).catch((error: unknown) => error);
    expect(isSdkError(lost) && lost.code).toBe('network');
    expect(await walletOf(server.app, account.id)).toBe(g.gValue * 2);
    // The fan presses send again: the server recognises the attempt and charges nothing more.
    const resent = await fanstage.wallet.tip(creator.account.id, g.id);
    expect(resent.gBalance).toBe(g.gValue * 2);
    expect(await walletOf(server.app, account.id)).toBe(g.gValue * 2);
    // A new tip after that is a new gift.
    await fanstage.wallet.tip(creator.account.id, g.id);
    expect(await walletOf(server.app, account.id)).toBe(g.gValue);
    expect(await earningsOf(server.app, creator.account.id)).toBe(g.cValue * 2);
    await expectLedgerBalanced(server.app);
  });

  it('gifts on a post, and unlocks a priced media returning its key', async () => {
    const creator = await as({ seller: true });
    const { account, fanstage } = await as();
    const db = server.app.fanstage.db;
    const [post] = await db.insert(posts).values({ userId: creator.account.id, text: 'locked', publishedAt: new Date(Date.now() - 60_000) }).returning({ id: posts.id });
    const hash = randomBytes(16).toString('hex');
    const [m] = await db.insert(media).values({ hash, ownerId: creator.account.id, kind: 'post', format: 'webp', width: 800, height: 600, status: 3, price: 95 }).returning({ id: media.id });
    await db.insert(postMedia).values({ postId: post!.id, mediaId: m!.id, position: 0 });
    const salt = server.app.fanstage.config.priceSalt;
    const g = await aGift(fanstage, 0);
    await fundWallet(server.app, account.id, g.gValue + fanPriceCents(95, salt));
    await fanstage.session.loadAccount();
    await fanstage.account.updateMe({ nsfwAgreement: 1 });

    const gifted = await fanstage.wallet.gift(post!.id, g.id);
    expect(gifted.gBalance).toBe(fanPriceCents(95, salt));

    // A price other than the current one is refused.
    const changed = await fanstage.wallet.unlock({ mediaId: m!.id, mediaPrice: 64 }).catch((error: unknown) => error);
    expect(isSdkError(changed) && changed.code).toBe('price-changed');
    const unlocked = await fanstage.wallet.unlock({ mediaId: m!.id, mediaPrice: 95 });
    expect(unlocked.mediaId).toBe(m!.id);
    expect(unlocked.mediaUnlockHash).toMatch(/\S{8,}/);
    expect(fanstage.wallet.balance.value?.gBalance ?? unlocked.gBalance).toBe(0);
    expect(await walletOf(server.app, account.id)).toBe(0);
  });

  it('forgets the money of a fan who logs out', async () => {
    const { account, fanstage } = await as();
    await fundWallet(server.app, account.id, 120);
    await fanstage.wallet.refresh();
    expect(fanstage.wallet.balance.value?.gBalance).toBe(120);
    await fanstage.session.logout();
    expect(fanstage.wallet.balance.value).toBeNull();
    expect(await fanstage.wallet.refresh()).toBeNull();
  });
});

describe('the earnings store on the real server', { timeout: 30_000 }, () => {
  it('shows unacknowledged earnings, acknowledges them and the first-earnings popup on the server', async () => {
    const creator = await as({ seller: true });
    const fan = await as();
    const g = await aGift(fan.fanstage, 1);
    await fundWallet(server.app, fan.account.id, g.gValue * 2);
    await fan.fanstage.wallet.tip(creator.account.id, g.id);

    const { earnings, wallet } = creator.fanstage;
    await wallet.refresh();
    expect(earnings.cBalance.value).toBe(g.cValue);
    expect(earnings.unacked.value).toBe(g.cValue);
    expect(earnings.hasEarnings.value).toBe(true);
    expect(earnings.firstEarningsSeen.value).toBe(false);

    await earnings.ack({ firstEarningsSeen: true });
    expect(earnings.unacked.value).toBe(0);
    expect(earnings.firstEarningsSeen.value).toBe(true);

    // The server remembers: a fresh page of the same creator sees the same.
    const again = createFanstage({ baseUrl: server.baseUrl, session: { mode: 'cookie' } });
    again.session.adopt({ accessToken: creator.account.accessToken });
    await again.wallet.refresh();
    expect(again.earnings.unacked.value).toBe(0);
    expect(again.earnings.firstEarningsSeen.value).toBe(true);

    // New earnings after the acknowledgement show again.
    await fan.fanstage.wallet.tip(creator.account.id, g.id);
    await wallet.refresh();
    expect(earnings.unacked.value).toBe(g.cValue);

    // The earnings lines list both gifts.
    await earnings.lines.start();
    expect(earnings.lines.items.value.length).toBe(2);
  });

  it('refuses a payout under the minimum, then requests one and lists it', async () => {
    const creator = await as({ seller: true });
    const fan = await as();
    const big = (await fan.fanstage.api.gifts()).reduce((a, b) => (b.cValue > a.cValue ? b : a));
    const tips = Math.ceil(MIN_PAYOUT_CENTS / big.cValue);
    await fundWallet(server.app, fan.account.id, big.gValue * tips);
    for (let i = 0; i < tips; i++) await fan.fanstage.wallet.tip(creator.account.id, big.id);
    const earned = big.cValue * tips;
    await creator.fanstage.wallet.refresh();
    expect(creator.fanstage.earnings.cBalance.value).toBe(earned);

    const small = await creator.fanstage.earnings.payout(MIN_PAYOUT_CENTS - 1, 'paypal').catch((error: unknown) => error);
    expect(isSdkError(small) && small.code).toBe('payout-too-small');
    expect(await earningsOf(server.app, creator.account.id)).toBe(earned);

    // Without a destination the payout is refused; the one kept is where it goes.
    const nowhere = await creator.fanstage.earnings.payout(earned, 'paypal').catch((error: unknown) => error);
    expect(isSdkError(nowhere) && nowhere.code).toBe('payout-destination-required');
    expect(await creator.fanstage.earnings.loadDestination()).toMatchObject({ method: null, minimumCents: MIN_PAYOUT_CENTS });
    await creator.fanstage.earnings.setDestination({ method: 'paypal', paypalEmail: 'creator@example.com' });
    expect(creator.fanstage.earnings.destination.value).toMatchObject({ method: 'paypal', paypalEmail: 'creator@example.com' });

    const payout = await creator.fanstage.earnings.payout(earned, 'paypal');
    expect(payout).toMatchObject({ amount: earned, method: 'paypal', status: 'requested', destination: 'creator@example.com' });
    expect(creator.fanstage.earnings.cBalance.value).toBe(0);
    expect(creator.fanstage.earnings.cPayout.value).toBe(earned);
    expect(creator.fanstage.earnings.payouts.value?.map((p) => p.amount)).toEqual([earned]);
    await expectLedgerBalanced(server.app);
  });
});

describe('the subscriptions store on the real server', { timeout: 30_000 }, () => {
  it('subscribes with credits and by card in a popup, cancels and continues, and lists both sides', async () => {
    const creator = await as({ seller: true });
    const offer = await creator.fanstage.subscriptions.createOffer({ name: 'Monthly', priceCents: 95 });
    const salt = server.app.fanstage.config.priceSalt;

    // With credits.
    const fan = await as();
    await fundWallet(server.app, fan.account.id, fanPriceCents(95, salt));
    const [shown] = await fan.fanstage.subscriptions.offers(creator.account.id);
    expect(shown).toMatchObject({ id: offer.id, priceCents: 95, subscription: null });
    const subscription = await fan.fanstage.subscriptions.subscribe(offer.id, 95);
    expect(subscription.subscriptionStatus).toBe(21);
    expect(fan.fanstage.wallet.balance.value?.gBalance).toBe(0);
    expect(await walletOf(server.app, fan.account.id)).toBe(0);

    const cancelled = await fan.fanstage.subscriptions.cancel(subscription.id);
    expect(cancelled?.subscriptionStatus).toBe(24);
    const continued = await fan.fanstage.subscriptions.revertCancel(subscription.id);
    expect(continued?.subscriptionStatus).toBe(21);

    await fan.fanstage.subscriptions.subscribing.start();
    expect(fan.fanstage.subscriptions.subscribing.items.value.map((s) => s.offerId)).toEqual([offer.id]);

    // By a new card, the card page in a popup.
    const messages = messageSource();
    const windows = cardWindows(cards.ok, messages);
    const byCard = await as({}, { payments: { openWindow: windows.open, messages, pollMs: 50 } });
    const order = await byCard.fanstage.subscriptions.subscribeByCard(offer.id, { processor: 'sandbox', mode: 'popup' });
    expect(order).toMatchObject({ status: 'paid', purpose: 'subscription' });
    expect(windows.opened).toHaveLength(1);
    const [mine] = await byCard.fanstage.subscriptions.offers(creator.account.id);
    expect(mine?.subscription?.subscriptionStatus).toBe(21);

    const subscribers = creator.fanstage.subscriptions.subscribers(offer.id);
    await subscribers.start();
    expect(subscribers.items.value.map((s) => s.subscriberUserId).sort()).toEqual([fan.account.id, byCard.account.id].sort());
    await expectLedgerBalanced(server.app);
  });
});
