import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { agreeToTerms, viewports } from './support';

/*
 * A staging server (FANSTAGE_STAGING, docs/server.md "Going to production") answers testMode in
 * its settings, and the site says so on every page with a ribbon that must never hide anything.
 * The development server these tests run against is no staging server: its settings answer is
 * given testMode here, as a staging server would send it.
 */

const axeSource = readFileSync(fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url)), 'utf8');

async function asTestInstallation(page: Page): Promise<void> {
  await page.route('**/papi/settings', async (route) => {
    const response = await route.fetch();
    const envelope = (await response.json()) as { statusCode: number; body: Record<string, unknown> };
    await route.fulfill({ response, json: { ...envelope, body: { ...envelope.body, testMode: true } } });
  });
}

type Box = { x: number; y: number; width: number; height: number };
const apart = (a: Box, b: Box) => a.x + a.width <= b.x + 0.5 || b.x + b.width <= a.x + 0.5 || a.y + a.height <= b.y + 0.5 || b.y + b.height <= a.y + 0.5;

for (const viewport of [viewports.phone, viewports.tablet, viewports.web]) {
  test(`a test installation's ribbon at ${viewport.width} px: one whole line, nothing past the edge, clear of the navigation and of the page's end`, async ({ page }) => {
    await asTestInstallation(page);
    await agreeToTerms(page);
    await page.setViewportSize(viewport);
    await page.goto('/');
    const ribbon = page.getByRole('complementary', { name: 'Test mode' });
    await expect(ribbon).toHaveText('Test mode · payments and ID checks are not real');

    const fits = await ribbon.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth, height: element.getBoundingClientRect().height }));
    expect(fits.scrollWidth, 'the whole text on one line').toBeLessThanOrEqual(fits.clientWidth);
    const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
    expect(overflow, 'no horizontal overflow').toBeLessThanOrEqual(0);

    const box = (await ribbon.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 0.5);
    expect(box.y + box.height, 'inside the screen').toBeLessThanOrEqual(viewport.height + 0.5);
    const navigation = page.getByTestId(viewport.width >= 1280 ? 'side-nav' : 'bottom-nav');
    expect(apart(box, (await navigation.boundingBox())!), 'apart from the navigation').toBe(true);

    // At the end of a page the last of the content is above the ribbon, not beneath it (a page
    // of fixed length: the home timeline grows as it is scrolled).
    await page.goto('/terms');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, document.scrollingElement!.scrollHeight));
    const footer = page.getByRole('contentinfo');
    await expect(footer).toBeVisible();
    const footerBox = (await footer.boundingBox())!;
    const ribbonAtEnd = (await ribbon.boundingBox())!;
    expect(footerBox.y + footerBox.height, 'the footer ends above the ribbon').toBeLessThanOrEqual(ribbonAtEnd.y + 0.5);

    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
      const result = await axe.run(document, { runOnly: { type: 'rule', values: ['region', 'landmark-unique', 'color-contrast', 'landmark-complementary-is-top-level'] }, resultTypes: ['violations'] });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
    });
    expect(violations).toEqual([]);
  });
}

test('the ribbon speaks Czech and fits a phone in Czech too', async ({ page }) => {
  await asTestInstallation(page);
  await agreeToTerms(page);
  await page.request.post('/papi/users/cookie', { data: { name: 'cookielang', value: 'cs' } });
  await page.setViewportSize(viewports.phone);
  await page.goto('/');
  const ribbon = page.getByRole('complementary', { name: 'Testovací režim' });
  await expect(ribbon).toHaveText('Testovací režim · platby a ověření nejsou skutečné');
  const fits = await ribbon.evaluate((element) => element.scrollWidth <= element.clientWidth);
  expect(fits, 'the whole Czech text on one line at 375 px').toBe(true);
});

test('an installation that is not a test one shows no ribbon', async ({ page }) => {
  await agreeToTerms(page);
  const settings = page.waitForResponse((response) => new URL(response.url()).pathname === '/papi/settings');
  await page.goto('/');
  expect(((await (await settings).json()) as { body: { testMode?: boolean } }).body.testMode).toBe(false);
  await expect(page.locator('article[data-post-id]').first()).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Test mode' })).toHaveCount(0);
});
