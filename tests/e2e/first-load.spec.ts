import { expect, test, type Page } from '@playwright/test';
import { agreeToTerms, viewports } from './support';

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

  test('a signed-in fan gets it with the page on a reload of /, and the wallet top-up shows', async ({ page }) => {
    await page.setViewportSize(viewports.phone);
    const email = `firstload${Date.now()}${Math.floor(Math.random() * 1000)}@example.com`;
    await page.goto('/sign-up');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('checkbox', { name: /18 or older/ }).check();
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Verify your e-mail' })).toBeVisible();

    const heavy = heavyRequests(page);
    await page.goto('/');
    await expect(page.getByTestId('bottom-nav').getByRole('link', { name: 'Profile' })).toBeVisible();
    // Fetched once, before the session was resumed: the signed-in shell never waits on a store.
    expect(heavy).toHaveLength(1);
    await page.goto('/settings/wallet');
    await expect(page.getByRole('region', { name: 'Buy credits' }).getByRole('radio').first()).toBeVisible();
  });
});
