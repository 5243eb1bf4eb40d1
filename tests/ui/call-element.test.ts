import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, within } from '@testing-library/dom';
import { callTag, defineElements } from '../../elements';
import { createFanstage, formatPrice } from '../../lib/sdk';
import type { TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { startRealServer } from './support/realServer';
import { violationsIn } from './support/auth';

/**
 * `<fanstage-call>` on a creator's own page, against the real server, as a visitor sees it
 * before signing in. The call itself (jsdom has no WebRTC) is the two-browser journey's.
 */

let server: TestServer;
let creator: TestAccount;
let salt = 10_000;

beforeAll(async () => {
  server = await startRealServer();
  salt = server.app.fanstage.config.priceSalt;
  creator = await createAccount(server.app, { seller: true, username: `lucy_${Date.now().toString(36)}` });
  const side = createFanstage({ baseUrl: server.baseUrl });
  side.session.adopt({ accessToken: creator.accessToken });
  await side.account.updateMe({ callPrice: 128, displayName: 'Lucy Rivers' });
  side.session.dispose();
}, 60_000);

afterEach(() => {
  document.body.innerHTML = '';
});

afterAll(async () => {
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
}, 30_000);

function addCall(attributes: Record<string, string>): HTMLElement {
  const element = document.createElement(callTag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  document.body.append(element);
  return element;
}

describe('<fanstage-call>', { timeout: 30_000 }, () => {
  it('shows the creator’s price a minute in its shadow root, with every class it uses styled there', async () => {
    defineElements();
    const element = addCall({ with: creator.username, 'api-base': server.baseUrl });
    const root = element.shadowRoot as unknown as HTMLElement;
    const button = await waitFor(() => within(root).getByRole('button', { name: new RegExp(`Call · \\${formatPrice(128, salt)}/min`) }), { timeout: 5000 });
    expect(button).toHaveAccessibleName(`Call · ${formatPrice(128, salt)}/min — Video call with Lucy Rivers`);
    const css = root.querySelector('style')?.textContent ?? '';
    const classes = new Set([...root.querySelectorAll('[class]')].flatMap((node) => [...node.classList]));
    for (const name of classes) expect(css, `class ${name} has no rule`).toContain(`.${name}`);
    expect(await violationsIn(root)).toEqual([]);
  });

  it('speaks Czech and says when it has no creator to call', async () => {
    defineElements();
    const element = addCall({ with: creator.username, 'api-base': server.baseUrl, language: 'cs' });
    const root = element.shadowRoot as unknown as HTMLElement;
    await waitFor(() => expect(within(root).getByRole('button', { name: /Zavolat ·/ })).toBeTruthy(), { timeout: 5000 });

    const empty = addCall({ 'api-base': server.baseUrl });
    await waitFor(() => expect(within(empty.shadowRoot as unknown as HTMLElement).getByRole('status')).toBeTruthy(), { timeout: 5000 });
  });
});
