import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage, PAYMENT_MESSAGE, type Fanstage, type PopupHandle } from '../../lib/sdk';
import { WalletTopUp } from '../../lib/ui';
import { formatMoney } from '../../lib/ui/shared/money';
import { defineElements, walletTag } from '../../elements';
import { fanstageFor } from '../../elements/shared';
import type { TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { fundWallet, walletOf } from '../support/money';
import { renderWith, violationsIn } from './support/auth';
import { startRealServer } from './support/realServer';

let server: TestServer;

beforeAll(async () => {
  server = await startRealServer();
}, 60_000);

afterAll(async () => {
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
}, 30_000);

const unescape = (value: string) => value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** The person on the sandbox card page: types `number`, submits, and the return page tells the opener. */
async function payOnCardPage(url: string, number: string, messages: EventTarget): Promise<void> {
  const page = await fetch(url, { headers: { accept: 'text/html' } }).then((r) => r.text());
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
  if (!action) throw new Error(`No form on the card page: ${page.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const match of page.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) fields[match[1]!] = unescape(match[2]!);
  const response = await fetch(new URL(unescape(action), server.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, number, expiry: '12/34', cvc: '123', name: 'Ada Fan' }).toString(),
    redirect: 'manual',
  });
  await response.arrayBuffer();
  const id = new URL(response.headers.get('location') ?? '', server.baseUrl).searchParams.get('id');
  messages.dispatchEvent(new MessageEvent('message', { origin: new URL(server.baseUrl).origin, data: { type: PAYMENT_MESSAGE, id } }));
}

/** A signed-in fan whose card window (the popup) pays with `number`. */
async function fanPayingWith(number: string): Promise<{ account: TestAccount; fanstage: Fanstage; opened: string[] }> {
  const account = await createAccount(server.app);
  const messages = new EventTarget() as EventTarget & Window;
  const opened: string[] = [];
  const visit = (url: string) => {
    if (url === 'about:blank') return;
    opened.push(url);
    void payOnCardPage(url, number, messages);
  };
  const openWindow = (url: string): PopupHandle => {
    visit(url);
    return {
      closed: false,
      close() {},
      location: {
        set href(next: string) {
          visit(next);
        },
      },
    } as PopupHandle;
  };
  const fanstage = createFanstage({ baseUrl: server.baseUrl, payments: { openWindow, messages, pollMs: 50 } });
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  return { account, fanstage, opened };
}

describe('WalletTopUp against the real server', { timeout: 30_000 }, () => {
  it('buys a package with a new card in a popup, shows the new balance, and keeps the card', async () => {
    const { account, fanstage, opened } = await fanPayingWith('4242 4242 4242 4242');
    await fundWallet(server.app, account.id, 50);
    const { container } = renderWith(fanstage, <WalletTopUp mode="popup" />);
    expect(await screen.findByText('Your balance: $0.50')).toBeInTheDocument();
    const packages = await screen.findByRole('group', { name: 'Choose a package' });
    const choices = within(packages).getAllByRole('radio');
    expect(choices.length).toBeGreaterThan(0);
    expect(choices[0]).toBeChecked();
    expect(screen.getByRole('radio', { name: 'A new card' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Save the card for next time' })).toBeChecked();
    expect(await violationsIn(container)).toEqual([]);

    const [pkg] = await fanstage.wallet.loadPackages();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Pay \$/ }));
    const expected = `$${Math.floor((pkg!.cValue + 50) / 100)}.${String((pkg!.cValue + 50) % 100).padStart(2, '0')}`;
    expect(await screen.findByText(`Credits added. Your balance is now ${expected}.`)).toBeInTheDocument();
    expect(opened).toHaveLength(1);
    expect(await walletOf(server.app, account.id)).toBe(pkg!.cValue + 50);

    // The saved card is offered, and removing it removes it on the server.
    const remove = await screen.findByRole('button', { name: /^Remove Visa •••• 4242, expires 12\/34$/ });
    expect(screen.getByRole('radio', { name: 'Visa •••• 4242, expires 12/34' })).toBeInTheDocument();
    await user.click(remove);
    expect(await screen.findByText('Visa •••• 4242 was removed.')).toBeInTheDocument();
    await waitFor(async () => expect(await createFanstageFor(account).wallet.loadCards()).toEqual([]));
  });

  it('says the card was declined and moves no money', async () => {
    const { account, fanstage } = await fanPayingWith('4000 0000 0000 0002');
    renderWith(fanstage, <WalletTopUp mode="popup" />);
    await screen.findByRole('group', { name: 'Choose a package' });
    await userEvent.setup().click(screen.getByRole('button', { name: /^Pay \$/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The card was declined. No money was taken.');
    expect(await walletOf(server.app, account.id)).toBe(0);
  });

  it('offers the saved card first and the smallest package that covers a short purchase; the history shows a saved-card top-up at once', async () => {
    const { account, fanstage, opened } = await fanPayingWith('4242 4242 4242 4242');
    const packages = [...(await fanstage.wallet.loadPackages())].sort((a, b) => a.cValue - b.cValue);
    expect(packages.length).toBeGreaterThan(1);
    // A card saved with an earlier purchase.
    await fanstage.wallet.topUp({ packageId: packages[0]!.id, processor: 'sandbox', saveCard: true, mode: 'popup' });
    expect(opened).toHaveLength(1);
    const balance = await walletOf(server.app, account.id);
    // What the fan is buying costs more than the smallest package would bring her to.
    const needed = balance + packages[0]!.cValue + 1;
    const covering = packages.find((p) => balance + p.cValue >= needed) ?? packages[packages.length - 1]!;
    expect(covering.id).not.toBe(packages[0]!.id);
    await fanstage.wallet.transactions.start();
    const before = fanstage.wallet.transactions.items.value.length;

    const { container } = renderWith(fanstage, <WalletTopUp mode="popup" needed={needed} />);
    const group = await screen.findByRole('group', { name: 'Choose a package' });
    const saved = await screen.findByRole('radio', { name: 'Visa •••• 4242, expires 12/34' });
    expect(saved).toBeChecked();
    expect(screen.getByRole('radio', { name: 'A new card' })).not.toBeChecked();
    const checked = within(group).getAllByRole('radio').find((radio) => (radio as HTMLInputElement).checked)!;
    expect(checked).toHaveAccessibleName(new RegExp(`^${formatMoney(covering.cValue).replace(/[.$]/g, '\\$&')} in credits`));
    expect(await violationsIn(container)).toEqual([]);

    // Paid with the saved card (no card page): the history on screen has the purchase without a reload.
    await userEvent.setup().click(screen.getByRole('button', { name: `Pay ${formatMoney(covering.gValue)}` }));
    expect(await screen.findByText(/^Credits added\./)).toBeInTheDocument();
    expect(opened).toHaveLength(1);
    expect(await walletOf(server.app, account.id)).toBe(balance + covering.cValue);
    await waitFor(() => expect(fanstage.wallet.transactions.items.value.length).toBe(before + 1));
  });

  it('speaks Czech and asks a visitor to sign in', async () => {
    const account = await createAccount(server.app);
    await fundWallet(server.app, account.id, 1234);
    const fanstage = createFanstageFor(account);
    renderWith(fanstage, <WalletTopUp />, 'cs');
    expect(await screen.findByRole('heading', { name: 'Koupit kredity' })).toBeInTheDocument();
    expect(await screen.findByText('Váš zůstatek: $12.34')).toBeInTheDocument();
    expect(await screen.findByRole('group', { name: 'Vyberte balíček' })).toBeInTheDocument();

    renderWith(createFanstage({ baseUrl: server.baseUrl }), <WalletTopUp />);
    expect(screen.getByText('Sign in to buy credits.')).toBeInTheDocument();
  });
});

describe('<fanstage-wallet>', { timeout: 30_000 }, () => {
  it('shows a visitor the sign-in, and a signed-in fan the balance and the top-up in a dialog', async () => {
    defineElements();
    const element = document.createElement(walletTag);
    element.setAttribute('api-base', server.baseUrl);
    document.body.append(element);
    await waitFor(() => expect(element.shadowRoot?.querySelector('button')?.textContent).toBe('Sign in to see your balance'));

    // The fan signs in (as the popup sign-in ends): every element of this platform shares the session.
    const account = await createAccount(server.app);
    await fundWallet(server.app, account.id, 2500);
    fanstageFor(server.baseUrl, 'en').session.adopt({ accessToken: account.accessToken });
    await waitFor(() => expect(element.shadowRoot?.textContent).toContain('Your balance: $25.00'));
    const buy = Array.from(element.shadowRoot!.querySelectorAll('button')).find((b) => b.textContent === 'Buy credits')!;
    buy.click();
    await waitFor(() => {
      const dialog = element.shadowRoot!.querySelector('[role="dialog"]');
      // Named by its heading, found inside the same shadow root.
      expect(element.shadowRoot!.getElementById(dialog?.getAttribute('aria-labelledby') ?? '')?.textContent).toBe('Buy credits');
      expect(dialog?.querySelectorAll('input[name="package"]').length).toBeGreaterThan(0);
    });
    element.remove();
  });
});

function createFanstageFor(account: TestAccount): Fanstage {
  const fanstage = createFanstage({ baseUrl: server.baseUrl });
  fanstage.session.adopt({ accessToken: account.accessToken });
  return fanstage;
}
