import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage, fanPriceCents, formatPrice, type Fanstage } from '../../lib/sdk';
import { SubscriptionStatus } from '../../lib/contract/constants';
import { SubscriptionPurchase } from '../../lib/ui';
import type { TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { fundWallet, walletOf } from '../support/money';
import { renderWith, violationsIn } from './support/auth';
import { loggedInOn, startRealServer } from './support/realServer';

let server: TestServer;
let salt: number;
const opened: Fanstage[] = [];

beforeAll(async () => {
  server = await startRealServer();
  salt = server.app.fanstage.config.priceSalt;
}, 60_000);

afterEach(() => {
  for (const fanstage of opened.splice(0)) fanstage.session.dispose();
});

afterAll(async () => {
  await server?.close();
});

/** A Fanstage signed in as an existing account. */
function signedIn(account: TestAccount): Fanstage {
  const fanstage = createFanstage({ baseUrl: server.baseUrl });
  fanstage.session.adopt({ accessToken: account.accessToken });
  opened.push(fanstage);
  return fanstage;
}

/** A seller with the given offers, made through the API as the creator would. */
async function creatorWith(...offers: Array<{ name: string; priceCents: number }>) {
  const creator = await createAccount(server.app, { seller: true });
  const own = signedIn(creator);
  const made = [];
  for (const offer of offers) made.push(await own.subscriptions.createOffer(offer));
  return { creator, offers: made };
}

async function fan(credits: number) {
  const session = await loggedInOn(server);
  opened.push(session.fanstage);
  if (credits > 0) await fundWallet(server.app, session.account.id, credits);
  return session;
}

describe('SubscriptionPurchase against the real server', { timeout: 30_000 }, () => {
  it('lists the offers with the fan price, subscribes with credits, and then offers no second subscription', async () => {
    const { creator } = await creatorWith({ name: 'Fan club', priceCents: 320 }, { name: 'VIP', priceCents: 1280 });
    const price = fanPriceCents(320, salt);
    const { account, fanstage } = await fan(price + 50);
    const subscribed: unknown[] = [];
    const { container } = renderWith(fanstage, <SubscriptionPurchase userId={creator.id} onClose={() => undefined} onSubscribed={(s) => subscribed.push(s)} />);

    const dialog = await screen.findByRole('dialog', { name: /^Subscribe/ });
    const club = await within(dialog).findByRole('radio', { name: new RegExp(`Fan club.*${formatPrice(320, salt).replace('$', '\\$')} a month`) });
    expect(within(dialog).getByRole('radio', { name: new RegExp(`VIP.*${formatPrice(1280, salt).replace('$', '\\$')} a month`) })).toBeInTheDocument();
    await userEvent.click(club);
    expect(within(dialog).getByRole('radio', { name: /Credits/ })).toBeChecked();
    expect(await violationsIn(container)).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: `Subscribe for ${formatPrice(320, salt)} a month` }));
    expect(await within(dialog).findByText("You are subscribed. The creator's posts are unlocked for you.")).toBeInTheDocument();
    expect(subscribed).toHaveLength(1);
    expect(await walletOf(server.app, account.id)).toBe(50);
    const mine = await fanstage.subscriptions.offers(creator.id);
    expect(mine.find((o) => o.name === 'Fan club')?.subscription?.subscriptionStatus).toBe(SubscriptionStatus.active);

    // SPEC §4: an active subscription starts no new offer, on this one or the other.
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: /^Subscribe for/ })).toBeNull());
    expect(within(dialog).getByTestId('subscription-held')).toHaveTextContent('You already have a subscription with this creator.');
    await userEvent.click(within(dialog).getByRole('radio', { name: /VIP/ }));
    expect(within(dialog).queryByRole('button', { name: /^Subscribe for/ })).toBeNull();
  });

  it('opens the credit purchase when the wallet cannot pay, and moves no money', async () => {
    const { creator } = await creatorWith({ name: 'Fan club', priceCents: 640 });
    const { account, fanstage } = await fan(10);
    renderWith(fanstage, <SubscriptionPurchase userId={creator.id} onClose={() => undefined} />);

    await userEvent.click(await screen.findByRole('button', { name: `Subscribe for ${formatPrice(640, salt)} a month` }));
    expect(await screen.findByRole('alert')).toHaveTextContent("You don't have enough credits.");
    await userEvent.click(screen.getByRole('button', { name: 'Buy credits' }));
    expect(await screen.findByRole('dialog', { name: 'Buy credits' })).toBeInTheDocument();
    expect(await walletOf(server.app, account.id)).toBe(10);
    const offers = await fanstage.subscriptions.offers(creator.id);
    expect(offers[0]?.subscription ?? null).toBeNull();
  });

  it('speaks Czech, is labelled for assistive technology, and closes with Escape', async () => {
    const { creator } = await creatorWith({ name: 'Klub', priceCents: 320 });
    const { fanstage } = await fan(0);
    const closed: number[] = [];
    const { container } = renderWith(fanstage, <SubscriptionPurchase userId={creator.id} onClose={() => closed.push(1)} />, 'cs');

    const dialog = await screen.findByRole('dialog', { name: /^Předplat/ });
    expect(await within(dialog).findByRole('radio', { name: new RegExp(`Klub.*${formatPrice(320, salt).replace('$', '\\$')} měsíčně`) })).toBeChecked();
    expect(within(dialog).getByRole('group', { name: 'Zaplatit' })).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'Nová karta' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: `Předplatit za ${formatPrice(320, salt)} měsíčně` })).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);
    await userEvent.keyboard('{Escape}');
    expect(closed).toEqual([1]);
  });

  it('says so when the creator has no offers', async () => {
    const { creator } = await creatorWith();
    const { fanstage } = await fan(0);
    renderWith(fanstage, <SubscriptionPurchase userId={creator.id} onClose={() => undefined} />);
    expect(await screen.findByText('This creator has no subscription offers.')).toBeInTheDocument();
  });
});
