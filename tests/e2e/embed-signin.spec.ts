import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiProfile, clickClosingItsWindow, expectNoSeriousA11yViolations } from './support';

/**
 * The platform is the server on 127.0.0.1 (the config's baseURL); the partner page is the same
 * server's demo opened as localhost: another origin, another site and another cookie jar, as a
 * creator's own site is. Whatever the widget keeps, it must keep without the platform's cookies.
 */
const port = Number(process.env.E2E_PORT ?? 8181);
const platform = `http://127.0.0.1:${port}`;
const partner = `http://localhost:${port}`;
const partnerPage = `${partner}/demo/?platform=${encodeURIComponent(platform)}`;
const password = 'long enough password';

/** A fan with a verified e-mail, made through the API as the site would. */
async function verifiedFan(request: APIRequestContext, label: string): Promise<string> {
  const email = `${label}.${Date.now()}@example.com`;
  const signup = await request.post(`${platform}/papi/signup`, { data: { email, password } });
  expect(((await signup.json()) as { statusCode: number }).statusCode).toBe(1);
  const mail = await request.get(`${platform}/dev/mail.json?to=${encodeURIComponent(email)}`);
  const { mails } = (await mail.json()) as { mails: { links: string[] }[] };
  const link = mails[0]?.links.find((l) => l.includes('/action/'));
  expect(link).toBeDefined();
  const hash = new URL(link as string).pathname.replace('/action/', '');
  const verified = await request.post(`${platform}/papi/action/jwt`, { data: { hash } });
  expect(((await verified.json()) as { statusCode: number }).statusCode).toBe(2);
  return email;
}

async function accessToken(request: APIRequestContext, email: string): Promise<string> {
  const login = await request.post(`${platform}/papi/login`, { data: { email, password, tokenInBody: true } });
  const envelope = (await login.json()) as { statusCode: number; body: { accessToken: string } };
  expect(envelope.statusCode).toBe(2);
  return envelope.body.accessToken;
}

async function followedUsernames(request: APIRequestContext, token: string): Promise<string[]> {
  const response = await request.get(`${platform}/api/users/relations?relationType=1`, { headers: { authorization: `Bearer ${token}` } });
  const envelope = (await response.json()) as { statusCode: number; body: { username: string }[] };
  expect(envelope.statusCode).toBe(2);
  return envelope.body.map((p) => p.username);
}

