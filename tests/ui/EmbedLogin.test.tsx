import type { ReactNode } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EMBED_CODE_MESSAGE, type Fanstage } from '../../lib/sdk';
import { FanstageProvider } from '../../lib/ui';
import { EmbedLogin, openerOriginOf } from '../../host-web/embed-login/EmbedLogin';
import { sendEnvelope } from '../unit/support/api-server';
import { siteFanstage, startAuthServer, violationsIn, type AuthTestServer } from './support/auth';

let t: AuthTestServer;
const allowed = 'https://lucy.example';
const issued: Array<{ origin: string }> = [];

beforeAll(async () => {
  t = await startAuthServer();
  t.api.addPerson('fan@example.com', 'correct horse battery');
  // The platform's rule: a code only for a logged-in fan and an origin a creator listed.
  t.server.on('/api/embed/code', (req, res) => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!t.api.liveAccessTokens.has(token)) return sendEnvelope(res, { statusCode: -1, statusText: 'unauthorized' }, 401);
    const { origin } = JSON.parse(req.body) as { origin: string };
    if (origin !== allowed) return sendEnvelope(res, { statusCode: -1, statusText: 'forbidden' }, 403);
    issued.push({ origin });
    sendEnvelope(res, { statusCode: 2, body: { code: `code-${issued.length}`, expiresIn: 60 } });
  });
});

afterAll(() => t.server.close());

/** The popup is a page of its own: its `<main>` is the page's only one. */
function renderWith(fanstage: Fanstage, ui: ReactNode, language: 'en' | 'cs' = 'en') {
  return render(
    <FanstageProvider fanstage={fanstage} language={language}>
      {ui}
    </FanstageProvider>,
  );
}

async function logIn() {
  await userEvent.setup().type(await screen.findByLabelText('E-mail'), 'fan@example.com');
  await userEvent.setup().type(screen.getByLabelText('Password', { exact: true }), 'correct horse battery');
  await userEvent.setup().click(screen.getByRole('button', { name: 'Log in' }));
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

  it('shows who asks, signs the fan in and posts the code to that exact origin, then closes', async () => {
    const opener = { postMessage: vi.fn() };
    const onDone = vi.fn();
    const { container } = renderWith(siteFanstage(t.server.baseUrl), <EmbedLogin search={`?origin=${encodeURIComponent(allowed)}`} opener={opener} onDone={onDone} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in with Fanstage' })).toBeInTheDocument();
    expect(screen.getByText(allowed)).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Sign up on Fanstage' })).toHaveAttribute('href', '/sign-up');
    expect(await violationsIn(container)).toEqual([]);
    expect(opener.postMessage).not.toHaveBeenCalled();

    await logIn();
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(opener.postMessage).toHaveBeenCalledExactlyOnceWith({ type: EMBED_CODE_MESSAGE, code: `code-${issued.length}` }, allowed);
  });

  it('skips the form for a fan already logged in on the platform', async () => {
    const fanstage = siteFanstage(t.server.baseUrl);
    await fanstage.session.login('fan@example.com', 'correct horse battery');
    // The popup restores the session from the platform's refresh cookie.
    const opener = { postMessage: vi.fn() };
    const onDone = vi.fn();
    renderWith(fanstage, <EmbedLogin search={`?origin=${encodeURIComponent(allowed)}`} opener={opener} onDone={onDone} />);
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(screen.queryByLabelText('E-mail')).toBeNull();
    expect(opener.postMessage).toHaveBeenCalledWith(expect.objectContaining({ type: EMBED_CODE_MESSAGE }), allowed);
  });

  it('refuses an origin no creator allows, in words, and sends nothing', async () => {
    const fanstage = siteFanstage(t.server.baseUrl, 'cs');
    await fanstage.session.login('fan@example.com', 'correct horse battery');
    const opener = { postMessage: vi.fn() };
    const onDone = vi.fn();
    renderWith(fanstage, <EmbedLogin search="?origin=https%3A%2F%2Fstranger.example" opener={opener} onDone={onDone} />, 'cs');
    expect(await screen.findByRole('alert')).toHaveTextContent('https://stranger.example vás nesmí přihlašovat přes Fanstage');
    expect(opener.postMessage).not.toHaveBeenCalled();
    expect(onDone).not.toHaveBeenCalled();
  });

  it('explains a window opened without an opener or a valid origin', () => {
    const onDone = vi.fn();
    const { unmount } = renderWith(siteFanstage(t.server.baseUrl), <EmbedLogin search="?origin=https%3A%2F%2Flucy.example" opener={null} onDone={onDone} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Open it from the widget');
    unmount();
    renderWith(siteFanstage(t.server.baseUrl), <EmbedLogin search="?origin=lucy.example" opener={{ postMessage: vi.fn() }} onDone={onDone} />);
    expect(screen.getByRole('alert')).toHaveTextContent('without a valid site address');
    expect(screen.queryByLabelText('E-mail')).toBeNull();
  });
});
