import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Fanstage } from '../../lib/sdk';
import { PayoutRequest } from '../../lib/ui';
import { paymentCards, payoutRequests } from '../../server/src/db/schema';
import { MIN_PAYOUT_CENTS, PAYOUT_RESEND_WINDOW_MS } from '../../server/src/features/spending/domain';
import { account as ledgerAccount, transfer } from '../../server/src/ledger';
import { eq } from '../support/db';
import type { TestServer } from '../support/server';
import { earningsOf } from '../support/money';
import { renderWith, violationsIn } from './support/auth';
import { loggedInOn, startRealServer } from './support/realServer';

let server: TestServer;
const opened: Fanstage[] = [];

beforeAll(async () => {
  server = await startRealServer();
}, 60_000);

afterEach(() => {
  for (const fanstage of opened.splice(0)) fanstage.session.dispose();
});

afterAll(async () => {
  await server?.close();
});

let earned = 0;
/** A creator who earned `cents` (as a fan's payments would leave them), with the balance loaded. */
async function creatorWhoEarned(cents: number) {
  const who = await loggedInOn(server, { seller: true });
  opened.push(who.fanstage);
  await server.app.fanstage.db.transaction((tx) =>
    transfer(tx, {
      key: `payout-request-test:${who.account.id}:${++earned}`,
      kind: 'correction',
      userId: who.account.id,
      legs: [
        { account: ledgerAccount.promotions, amount: -cents },
        { account: ledgerAccount.earnings(who.account.id), amount: cents },
      ],
    }),
  );
  await who.fanstage.wallet.refresh();
  return who;
}

const dollars = (cents: number) => `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

describe('PayoutRequest against the real server', { timeout: 30_000 }, () => {
  it('shows the minimum first, keeps the PayPal address, and lists where the payout went', async () => {
    const { account, fanstage } = await creatorWhoEarned(MIN_PAYOUT_CENTS * 2);
    const { container } = renderWith(fanstage, <PayoutRequest />);
    const form = await screen.findByRole('form', { name: 'Request a payout' });
    expect(await within(form).findByText(`The smallest payout is ${dollars(MIN_PAYOUT_CENTS)}.`)).toBeInTheDocument();
    expect(within(form).getByRole('radio', { name: 'PayPal' })).toBeChecked();
    expect(await violationsIn(container)).toEqual([]);

    // Under the minimum: refused, naming it, nothing asked of the server.
    const amount = within(form).getByRole('textbox', { name: 'Amount in dollars' });
    await userEvent.clear(amount);
    await userEvent.type(amount, '5');
    await userEvent.type(within(form).getByRole('textbox', { name: 'PayPal e-mail' }), 'lucy@example.com');
    await userEvent.click(within(form).getByRole('button', { name: 'Request payout' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(`FAILED: The smallest payout is ${dollars(MIN_PAYOUT_CENTS)}.`);

    await userEvent.clear(amount);
    await userEvent.type(amount, String(MIN_PAYOUT_CENTS / 100));
    await userEvent.click(within(form).getByRole('button', { name: 'Request payout' }));
    expect(await within(form).findByRole('status')).toHaveTextContent(`Payout of ${dollars(MIN_PAYOUT_CENTS)} requested.`);
    const rows = await server.app.fanstage.db.select().from(payoutRequests).where(eq(payoutRequests.userId, account.id));
    expect(rows).toMatchObject([{ amount: MIN_PAYOUT_CENTS, method: 'paypal', destination: 'lucy@example.com', status: 'requested' }]);
    expect(await earningsOf(server.app, account.id)).toBe(MIN_PAYOUT_CENTS);
    expect(fanstage.earnings.payouts.value).toMatchObject([{ destination: 'lucy@example.com', status: 'requested' }]);
  });

  it('fills in the kept destination, pays to a saved card, and says FAILED with the reason the server gives', async () => {
    const { account, fanstage } = await creatorWhoEarned(MIN_PAYOUT_CENTS * 2);
    const [card] = await server.app.fanstage.db
      .insert(paymentCards)
      .values({ userId: account.id, processor: 'sandbox', token: `tok-${account.id}`, brand: 'visa', last4: '4242', expMonth: 1, expYear: 2040 })
      .returning({ id: paymentCards.id });
    await fanstage.earnings.setDestination({ method: 'paypal', paypalEmail: 'kept@example.com' });
    renderWith(fanstage, <PayoutRequest />, 'en');
    const form = await screen.findByRole('form', { name: 'Request a payout' });
    await waitFor(() => expect(within(form).getByRole('textbox', { name: 'PayPal e-mail' })).toHaveValue('kept@example.com'));

    await userEvent.click(within(form).getByRole('radio', { name: 'Credit card' }));
    const cardChoice = await within(form).findByRole('combobox', { name: 'Card' });
    expect(cardChoice).toHaveValue(String(card!.id));
    const amount = within(form).getByRole('textbox', { name: 'Amount in dollars' });
    await userEvent.clear(amount);
    await userEvent.type(amount, String(MIN_PAYOUT_CENTS / 100));
    await userEvent.click(within(form).getByRole('button', { name: 'Request payout' }));
    expect(await within(form).findByRole('status')).toHaveTextContent(`Payout of ${dollars(MIN_PAYOUT_CENTS)} requested.`);
    const [row] = await server.app.fanstage.db.select().from(payoutRequests).where(eq(payoutRequests.userId, account.id));
    expect(row).toMatchObject({ method: 'card', destination: 'visa •••• 4242' });

    // The rest is asked for from another device meanwhile: the server refuses this one, and the reason is appended to FAILED.
    server.app.fanstage.clock.advance(PAYOUT_RESEND_WINDOW_MS + 1);
    const elsewhere = await server.app.inject({
      method: 'POST',
      url: '/api/earnings/payout',
      headers: { authorization: `Bearer ${account.accessToken}` },
      payload: { cPayout: MIN_PAYOUT_CENTS },
    });
    expect(elsewhere.json().statusCode).toBe(2);
    await userEvent.click(within(form).getByRole('radio', { name: 'PayPal' }));
    await userEvent.clear(amount);
    await userEvent.type(amount, String(MIN_PAYOUT_CENTS / 100));
    await userEvent.click(within(form).getByRole('button', { name: 'Request payout' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(/^FAILED: \S/);
    expect(await earningsOf(server.app, account.id)).toBe(0);
  });

  it('speaks Czech and says a card payout needs a saved card', async () => {
    const { fanstage } = await creatorWhoEarned(MIN_PAYOUT_CENTS);
    renderWith(fanstage, <PayoutRequest />, 'cs');
    const form = await screen.findByRole('form');
    expect(await within(form).findByText(`Nejmenší výplata je ${dollars(MIN_PAYOUT_CENTS)}.`)).toBeInTheDocument();
    await userEvent.click(within(form).getAllByRole('radio')[1]!);
    expect(await within(form).findByTestId('payout-no-card')).toHaveTextContent('Nemáte uloženou kartu.');
  });
});
