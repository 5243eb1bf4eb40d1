import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { createFanstage } from '../../lib/sdk';
import { LoginForm, SignUpForm } from '../../lib/ui';
import { renderWith, startAuthServer, violationsIn, type AuthTestServer } from './support/auth';

let t: AuthTestServer;

beforeAll(async () => {
  t = await startAuthServer();
}, 60_000);

afterAll(() => t?.close());

/**
 * The platform's own site: its API is on the page's origin (no baseUrl), so relative requests
 * are sent on to the real server here.
 */
function platformSite() {
  const fetchOnPlatform: typeof globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    return globalThis.fetch(url.startsWith('/') ? `${t.server.baseUrl}${url}` : url, init);
  };
  return createFanstage({ baseUrl: '', language: 'en', fetch: fetchOnPlatform });
}

describe('"Continue with …" on the login and sign-up forms', { timeout: 30_000 }, () => {
  it('offers the configured provider under the login form, starting a sign-in that comes back to this page', async () => {
    window.history.replaceState(null, '', '/lucy.rivers?tab=posts');
    const { container } = renderWith(platformSite(), <LoginForm />);
    const link = await screen.findByRole('link', { name: 'Continue with Sandbox' });
    const href = new URL(link.getAttribute('href')!, 'http://site.invalid');
    expect(href.pathname).toBe('/api/oauth/authorize');
    expect(Object.fromEntries(href.searchParams)).toEqual({ provider: 'sandbox', returnTo: '/lucy.rivers?tab=posts', lang: 'en' });
    expect(within(screen.getByRole('form', { name: 'Log in' })).getByText('or')).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);

    // The link really starts the sign-in at the server: to the provider's consent page.
    const started = await fetch(`${t.server.baseUrl}${href.pathname}${href.search}`, { redirect: 'manual' });
    expect(started.status).toBe(303);
    expect(new URL(started.headers.get('location')!).pathname).toBe('/papi/oauth/sandbox/authorize');
  });

  it('offers it under the sign-up form too', async () => {
    window.history.replaceState(null, '', '/discover');
    renderWith(platformSite(), <SignUpForm />);
    const link = await screen.findByRole('link', { name: 'Continue with Sandbox' });
    expect(new URL(link.getAttribute('href')!, 'http://site.invalid').searchParams.get('returnTo')).toBe('/discover');
  });

  it('shows no such link in a widget whose API is another origin than the page (it signs in through its popup)', async () => {
    const fanstage = t.site();
    renderWith(fanstage, <LoginForm />);
    await fanstage.settings.load();
    expect(fanstage.settings.settings.value?.oauthProviders).toEqual([{ name: 'sandbox', title: 'Sandbox' }]);
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Continue with/ })).toBeNull();
  });
});
