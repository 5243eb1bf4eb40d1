import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage, type Fanstage, type Gift } from '../../lib/sdk';
import { EarningsWidget, FirstEarningsPopup, formatMoney } from '../../lib/ui';
import type { TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { fundWallet } from '../support/money';
import { renderWith, violationsIn } from './support/auth';
import { startRealServer } from './support/realServer';

let server: TestServer;
let gift: Gift;

beforeAll(async () => {
  server = await startRealServer();
  const catalogue = await createFanstage({ baseUrl: server.baseUrl }).api.gifts();
  gift = catalogue[0]!;
}, 60_000);

afterAll(async () => {
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
}, 30_000);

async function fanstageOf(account: TestAccount): Promise<Fanstage> {
  const fanstage = createFanstage({ baseUrl: server.baseUrl });
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  return fanstage;
}

/** A fan tips the creator `times` with the first gift of the catalogue. */
async function tip(creator: TestAccount, times = 1): Promise<void> {
  const fan = await createAccount(server.app);
  await fundWallet(server.app, fan.id, gift.gValue * times);
  const fanstage = await fanstageOf(fan);
  for (let i = 0; i < times; i++) await fanstage.wallet.tip(creator.id, gift.id);
}

describe('EarningsWidget against the real server', { timeout: 30_000 }, () => {
  it('shows the creator’s earnings and highlights a rise for a while', async () => {
    const creator = await createAccount(server.app, { seller: true });
    await tip(creator);
    const fanstage = await fanstageOf(creator);
    const { container } = renderWith(fanstage, <EarningsWidget />);
    const region = await screen.findByRole('region', { name: 'Your earnings' });
    expect(await within(region).findByText(formatMoney(gift.cValue))).toBeInTheDocument();
    expect(region).not.toHaveAttribute('data-rising');
    expect(await violationsIn(container)).toEqual([]);

    // New earnings arrive (a refresh, as after the websocket's amountChange).
    await tip(creator, 2);
    await fanstage.wallet.refresh();
    expect(await within(region).findByText(formatMoney(gift.cValue * 3))).toBeInTheDocument();
    expect(within(region).getByRole('status')).toHaveTextContent(`New earnings: +${formatMoney(gift.cValue * 2)}`);
    expect(region).toHaveAttribute('data-rising', 'true');
    // The highlight goes away by itself (SPEC §9: 5 s).
    await waitFor(() => expect(region).not.toHaveAttribute('data-rising'), { timeout: 8000 });
    expect(within(region).getByRole('status')).toBeEmptyDOMElement();
  });

  it('shows nothing to a visitor and speaks Czech', async () => {
    const visitor = renderWith(createFanstage({ baseUrl: server.baseUrl }), <EarningsWidget />);
    expect(visitor.container.querySelector('section')).toBeNull();
    const creator = await createAccount(server.app, { seller: true });
    renderWith(await fanstageOf(creator), <EarningsWidget />, 'cs');
    const region = await screen.findByRole('region', { name: 'Vaše výdělky' });
    expect(await within(region).findByText('$0.00')).toBeInTheDocument();
  });
});

describe('FirstEarningsPopup against the real server', { timeout: 30_000 }, () => {
  it('shows once with the payout methods; dismissing it is remembered by the server', async () => {
    const creator = await createAccount(server.app, { seller: true });
    await tip(creator);
    const fanstage = await fanstageOf(creator);
    const { container } = renderWith(fanstage, <FirstEarningsPopup />);
    const dialog = await screen.findByRole('dialog', { name: 'You have earned your first money!' });
    expect(within(dialog).getByText(new RegExp(`You have earned ${formatMoney(gift.cValue).replace('$', '\\$')} so far`))).toBeInTheDocument();
    expect(within(dialog).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['PayPal', 'Credit card']);
    expect(within(dialog).getByRole('button', { name: 'Got it' })).toHaveFocus();
    expect(await violationsIn(container)).toEqual([]);

    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fanstage.earnings.unacked.value).toBe(0);

    // A later visit: the server remembers, and the popup stays closed.
    const later = await fanstageOf(creator);
    await later.wallet.refresh();
    expect(later.earnings.firstEarningsSeen.value).toBe(true);
    renderWith(later, <FirstEarningsPopup />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes on Escape and does not show to a creator without earnings', async () => {
    const none = await createAccount(server.app, { seller: true });
    const quiet = await fanstageOf(none);
    await quiet.wallet.refresh();
    renderWith(quiet, <FirstEarningsPopup />);
    expect(screen.queryByRole('dialog')).toBeNull();

    const creator = await createAccount(server.app, { seller: true });
    await tip(creator);
    renderWith(await fanstageOf(creator), <FirstEarningsPopup />, 'cs');
    await screen.findByRole('dialog', { name: 'Vydělali jste své první peníze!' });
    await userEvent.setup().keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    const later = await fanstageOf(creator);
    await waitFor(async () => {
      await later.wallet.refresh();
      expect(later.earnings.firstEarningsSeen.value).toBe(true);
    });
  });
});
