import type { ReactNode } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage, EMBED_CODE_MESSAGE, type Fanstage } from '../../lib/sdk';
import { EmbedLogin, openerOriginOf } from '../../host-web/embed-login/EmbedLogin';
import type { TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { FanstageProvider } from '../../lib/ui';
import { violationsIn } from './support/auth';
import { startRealServer } from './support/realServer';

/**
 * The /embed/login popup against the real server: the fan signs in (or is signed in already),
 * is asked about a site the first time, and the code the popup posts is one the server takes.
 */
let server: TestServer;
const site = 'https://lucy.example';

beforeAll(async () => {
  server = await startRealServer();
}, 60_000);

afterAll(async () => {
  await server?.close();
});

/** A fetch that keeps the platform's cookies, as the popup's browser window does. */
function fetchWithCookies(): typeof globalThis.fetch {
  const jar = new Map<string, string>();
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await globalThis.fetch(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [name = '', value = ''] = (line.split(';')[0] ?? '').split('=');
      if (value === '' || /max-age=0/i.test(line)) jar.delete(name.trim());
      else jar.set(name.trim(), value.trim());
    }
    return response;
  };
}

/** The popup is a page of its own: its `<main>` is the page's only one. */
function renderWith(fanstage: Fanstage, ui: ReactNode, language: 'en' | 'cs' = 'en') {
  return render(
    <FanstageProvider fanstage={fanstage} language={language}>
      {ui}
    </FanstageProvider>,
  );
}

/** The popup's Fanstage: the platform's own, in cookie mode. */
function popupFanstage(language: 'en' | 'cs' = 'en'): Fanstage {
  return createFanstage({ baseUrl: server.baseUrl, language, fetch: fetchWithCookies(), session: { mode: 'cookie' } });
}

async function logIn(fan: TestAccount) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('E-mail'), fan.email);
  await user.type(screen.getByLabelText('Password', { exact: true }), fan.password);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

/** What the widget's page then does with the code: the server must take it, on this origin alone. */
async function exchange(code: string, origin = site) {
  const response = await server.app.inject({ method: 'POST', url: '/papi/embed/exchange', headers: { origin }, payload: { code, origin } });
  return response.json() as { statusCode: number; statusText?: string };
}

async function consentsOf(fan: TestAccount): Promise<string[]> {
  const response = await server.app.inject({ method: 'GET', url: '/api/embed/consents', headers: { authorization: `Bearer ${fan.accessToken}` } });
  return (response.json() as { body: { origin: string }[] }).body.map((c) => c.origin);
}

describe('the /embed/login popup', () => {
  it('takes only an exact origin from its address', () => {
    expect(openerOriginOf('?origin=https%3A%2F%2Flucy.example')).toBe('https://lucy.example');
    expect(openerOriginOf('?origin=http%3A%2F%2Flocalhost%3A8181')).toBe('http://localhost:8181');
    expect(openerOriginOf('?origin=https%3A%2F%2Flucy.example%2Fpage')).toBeNull();
    expect(openerOriginOf('?origin=javascript%3Aalert(1)')).toBeNull();
    expect(openerOriginOf('?origin=*')).toBeNull();
    expect(openerOriginOf('')).toBeNull();
  });

  it('signs the fan in, asks about the site showing their account, and posts a working code to that exact origin once allowed', async () => {
    const fan = await createAccount(server.app);
    const opener = { postMessage: vi.fn() };
    const onDone = vi.fn();
    const { container } = renderWith(popupFanstage(), <EmbedLogin search={`?origin=${encodeURIComponent(site)}`} opener={opener} onDone={onDone} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in with Fanstage' })).toBeInTheDocument();
    expect(screen.getByText(site)).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Sign up on Fanstage' })).toHaveAttribute('href', '/sign-up');
    expect(await violationsIn(container)).toEqual([]);

    await logIn(fan);
    expect(await screen.findByRole('heading', { level: 1, name: `Allow ${site} to use your Fanstage account?` })).toBeInTheDocument();
    expect(screen.getByText(`@${fan.username}`)).toBeInTheDocument();
    expect(screen.getByText(/is not listed by any creator on Fanstage/)).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);
    // Asked, not yet answered: nothing went to the page and nothing was remembered.
    expect(opener.postMessage).not.toHaveBeenCalled();
    expect(await consentsOf(fan)).toEqual([]);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(opener.postMessage).toHaveBeenCalledTimes(1);
    const [message, target] = opener.postMessage.mock.calls[0] as [{ type: string; code: string }, string];
    expect(message.type).toBe(EMBED_CODE_MESSAGE);
    expect(target).toBe(site);
    expect(await consentsOf(fan)).toEqual([site]);
    expect(await exchange(message.code)).toMatchObject({ statusCode: 2 });
  });

  it('hands a code at once to a site the fan, already logged in on the platform, allowed before', async () => {
    const fan = await createAccount(server.app);
    const fanstage = popupFanstage();
    await fanstage.session.login(fan.email, fan.password);
    const before = popupFanstage();
    await before.session.login(fan.email, fan.password);
    await before.client.post('/api/embed/code', { origin: site, allow: true });

    const opener = { postMessage: vi.fn() };
    const onDone = vi.fn();
    renderWith(fanstage, <EmbedLogin search={`?origin=${encodeURIComponent(site)}`} opener={opener} onDone={onDone} />);
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(screen.queryByLabelText('E-mail')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Allow' })).toBeNull();
    const [message, target] = opener.postMessage.mock.calls[0] as [{ code: string }, string];
    expect(target).toBe(site);
    // The code is for this site alone: another origin cannot use it.
    expect(await exchange(message.code, 'https://elsewhere.example')).toEqual({ statusCode: -1, statusText: 'invalid-code' });
  });

  it('sends nothing and remembers nothing when the fan cancels, in Czech too', async () => {
    const fan = await createAccount(server.app);
    const fanstage = popupFanstage('cs');
    await fanstage.session.login(fan.email, fan.password);
    const opener = { postMessage: vi.fn() };
    const onDone = vi.fn();
    renderWith(fanstage, <EmbedLogin search="?origin=https%3A%2F%2Fstranger.example" opener={opener} onDone={onDone} />, 'cs');
    expect(await screen.findByRole('heading', { level: 1, name: 'Povolit webu https://stranger.example používat váš účet Fanstage?' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Zrušit' }));
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status')).toHaveTextContent('Webu nebylo nic sděleno.');
    expect(opener.postMessage).not.toHaveBeenCalled();
    expect(await consentsOf(fan)).toEqual([]);
  });

  it('explains a window opened without an opener or a valid origin', () => {
    const onDone = vi.fn();
    const { unmount } = renderWith(popupFanstage(), <EmbedLogin search="?origin=https%3A%2F%2Flucy.example" opener={null} onDone={onDone} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Open it from the widget');
    unmount();
    renderWith(popupFanstage(), <EmbedLogin search="?origin=lucy.example" opener={{ postMessage: vi.fn() }} onDone={onDone} />);
    expect(screen.getByRole('alert')).toHaveTextContent('without a valid site address');
    expect(screen.queryByLabelText('E-mail')).toBeNull();
  });
});
