import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, within } from '@testing-library/dom';
import userEvent from '@testing-library/user-event';
import { createFanstage, type Fanstage } from '../../lib/sdk';
import { chatTag, defineElements } from '../../elements';
import { fanstageFor } from '../../elements/shared';
import type { TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { fundWallet } from '../support/money';
import { WebSocket as NodeWebSocket } from 'ws';
import { startRealServer } from './support/realServer';
import { violationsIn } from './support/auth';

/**
 * The browser's WebSocket as the widget on this page would open it: with the page's Origin.
 * Vitest's jsdom environment hands out Node's own WebSocket, whose events jsdom's `Event`
 * cannot carry, so `ws` stands in for it.
 */
class PageWebSocket extends NodeWebSocket {
  constructor(url: string, protocols: string[]) {
    super(url, protocols, { origin: window.location.origin });
  }
}
const browserWebSocket = globalThis.WebSocket;

let server: TestServer;
let creator: TestAccount;
let creatorSide: Fanstage;

beforeAll(async () => {
  globalThis.WebSocket = PageWebSocket as unknown as typeof WebSocket;
  server = await startRealServer();
  creator = await createAccount(server.app, { seller: true, username: `lucy_${Date.now().toString(36)}` });
  creatorSide = createFanstage({ baseUrl: server.baseUrl });
  creatorSide.session.adopt({ accessToken: creator.accessToken });
  // The creator lists the page that embeds her chat (this test page's origin), as creators do.
  await creatorSide.account.updateMe({ embedOrigins: [window.location.origin], messagePrice: 16 });
}, 60_000);

afterEach(() => {
  document.body.innerHTML = '';
  fanstageFor(server.baseUrl, 'en').socket.disconnect();
});

afterAll(async () => {
  fanstageFor(server.baseUrl, 'en').session.dispose();
  globalThis.WebSocket = browserWebSocket;
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
}, 30_000);

async function widgetSessionOn(fan: TestAccount, origin: string, allowance = 0): Promise<{ accessToken: string; refreshToken: string }> {
  const issued = await server.app.inject({ method: 'POST', url: '/api/embed/code', headers: { authorization: `Bearer ${fan.accessToken}` }, payload: { origin, allow: true, allowance } });
  const { code } = (issued.json() as { body: { code: string } }).body;
  const exchanged = await server.app.inject({ method: 'POST', url: '/papi/embed/exchange', headers: { origin }, payload: { code, origin } });
  return (exchanged.json() as { body: { accessToken: string; refreshToken: string } }).body;
}

function addChat(attributes: Record<string, string>): HTMLElement {
  const element = document.createElement(chatTag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  document.body.append(element);
  return element;
}

function shadow(element: HTMLElement): HTMLElement {
  return element.shadowRoot as unknown as HTMLElement;
}

describe('<fanstage-chat>', { timeout: 30_000 }, () => {
  it('asks a visitor to sign in to chat with the creator, with its styles in its shadow root', async () => {
    defineElements();
    const element = addChat({ with: creator.username, 'api-base': server.baseUrl });
    const root = shadow(element);
    const button = await within(root).findByRole('button', { name: `Sign in to chat with ${creator.username}` });
    expect(button).toBeInTheDocument();
    const css = element.shadowRoot?.querySelector('style')?.textContent ?? '';
    const classes = new Set([...(element.shadowRoot?.querySelectorAll('[class]') ?? [])].flatMap((node) => [...node.classList]));
    for (const name of classes) expect(css, `class ${name} has no rule`).toContain(`.${name}`);
    expect(await violationsIn(element.shadowRoot as unknown as HTMLElement)).toEqual([]);
  });

  it('lets a signed-in fan chat with the creator: the price, the message box, Enter sends and the echo checks it', async () => {
    const fan = await createAccount(server.app);
    await fundWallet(server.app, fan.id, 1000);
    // What the platform's popup sign-in hands the widgets on this page: the fan allows the
    // page's origin (letting it spend up to $5 a month without asking him, so the paid message
    // goes without the confirmation popup), and the code becomes a widget session bound to it.
    const widgets = fanstageFor(server.baseUrl, 'en');
    widgets.session.adopt(await widgetSessionOn(fan, window.location.origin, 500));
    await widgets.session.loadAccount();
    defineElements();
    const element = addChat({ with: creator.username, 'api-base': server.baseUrl });
    const root = shadow(element);

    const box = await within(root).findByRole('textbox', { name: 'Message' });
    expect(await within(root).findByTestId('chat-price-badge')).toHaveTextContent('/ message');
    // The widget connects its own socket, in widget mode.
    await waitFor(() => expect(widgets.socket.connectedState.value).toBe('open'), { timeout: 5000 });
    expect(widgets.socket.mode).toBe('widget');

    const user = userEvent.setup({ document });
    await user.type(box, 'Hi from your page{Enter}');
    const text = await within(root).findByText('Hi from your page');
    const row = text.closest('li') as HTMLElement;
    await waitFor(() => expect(within(row).getByRole('img', { name: 'Sent' })).toBeInTheDocument(), { timeout: 5000 });

    // The creator receives it on the platform.
    const hers = creatorSide.chat.thread(fan.id);
    await hers.load();
    expect(hers.items.value.map((i) => i.text)).toContain('Hi from your page');
    const css = element.shadowRoot?.querySelector('style')?.textContent ?? '';
    const classes = new Set([...(element.shadowRoot?.querySelectorAll('[class]') ?? [])].flatMap((node) => [...node.classList]));
    for (const name of classes) expect(css, `class ${name} has no rule`).toContain(`.${name}`);
  });

  it('asks for a creator when `with` is empty', async () => {
    defineElements();
    const element = addChat({ 'api-base': server.baseUrl });
    await waitFor(() => expect(element.shadowRoot?.textContent).toContain('No creator is set for this widget.'));
  });
});
