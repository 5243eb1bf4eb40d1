import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { agreeToTerms, apiProfile, viewports } from './support';

/**
 * The SDK's stores a visitor's home screen does not use (wallet, earnings, subscriptions, chat,
 * calls, uploads: lib/sdk/stores/heavy.ts) are a chunk of their own, left out of the site's first
 * load (docs/performance.md, The site's first load). These tests watch the browser's requests.
 */
function heavyRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (/^\/assets\/heavy-[\w-]+\.js$/.test(path)) seen.push(path);
  });
  return seen;
}

async function signUp(page: Page, prefix: string): Promise<string> {
  const email = `${prefix}${Date.now()}${Math.floor(Math.random() * 1000)}@example.com`;
  await page.goto('/sign-up');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
  await page.getByRole('checkbox', { name: /18 or older/ }).check();
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Verify your e-mail' })).toBeVisible();
  return email;
}

/** The verification link of the development outbox. */
async function verifyLink(request: APIRequestContext, to: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/dev/mail.json?to=${encodeURIComponent(to)}`);
      const { mails } = (await response.json()) as { mails: { template: string; links: string[] }[] };
      found = mails
        .filter((mail) => mail.template === 'verify-email')
        .flatMap((mail) => mail.links)
        .map((href) => new URL(href).pathname)
        .find((path) => path.startsWith('/action/'));
      return found !== undefined;
    })
    .toBe(true);
  return found!;
}

test.describe("the site's first load", () => {
  test.beforeEach(async ({ page }) => {
    await agreeToTerms(page);
  });

  test('a visitor on / gets the home screen without the money, chat and calls code; the first prompt brings it', async ({ page }) => {
    await page.setViewportSize(viewports.phone);
    const heavy = heavyRequests(page);
    await page.goto('/');
    await expect(page.getByTestId('creator-grid').getByRole('article').first()).toBeVisible();
    // Everything the page asked for at start has come in: still none of it.
    await page.waitForLoadState('networkidle');
    expect(heavy).toEqual([]);

    // A lazily fetched part (the login prompt) waits for it, and shows once it is in.
    await page.getByTestId('bottom-nav').getByRole('button', { name: 'Chat' }).click();
    await expect(page.getByRole('dialog', { name: 'Log in or sign up to continue' })).toBeVisible();
    expect(heavy).toHaveLength(1);
  });

  test("a visitor's / asks for its data with the scripts, once: the SDK takes the preloaded answers", async ({ page }) => {
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/papi/')) asked.push(url.pathname + url.search);
    });
    await page.goto('/');
    await expect(page.getByTestId('creator-grid').getByRole('article').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    const preloaded = await page.locator('link[rel="preload"][as="fetch"]').evaluateAll((links) => links.map((l) => new URL((l as HTMLLinkElement).href).pathname + new URL((l as HTMLLinkElement).href).search));
    expect(preloaded).toEqual(['/papi/settings', '/papi/who-to-follow?limit=15', '/papi/2/timeline?limit=15&gender=1']);
    // A preload the SDK's fetch did not match would show as a second request of the same address.
    for (const address of preloaded) expect(asked.filter((a) => a === address)).toHaveLength(1);
  });

  test("the page draws its header bar and starts its screen's fetches before the stylesheets and scripts are in", async ({ page }) => {
    await page.setViewportSize(viewports.phone);
    // Stylesheets and scripts held back: what the page does in the meantime is index.html's own.
    let releaseScripts!: () => void;
    const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve));
    const stylesheetsDone = new Set<string>();
    let stylesheetsDoneAt = Number.POSITIVE_INFINITY;
    await page.route(/\/assets\/.+\.css$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const response = await route.fetch();
      await route.fulfill({ response });
      stylesheetsDone.add(new URL(route.request().url()).pathname);
      stylesheetsDoneAt = Math.min(stylesheetsDoneAt, Date.now());
    });
    await page.route(/\/assets\/.+\.js$/, async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    const fetchedAt = new Map<string, number>();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/papi/')) fetchedAt.set(url.pathname, Date.now());
    });

    await page.goto('/', { waitUntil: 'commit' });
    // The home screen's data is asked for while the stylesheets are still on their way (a script
    // after them in the page would wait for them).
    await expect.poll(() => fetchedAt.size).toBe(3);
    expect(stylesheetsDone.size).toBe(0);
    expect(Math.max(...fetchedAt.values())).toBeLessThan(stylesheetsDoneAt);

    // Once the stylesheets are in, the header bar shows, though no script has run.
    const stylesheets = await page.locator('link[rel="stylesheet"]').evaluateAll((links) => links.map((l) => new URL((l as HTMLLinkElement).href).pathname));
    await expect.poll(() => stylesheets.every((path) => stylesheetsDone.has(path))).toBe(true);
    const boot = page.locator('#root > .boot');
    await expect(boot).toBeVisible();
    await expect(boot).toContainText('Fanstage');
    const bar = await boot.boundingBox();
    expect(bar?.width).toBe(await page.evaluate(() => document.documentElement.clientWidth));

    // The site's first render takes its place.
    releaseScripts();
    await expect(page.getByTestId('creator-grid').getByRole('article').first()).toBeVisible();
    await expect(boot).toHaveCount(0);
    // Parts fetched later (the quick search's stylesheet, when the browser is idle) are not this test's.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  test("the header's search box comes before its code: what was typed and the focus carry over, and without the code Enter still searches", async ({ page, request }) => {
    const lucy = await apiProfile(request, 'lucy.rivers');
    await page.setViewportSize(viewports.web);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/QuickSearch-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    await expect(page.getByTestId('creator-grid').getByRole('article').first()).toBeVisible();
    const box = page.getByRole('searchbox', { name: 'Search creators and hashtags' });
    await box.pressSequentially('luc');
    const results = page.getByRole('list', { name: 'Search results' });
    await expect(results).toHaveCount(0);

    release();
    await expect(results.getByRole('link', { name: new RegExp(lucy.displayName) })).toHaveAttribute('href', '/lucy.rivers');
    await expect(box).toHaveValue('luc');
    await expect(box).toBeFocused();
    await box.press('y');
    await expect(box).toHaveValue('lucy');

    // A page whose search code cannot be fetched (offline, a release gone) still searches on Enter.
    const other = await page.context().newPage();
    await other.route(/\/assets\/QuickSearch-[\w-]+\.js$/, (route) => route.abort());
    await other.goto('/');
    const otherBox = other.getByRole('searchbox', { name: 'Search creators and hashtags' });
    await otherBox.fill('lucy');
    await otherBox.press('Enter');
    await expect(other).toHaveURL('/discover?q=lucy');
    await expect(other.getByTestId('discover-users').getByRole('article', { name: lucy.displayName })).toBeVisible();
    await other.close();
  });

  test("a visitor's profile page asks for the settings and the profile with the scripts, once", async ({ page, request }) => {
    const lucy = await apiProfile(request, 'lucy.rivers');
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/papi/')) asked.push(url.pathname + url.search);
    });
    await page.goto('/lucy.rivers');
    await expect(page.getByRole('heading', { level: 1, name: lucy.displayName })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const preloaded = await page.locator('link[rel="preload"][as="fetch"]').evaluateAll((links) => links.map((l) => new URL((l as HTMLLinkElement).href).pathname));
    expect(preloaded).toEqual(['/papi/settings', '/papi/users/lucy.rivers']);
    for (const address of preloaded) expect(asked.filter((a) => a === address)).toHaveLength(1);
  });

  test('a signed-in fan gets it with the page on a reload of /, and the wallet top-up shows', async ({ page }) => {
    await page.setViewportSize(viewports.phone);
    await signUp(page, 'firstload');

    const heavy = heavyRequests(page);
    await page.goto('/');
    await expect(page.getByTestId('bottom-nav').getByRole('link', { name: 'Profile' })).toBeVisible();
    // Fetched once, before the session was resumed: the signed-in shell never waits on a store.
    expect(heavy).toHaveLength(1);
    await page.goto('/settings/wallet');
    await expect(page.getByRole('region', { name: 'Buy credits' }).getByRole('radio').first()).toBeVisible();
  });

  test('the partner banner, fetched apart, shows on the timeline of an applicant who has yet to verify', async ({ page }) => {
    await page.setViewportSize(viewports.web);
    const email = await signUp(page, 'firstloadpartner');
    await page.goto(await verifyLink(page.request, email));
    await expect(page.getByText('Your e-mail address is verified. Thank you!')).toBeVisible();
    // No banner before applying.
    await page.goto('/timeline');
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.getByTestId('partner-banner')).toHaveCount(0);

    await page.goto('/partner-registration');
    const form = page.getByRole('form', { name: 'Your details' });
    await form.getByLabel('Full name or company name').fill('Jana Nováková');
    await form.getByLabel('Street and number').fill('Dlouhá 12');
    await form.getByLabel('Postal code').fill('110 00');
    await form.getByLabel('Country').fill('CZ');
    await form.getByLabel('IBAN').fill('CZ65 0800 0000 1920 0014 5399');
    await form.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByRole('heading', { name: 'Verify your identity' })).toBeVisible();

    await page.getByRole('link', { name: 'Timeline' }).first().click();
    await expect(page).toHaveURL('/timeline');
    const banner = page.getByTestId('partner-banner');
    await expect(banner).toHaveAttribute('data-approved-state', '101');
    await expect(banner.getByRole('button')).toBeVisible();
    // Nor on screens other than the timeline, settings and notifications.
    await page.goto('/discover');
    await expect(page.getByRole('heading', { level: 1, name: 'Discover' })).toBeVisible();
    await expect(banner).toHaveCount(0);
  });
});
