import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { randomBytes } from 'node:crypto';
import { createFanstage, fanPriceCents, formatPrice, type Fanstage } from '../../lib/sdk';
import { BalanceBadge, EarningsBadge, PriceDetail, UnlockMediaPopup } from '../../lib/ui';
import type { TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { eq } from '../support/db';
import { fundWallet, walletOf } from '../support/money';
import { media, postMedia, posts } from '../../server/src/db/schema';
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

/** A published post of the creator with one ready picture at a stored price. */
async function pricedPost(owner: TestAccount, price: number): Promise<{ postId: number; mediaId: number }> {
  const { db } = server.app.fanstage;
  const publishedAt = new Date(Date.now() - 60_000);
  const [p] = await db.insert(posts).values({ userId: owner.id, text: 'locked', publishedAt }).returning({ id: posts.id });
  const [m] = await db
    .insert(media)
    .values({ hash: randomBytes(16).toString('hex'), ownerId: owner.id, kind: 'post', format: 'webp', width: 800, height: 600, status: 3, price })
    .returning({ id: media.id });
  await db.insert(postMedia).values({ postId: p!.id, mediaId: m!.id, position: 0 });
  return { postId: p!.id, mediaId: m!.id };
}

/** A fan signed in on a fresh Fanstage, with credits, who has (or has not) agreed to adult content; the post loaded as their feed would. */
async function fanWith(credits: number, postId: number, { agreed = true }: { agreed?: boolean } = {}) {
  const session = await loggedInOn(server);
  opened.push(session.fanstage);
  if (credits > 0) await fundWallet(server.app, session.account.id, credits);
  if (agreed) session.fanstage.session.setAccount(await session.fanstage.account.updateMe({ nsfwAgreement: 1 }));
  await session.fanstage.posts.load(postId);
  return session;
}

describe('UnlockMediaPopup against the real server', { timeout: 30_000 }, () => {
  it('asks a fan who has not agreed to adult content first, then unlocks and shows the media in every list', async () => {
    const creator = await createAccount(server.app, { seller: true });
    const { postId } = await pricedPost(creator, 320);
    const price = fanPriceCents(320, salt);
    const { account, fanstage } = await fanWith(price + 100, postId, { agreed: false });
    const closed: number[] = [];
    const { container } = renderWith(fanstage, <UnlockMediaPopup postId={postId} onClose={() => closed.push(1)} autoClose={false} />);

    const dialog = await screen.findByRole('alertdialog', { name: 'Adult content' });
    const agree = await within(dialog).findByRole('button', { name: `I agree, unlock for ${formatPrice(320, salt)}` });
    expect(within(dialog).getByTestId('unlock-price')).toHaveTextContent(formatPrice(320, salt));
    await waitFor(() => expect(agree).toHaveFocus());
    expect(await violationsIn(container)).toEqual([]);

    await userEvent.click(agree);
    expect(await screen.findByText('Unlocked. Enjoy!')).toBeInTheDocument();
    expect(fanstage.session.account.value?.nsfwAgreement).toBe(1);
    expect(fanstage.posts.peek(postId)?.media[0]?.mediaUnlockHash).toEqual(expect.any(String));
    expect(await walletOf(server.app, account.id)).toBe(100);
    expect(fanstage.wallet.balance.value?.gBalance).toBe(100);
    // The server agrees: the post now comes with the key for this fan.
    await fanstage.posts.load(postId);
    expect(fanstage.posts.peek(postId)?.media[0]?.mediaUnlockHash).toEqual(expect.any(String));

    await userEvent.click(screen.getByRole('button', { name: 'Show media' }));
    expect(closed).toEqual([1]);
  });

  it('opens the credit purchase when the wallet is short, and comes back to the unlock without taking anything', async () => {
    const creator = await createAccount(server.app, { seller: true });
    const { postId } = await pricedPost(creator, 640);
    const { account, fanstage } = await fanWith(10, postId);
    renderWith(fanstage, <UnlockMediaPopup postId={postId} onClose={() => undefined} />);

    const dialog = await screen.findByRole('dialog', { name: 'Unlock media' });
    await userEvent.click(await within(dialog).findByRole('button', { name: `Unlock for ${formatPrice(640, salt)}` }));
    const topUp = await screen.findByRole('dialog', { name: 'Buy credits' });
    expect(within(topUp).getByText("You don't have enough credits.")).toBeInTheDocument();
    await userEvent.click(within(topUp).getByRole('button', { name: 'Back' }));

    expect(await screen.findByRole('dialog', { name: 'Unlock media' })).toBeInTheDocument();
    expect(await walletOf(server.app, account.id)).toBe(10);
    expect(fanstage.posts.peek(postId)?.media[0]?.mediaUnlockHash).toBeNull();
  });

  it('shows the new price when the creator changed it, and unlocks at the new price only once the fan accepts it', async () => {
    const creator = await createAccount(server.app, { seller: true });
    const { postId, mediaId } = await pricedPost(creator, 320);
    const { account, fanstage } = await fanWith(5000, postId);
    renderWith(fanstage, <UnlockMediaPopup postId={postId} onClose={() => undefined} autoClose={false} />);
    const unlock = await screen.findByRole('button', { name: `Unlock for ${formatPrice(320, salt)}` });
    await server.app.fanstage.db.update(media).set({ price: 640 }).where(eq(media.id, mediaId));

    await userEvent.click(unlock);
    expect(await screen.findByRole('alert')).toHaveTextContent(`The price has changed from ${formatPrice(320, salt)} to ${formatPrice(640, salt)}.`);
    expect(await walletOf(server.app, account.id)).toBe(5000);

    await userEvent.click(screen.getByRole('button', { name: `Unlock for ${formatPrice(640, salt)}` }));
    expect(await screen.findByText('Unlocked. Enjoy!')).toBeInTheDocument();
    expect(await walletOf(server.app, account.id)).toBe(5000 - fanPriceCents(640, salt));
  });

  it('warns that the post is gone when it was deleted meanwhile', async () => {
    const creator = await createAccount(server.app, { seller: true });
    const { postId } = await pricedPost(creator, 320);
    const { account, fanstage } = await fanWith(5000, postId);
    renderWith(fanstage, <UnlockMediaPopup postId={postId} onClose={() => undefined} />);
    const unlock = await screen.findByRole('button', { name: `Unlock for ${formatPrice(320, salt)}` });
    await server.app.fanstage.db.update(posts).set({ deletedAt: new Date() }).where(eq(posts.id, postId));

    await userEvent.click(unlock);
    expect(await screen.findByRole('alert')).toHaveTextContent("This post doesn't exist any more.");
    expect(await walletOf(server.app, account.id)).toBe(5000);
  });

  it('speaks Czech, offers the subscription of a creator who has offers, and closes with Escape', async () => {
    const creator = await createAccount(server.app, { seller: true });
    const { postId } = await pricedPost(creator, 320);
    // The creator's own offer, made through the API as the creator would.
    const own = await loggedInAs(creator);
    await own.subscriptions.createOffer({ name: 'Klub', priceCents: 320 });
    const { fanstage } = await fanWith(5000, postId);
    const closed: number[] = [];
    const { container } = renderWith(fanstage, <UnlockMediaPopup postId={postId} onClose={() => closed.push(1)} />, 'cs');

    const dialog = await screen.findByRole('dialog', { name: 'Odemknout médium' });
    expect(await within(dialog).findByRole('button', { name: `Odemknout za ${formatPrice(320, salt)}` })).toBeInTheDocument();
    const subscribe = within(dialog).getByRole('button', { name: 'Předplatit' });
    expect(await violationsIn(container)).toEqual([]);
    await userEvent.click(subscribe);
    expect(await screen.findByRole('radio', { name: /Klub/ })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(closed).toEqual([1]);
  });
});

/** A Fanstage signed in as an existing account. */
async function loggedInAs(account: TestAccount): Promise<Fanstage> {
  const fanstage = createFanstage({ baseUrl: server.baseUrl });
  fanstage.session.adopt({ accessToken: account.accessToken });
  opened.push(fanstage);
  return fanstage;
}

describe('PriceDetail, the breakdown of a price', { timeout: 30_000 }, () => {
  it('shows to the cent what the fan pays, what the creator earns and the platform fee, and closes with Escape', async () => {
    const { fanstage } = await loggedInOn(server);
    opened.push(fanstage);
    const closed: number[] = [];
    const { container } = renderWith(fanstage, <PriceDetail price={320} onClose={() => closed.push(1)} />);
    const dialog = await screen.findByRole('dialog', { name: 'Price detail' });
    const fan = fanPriceCents(320, salt);
    await waitFor(() => expect(within(dialog).getByTestId('price-detail-fan')).toHaveTextContent(dollars(fan)));
    expect(within(dialog).getByTestId('price-detail-creator')).toHaveTextContent('$3.20');
    expect(within(dialog).getByTestId('price-detail-fee')).toHaveTextContent(dollars(fan - 320));
    expect(within(dialog).getByRole('button', { name: 'OK' })).toHaveFocus();
    expect(await violationsIn(container)).toEqual([]);
    await userEvent.keyboard('{Escape}');
    expect(closed).toEqual([1]);
  });

  it('speaks Czech', async () => {
    const { fanstage } = await loggedInOn(server);
    opened.push(fanstage);
    renderWith(fanstage, <PriceDetail price={1280} salt={10_000} onClose={() => undefined} />, 'cs');
    const dialog = await screen.findByRole('dialog', { name: 'Podrobnosti ceny' });
    expect(within(dialog).getByText('Tvůrce vydělá')).toBeInTheDocument();
    expect(within(dialog).getByTestId('price-detail-fee')).toHaveTextContent('$0.00');
  });
});

describe('the balance and earnings badges', () => {
  it('read the amounts of SPEC §9 and say them in words', async () => {
    const { fanstage } = await loggedInOn(server);
    opened.push(fanstage);
    renderWith(
      fanstage,
      <>
        <BalanceBadge cents={50} />
        <EarningsBadge cents={40} />
        <EarningsBadge cents={0} error />
        <EarningsBadge cents={0} />
      </>,
    );
    expect(screen.getByTestId('balance-badge')).toHaveTextContent('$0.50');
    expect(screen.getByText('Balance $0.50')).toBeInTheDocument();
    const [small, flagged, ...none] = screen.getAllByTestId('earnings-badge');
    expect(small).toHaveTextContent('$1');
    expect(small).toHaveTextContent('$0.40 new');
    expect(flagged).toHaveTextContent('Your account needs your attention');
    expect(none).toHaveLength(0);
  });
});

function dollars(cents: number): string {
  return `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
