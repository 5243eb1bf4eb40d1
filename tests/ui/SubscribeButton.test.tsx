import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage, fanPriceCents, formatPrice, type Fanstage } from '../../lib/sdk';
import { SubscribeButton } from '../../lib/ui';
import type { TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { fundWallet, walletOf, earningsOf } from '../support/money';
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

function signedIn(account: TestAccount): Fanstage {
  const fanstage = createFanstage({ baseUrl: server.baseUrl });
  fanstage.session.adopt({ accessToken: account.accessToken });
  opened.push(fanstage);
  return fanstage;
}

async function creatorWith(...offers: Array<{ name: string; priceCents: number }>) {
  const creator = await createAccount(server.app, { seller: true });
  const own = signedIn(creator);
  for (const offer of offers) await own.subscriptions.createOffer(offer);
  return { creator, own };
}

const money = (text: string) => text.replace('$', '\\$');

describe('SubscribeButton against the real server', { timeout: 30_000 }, () => {
  it('shows the monthly price on a creator’s profile, subscribes with credits, and then says Subscribed', async () => {
    const { creator } = await creatorWith({ name: 'Fan club', priceCents: 320 });
    const price = fanPriceCents(320, salt);
    const fan = await loggedInOn(server);
    opened.push(fan.fanstage);
    await fundWallet(server.app, fan.account.id, price);
    const { container } = renderWith(fan.fanstage, <SubscribeButton userId={creator.id} />);

    const button = await screen.findByRole('button', { name: `Subscribe · ${formatPrice(320, salt)} a month` });
    expect(await violationsIn(container)).toEqual([]);
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: /^Subscribe/ });
    await userEvent.click(await within(dialog).findByRole('button', { name: `Subscribe for ${formatPrice(320, salt)} a month` }));
    expect(await within(dialog).findByText("You are subscribed. The creator's posts are unlocked for you.")).toBeInTheDocument();
    expect(await walletOf(server.app, fan.account.id)).toBe(0);
    expect(await earningsOf(server.app, creator.id)).toBe(320);

    await userEvent.keyboard('{Escape}');
    expect(await screen.findByRole('button', { name: 'Subscribed' })).toBeInTheDocument();
  });

  it('names the cheapest of several offers, asks a visitor to log in, and speaks Czech', async () => {
    const { creator } = await creatorWith({ name: 'VIP', priceCents: 1280 }, { name: 'Klub', priceCents: 640 });
    const visitor = createFanstage({ baseUrl: server.baseUrl });
    opened.push(visitor);
    const asked: number[] = [];
    const { unmount } = renderWith(visitor, <SubscribeButton userId={creator.id} onLoginRequired={() => asked.push(1)} />);
    await userEvent.click(await screen.findByRole('button', { name: `Subscribe · from ${formatPrice(640, salt)} a month` }));
    expect(asked).toEqual([1]);
    expect(screen.queryByRole('dialog')).toBeNull();
    unmount();

    renderWith(visitor, <SubscribeButton userId={creator.id} onLoginRequired={() => undefined} />, 'cs');
    expect(await screen.findByRole('button', { name: new RegExp(`^Předplatit · od ${money(formatPrice(640, salt))} měsíčně$`) })).toBeInTheDocument();
  });

  it('keeps its place while the offers load when the profile says there are some, and shows no price before it knows it', async () => {
    const { creator } = await creatorWith({ name: 'Fan club', priceCents: 320 });
    const visitor = createFanstage({ baseUrl: server.baseUrl });
    opened.push(visitor);
    renderWith(visitor, (
      <>
        <SubscribeButton userId={creator.id} reserve />
        <SubscribeButton userId={creator.id} />
      </>
    ));
    // First render: one kept place, unseen by screen readers, with no real price in it.
    const placeholder = screen.getByTestId('subscribe-placeholder');
    expect(placeholder).toHaveAttribute('aria-hidden', 'true');
    expect(placeholder).not.toHaveTextContent(formatPrice(320, salt));
    expect(screen.queryAllByTestId('subscribe-placeholder')).toHaveLength(1);
    expect(screen.queryByRole('button')).toBeNull();
    // Then both buttons, and the kept place is gone.
    await waitFor(() => expect(screen.getAllByRole('button', { name: `Subscribe · ${formatPrice(320, salt)} a month` })).toHaveLength(2));
    expect(screen.queryByTestId('subscribe-placeholder')).toBeNull();
  });

  it('is not shown on one’s own profile, nor for a creator without offers or with only archived ones', async () => {
    const { creator, own } = await creatorWith({ name: 'Mine', priceCents: 320 });
    await own.session.loadAccount();
    const { unmount } = renderWith(own, <SubscribeButton userId={creator.id} />);
    // Give it the time a load would take, then check nothing came.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByTestId('subscribe-button')).toBeNull();
    unmount();

    const fan = await loggedInOn(server);
    opened.push(fan.fanstage);
    const { creator: none } = await creatorWith();
    const archived = await creatorWith({ name: 'Old', priceCents: 320 });
    const [offer] = await archived.own.subscriptions.offers(archived.creator.id);
    await archived.own.subscriptions.archiveOffer(offer!.id);
    renderWith(fan.fanstage, (
      <>
        <SubscribeButton userId={none.id} />
        <SubscribeButton userId={archived.creator.id} />
      </>
    ));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await waitFor(() => expect(screen.queryByTestId('subscribe-button')).toBeNull());
  });
});