test.describe('signing in from a widget on a partner site', () => {
  test('follow on the profile-card element signs in through the popup and stores the follow, with no third-party cookie', async ({ page, context, playwright }) => {
    // A separate request context: its cookies are not the browser's, so the checks below see only what the page did.
    const api = await playwright.request.newContext({ baseURL: platform });
    const email = await verifiedFan(api, 'embed.fan');
    const lucy = await apiProfile(api, 'lucy.rivers');

    // Every request the partner page makes to the platform, with the headers the browser really sent.
    const platformCalls: { url: string; cookie: string }[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(platform)) return;
      void request.allHeaders().then((headers) => platformCalls.push({ url: request.url(), cookie: headers.cookie ?? '' }));
    });

    await page.goto(partnerPage);
    const card = page.locator('fanstage-profile-card[user="lucy.rivers"]');
    await expect(card.getByRole('heading', { name: lucy.displayName })).toBeVisible();
    const follow = card.getByRole('button', { name: /^Follow/ });
    await expect(follow).toHaveAttribute('aria-pressed', 'false');
    // The widget talks to the platform, not to the page's own origin.
    expect(await page.evaluate(() => location.origin)).toBe(partner);

    const popupOpened = page.waitForEvent('popup');
    await follow.click();
    const popup = await popupOpened;
    await popup.waitForLoadState();
    const popupUrl = new URL(popup.url());
    expect(popupUrl.origin).toBe(platform);
    expect(popupUrl.pathname).toBe('/embed/login');
    expect(popupUrl.searchParams.get('origin')).toBe(partner);

    // The popup says who is asking, and offers to sign up.
    await expect(popup.getByText(partner)).toBeVisible();
    await expect(popup.getByRole('link', { name: 'Sign up on Fanstage' })).toHaveAttribute('href', '/sign-up');
    await expectNoSeriousA11yViolations(popup);
    await popup.getByLabel('E-mail').fill(email);
    await popup.getByLabel('Password', { exact: true }).fill(password);
    await popup.getByRole('button', { name: 'Log in' }).click();
    // The first sign-in on this site asks the fan; the demo creators list it, and the popup says so.
    await expect(popup.getByRole('heading', { name: `Allow ${partner} to use your Fanstage account?` })).toBeVisible();
    await expect(popup.getByText(/is listed for widgets by .*Lucy Rivers/)).toBeVisible();
    await expectNoSeriousA11yViolations(popup);
    await clickClosingItsWindow(popup, popup.getByRole('button', { name: 'Allow' }));

    await expect(card.getByRole('button', { name: /Now following/ })).toHaveAttribute('aria-pressed', 'true');
    const token = await accessToken(api, email);
    await expect.poll(() => followedUsernames(api, token)).toContain('lucy.rivers');

    // The platform set its refresh cookie in its own jar (the popup is a first-party page there)…
    const cookies = await context.cookies();
    const refreshCookies = cookies.filter((c) => c.name === 'fs_refresh');
    expect(refreshCookies.map((c) => c.domain)).toEqual(['127.0.0.1']);
    // …but none for the partner's origin, and the partner page never sent one to the platform.
    expect(cookies.filter((c) => c.domain === 'localhost' && c.name.startsWith('fs_'))).toEqual([]);
    expect(await context.cookies(partner)).toEqual(cookies.filter((c) => c.domain === 'localhost' && c.path === '/'));
    expect(platformCalls.some((call) => call.url.includes('/papi/embed/exchange'))).toBe(true);
    expect(platformCalls.filter((call) => call.cookie.includes('fs_refresh'))).toEqual([]);
    // The partner page keeps its refresh token in its own tab's storage.
    const stored = await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('fanstage.refreshToken')));
    expect(stored).toHaveLength(1);

    // A reload of the partner page keeps the fan signed in, still without cookies.
    await page.reload();
    await expect(card.getByRole('button', { name: /Following/ })).toHaveAttribute('aria-pressed', 'true');
    expect(platformCalls.filter((call) => call.cookie.includes('fs_refresh'))).toEqual([]);
    await api.dispose();
  });

  test('the popup asks before it hands a site a code, and a fan who cancels sends it nothing', async ({ page, context }) => {
    const stranger = 'https://stranger.example';
    // The popup's opener is this page on the platform; it records whatever message reaches it.
    await page.goto(`${platform}/demo/`);
    await page.evaluate(() => {
      (window as unknown as { received: unknown[] }).received = [];
      window.addEventListener('message', (event) => (window as unknown as { received: unknown[] }).received.push(event.data));
    });
    const api = context.request;
    const email = await verifiedFan(api, 'embed.stranger');
    // Logged in on the platform already: the popup skips the form and asks at once.
    const login = await page.request.post(`${platform}/papi/login`, { data: { email, password } });
    expect(login.ok()).toBe(true);

    const popupOpened = page.waitForEvent('popup');
    await page.evaluate((url) => void window.open(url, 'fanstage-sign-in', 'width=480,height=640'), `${platform}/embed/login?origin=${encodeURIComponent(stranger)}`);
    const popup = await popupOpened;
    await expect(popup.getByRole('heading', { name: `Allow ${stranger} to use your Fanstage account?` })).toBeVisible();
    await expect(popup.getByText('is not listed by any creator on Fanstage. Allow it only if you trust this site.')).toBeVisible();
    await expect(popup.getByLabel('E-mail')).toHaveCount(0);
    await clickClosingItsWindow(popup, popup.getByRole('button', { name: 'Cancel' }));
    expect(await page.evaluate(() => (window as unknown as { received: unknown[] }).received)).toEqual([]);
    // Nothing was remembered either.
    const token = await accessToken(api, email);
    const consents = await api.get(`${platform}/api/embed/consents`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await consents.json()) as { body: unknown[] }).body).toEqual([]);
  });
});
