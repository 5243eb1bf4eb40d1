import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage, PAYMENT_MESSAGE, type Fanstage, type Gift, type PopupHandle } from '../../lib/sdk';
import { TipButton } from '../../lib/ui';
import { defineElements, tipButtonTag } from '../../elements';
import type { TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { earningsOf, fundWallet, walletOf } from '../support/money';
import { renderWith, violationsIn } from './support/auth';
import { startRealServer } from './support/realServer';

let server: TestServer;
let creator: TestAccount;
let gifts: Gift[];

beforeAll(async () => {
  server = await startRealServer();
  creator = await createAccount(server.app, { seller: true });
  gifts = await createFanstage({ baseUrl: server.baseUrl }).api.gifts();
}, 60_000);

afterAll(async () => {
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
}, 30_000);

const unescape = (value: string) => value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** The person on the sandbox card page: pays with a good card; the return page tells the opener. */
async function payOnCardPage(url: string, messages: EventTarget): Promise<void> {
  const page = await fetch(url, { headers: { accept: 'text/html' } }).then((r) => r.text());
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1] ?? '';
  const fields: Record<string, string> = {};
  for (const match of page.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) fields[match[1]!] = unescape(match[2]!);
  const response = await fetch(new URL(unescape(action), server.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Ada Fan' }).toString(),
    redirect: 'manual',
  });
  await response.arrayBuffer();
  const id = new URL(response.headers.get('location') ?? '', server.baseUrl).searchParams.get('id');
  messages.dispatchEvent(new MessageEvent('message', { origin: new URL(server.baseUrl).origin, data: { type: PAYMENT_MESSAGE, id } }));
}

function fanstageWithCardWindow(): Fanstage {
  const messages = new EventTarget() as EventTarget & Window;
  const visit = (url: string) => url !== 'about:blank' && void payOnCardPage(url, messages);
  const openWindow = (url: string): PopupHandle => {
    visit(url);
    return { closed: false, close() {}, location: { set href(next: string) { visit(next); } } } as PopupHandle;
  };
  return createFanstage({ baseUrl: server.baseUrl, payments: { openWindow, messages, pollMs: 50 } });
}

async function signedIn(fanstage: Fanstage, credits: number): Promise<TestAccount> {
  const fan = await createAccount(server.app);
  if (credits > 0) await fundWallet(server.app, fan.id, credits);
  fanstage.session.adopt({ accessToken: fan.accessToken });
  await fanstage.session.loadAccount();
  return fan;
}

const tipButton = () => screen.findByRole('button', { name: /^Send a tip to / });

