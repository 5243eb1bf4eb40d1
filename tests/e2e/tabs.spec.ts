import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { agreeToTerms, viewports } from './support';

/**
 * Holds the site's refresh requests until `count` of them are waiting (or `patience` ms have
 * passed), then lets them all go at once: two tabs restoring their session reach the server
 * with the same refresh cookie at the same moment, however the pages' timing falls. A client
 * that takes turns never sends the second while the first waits, so the wait is bounded.
 */
async function releaseRefreshesTogether(context: BrowserContext, count: number, patience = 1_500): Promise<() => Promise<void>> {
  let waiting: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const releaseAll = () => {
    clearTimeout(timer);
    timer = undefined;
    for (const go of waiting.splice(0)) go();
  };
  const handler = async (route: Parameters<Parameters<BrowserContext['route']>[1]>[0]) => {
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (waiting.length >= count) releaseAll();
      else timer ??= setTimeout(releaseAll, patience);
    });
    await route.continue();
  };
  await context.route('**/papi/login/refresh', handler);
  return async () => {
    releaseAll();
    waiting = [];
    await context.unroute('**/papi/login/refresh', handler);
  };
}

/** The site's own account request on start-up, answered with the account: the /api works for this tab. */
function accountLoaded(page: Page) {
  return page.waitForResponse(
    async (response) => new URL(response.url()).pathname === '/api/users/me' && response.request().method() === 'GET' && (await response.json()).statusCode === 2,
  );
}

async function expectSignedIn(page: Page, username: string): Promise<void> {
  await expect(page.getByTestId('side-nav').getByRole('link', { name: 'Profile' })).toHaveAttribute('href', `/${username}`);
}

test.describe('one session in many tabs', () => {
  test('tabs opened at the same moment all stay signed in, and so do later tabs and reloads', async ({ browser, baseURL }) => {
    // Six page loads of the whole site in one test.
    test.setTimeout(60_000);
    const context = await browser.newContext({ baseURL, viewport: viewports.web });
    const first = await context.newPage();
    await agreeToTerms(first);
    const email = `tabs${Date.now()}${Math.floor(Math.random() * 1000)}@example.com`;
    const password = 'many tabs one session';
    expect((await (await first.request.post('/papi/signup', { data: { email, password } })).json()).statusCode).toBe(1);
    // page.request shares the context's cookies: the refresh cookie is the browser's now.
    const login = (await (await first.request.post('/papi/login', { data: { email, password } })).json()) as { statusCode: number; body: { accessToken: string } };
    expect(login.statusCode).toBe(2);
    const me = await first.request.get('/api/users/me', { headers: { authorization: `Bearer ${login.body.accessToken}` } });
    const { username } = ((await me.json()) as { body: { username: string } }).body;
    await first.close();

    // Two tabs start together and both restore the session with the one refresh cookie at once.
    const together = await releaseRefreshesTogether(context, 2);
    const tabs = [await context.newPage(), await context.newPage()];
    const loaded = tabs.map(accountLoaded);
    await Promise.all(tabs.map((tab) => tab.goto('/')));
    for (const tab of tabs) await expectSignedIn(tab, username);
    await Promise.all(loaded);
    await together();

    // A tab opened afterwards finds a cookie the server still honours.
    const third = await context.newPage();
    const thirdLoaded = accountLoaded(third);
    await third.goto('/');
    await expectSignedIn(third, username);
    await thirdLoaded;

    // And every one of them survives a reload.
    for (const tab of [...tabs, third]) {
      const reloaded = accountLoaded(tab);
      await tab.reload();
      await expectSignedIn(tab, username);
      await reloaded;
    }
    await context.close();
  });
});