describe('TipButton against the real server', { timeout: 30_000 }, () => {
  it('asks a visitor to sign in first and opens nothing when the sign-in is cancelled', async () => {
    const onLoginRequired = vi.fn(() => Promise.resolve(false));
    const { container } = renderWith(createFanstage({ baseUrl: server.baseUrl }), <TipButton creator={creator.username} onLoginRequired={onLoginRequired} />);
    await userEvent.setup().click(await tipButton());
    expect(onLoginRequired).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await violationsIn(container)).toEqual([]);
  });

  it('opens the gift picker after the sign-in, closes on Escape, and sends the chosen gift', async () => {
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    const gift = gifts[1]!;
    let fan: TestAccount | null = null;
    // As the widget's popup sign-in does: the fan signs in elsewhere and the session adopts it.
    const onLoginRequired = async () => {
      fan = await signedIn(fanstage, gift.gValue + 10);
      return true;
    };
    const earnedBefore = await earningsOf(server.app, creator.id);
    const { container } = renderWith(fanstage, <TipButton creator={creator.username} onLoginRequired={onLoginRequired} />);
    const user = userEvent.setup();
    const button = await tipButton();
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: /^Send .+ a tip$/ });
    const radios = await within(dialog).findAllByRole('radio');
    expect(radios).toHaveLength(gifts.length);
    expect(await violationsIn(container)).toEqual([]);

    // Escape closes it and focus returns to the button.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button).toHaveFocus();

    // Keyboard: open, arrow to the second gift, send.
    await user.keyboard('{Enter}');
    const again = await screen.findByRole('dialog');
    const first = (await within(again).findAllByRole('radio'))[0]!;
    first.focus();
    await user.keyboard('{ArrowRight}');
    expect(within(again).getAllByRole('radio')[1]).toHaveAttribute('aria-checked', 'true');
    await user.click(within(again).getByRole('button', { name: new RegExp(`^Send ${gift.name} for \\$`) }));

    expect(await screen.findByText('Gift sent. Thank you!')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await walletOf(server.app, fan!.id)).toBe(10);
    expect(await earningsOf(server.app, creator.id)).toBe(earnedBefore + gift.cValue);
  });

  it('opens the top-up inside the dialog when the fan is short, then returns to the tip and sends it', async () => {
    const fanstage = fanstageWithCardWindow();
    const fan = await signedIn(fanstage, 0);
    const gift = gifts[0]!;
    renderWith(fanstage, <TipButton creator={creator.username} />);
    const user = userEvent.setup();
    await user.click(await tipButton());
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findAllByRole('radio');
    await user.click(within(dialog).getByRole('button', { name: new RegExp(`^Send ${gift.name} for`) }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You need more credits for this gift. Buy credits, then send it.');
    await within(dialog).findByRole('group', { name: 'Choose a package' });
    await user.click(within(dialog).getByRole('button', { name: /^Pay \$/ }));

    // Paid: back at the tip with the balance shown, and the gift goes out.
    const send = await within(dialog).findByRole('button', { name: new RegExp(`^Send ${gift.name} for`) });
    expect(within(dialog).getByText(/^Your balance: \$/)).toBeInTheDocument();
    await user.click(send);
    expect(await screen.findByText('Gift sent. Thank you!')).toBeInTheDocument();
    const [pkg] = await fanstage.wallet.loadPackages();
    await waitFor(async () => expect(await walletOf(server.app, fan.id)).toBe(pkg!.cValue - gift.gValue));
  });

  it('shows nothing on the creator’s own button, and speaks Czech', async () => {
    const own = createFanstage({ baseUrl: server.baseUrl });
    own.session.adopt({ accessToken: creator.accessToken });
    await own.session.loadAccount();
    renderWith(own, <TipButton creator={creator.username} />);
    const other = createFanstage({ baseUrl: server.baseUrl });
    renderWith(other, <TipButton creator={creator.username} />, 'cs');
    expect(await screen.findByRole('button', { name: /^Poslat spropitné pro / })).toBeInTheDocument();
    expect(screen.queryAllByRole('button', { name: /^Send a tip/ })).toHaveLength(0);
  });

  it('works as <fanstage-tip-button> in its shadow root, signing a visitor in through the platform popup', async () => {
    defineElements();
    const element = document.createElement(tipButtonTag);
    element.setAttribute('creator', `@${creator.username}`);
    element.setAttribute('api-base', server.baseUrl);
    document.body.append(element);
    let button: HTMLButtonElement | null = null;
    await waitFor(() => {
      button = element.shadowRoot?.querySelector<HTMLButtonElement>('button[aria-haspopup="dialog"]') ?? null;
      expect(button?.textContent).toMatch(/^Send a tip to /);
    });
    // The styles travel inside the shadow root with the markup's class names.
    const css = Array.from(element.shadowRoot!.querySelectorAll('style'), (style) => style.textContent).join('\n');
    for (const name of button!.className.split(' ')) expect(css).toContain(`.${name}`);
    // jsdom opens no windows: the sign-in popup is refused, as a blocking browser would, and the widget says so.
    button!.click();
    await waitFor(() => expect(element.shadowRoot?.querySelector('[role="alert"]')?.textContent).toContain('Your browser blocked the Fanstage window'));
    element.remove();
  });
});
