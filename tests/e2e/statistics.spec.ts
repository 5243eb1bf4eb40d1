import { expect, test, type Page } from '@playwright/test';
import { formatMoney } from '../../lib/contract/money';
import { agreeToTerms, expectNoSeriousA11yViolations, viewports } from './support';
import { logIn, mailedPath, testPassword } from './postsSupport';
import { accessToken, balanceOf, creditPackages, giftCatalogue, payOnCardPage, testCards } from './moneySupport';
import { logInCreator, offerOf, signUpCreator } from './creatorSupport';

interface Envelope<T> {
  statusCode: number;
  statusText?: string;
  body: T;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The statistics table's cell of `key` in its totals row. */
const totalOf = (page: Page, key: string) => page.getByTestId('statistics-table').locator(`tfoot td[data-key="${key}"]`);

/**
 * Issue 34, Done-when 1: a fan comes through a creator's tracking link, signs up, subscribes and
 * tips on the platform, then tips through her widget on her blog's origin; her statistics show
 * what the link brought and her earnings split by place and by kind, each sum the ledger's.
 */
test('a fan brought by a tracking link shows in the creator’s statistics: the link’s visit, sign-up, subscription and revenue, and the earnings by place and kind, as the ledger has them', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  // Her blog: another origin than the platform's, which she listed for her widgets.
  const blog = `http://localhost:${new URL(baseURL!).port}`;
  const creator = await signUpCreator(request, { name: 'Stella', embedOrigins: [blog] });
  const offer = await offerOf(request, creator, 'Monthly', 640);

  // 1. She makes a tracking link on her statistics screen.
  const herContext = await browser.newContext();
  const her = await herContext.newPage();
  await logInCreator(her, creator);
  await her.setViewportSize(viewports.web);
  await her.goto('/statistics');
  await expect(her.getByRole('heading', { level: 1, name: 'Statistics' })).toBeVisible();
  await expect(her.getByText('No earnings in this time yet.')).toBeVisible();
  await her.getByLabel('Name').fill('TikTok bio');
  await her.getByRole('button', { name: 'Make link' }).click();
  const card = her.getByTestId('tracking-link').filter({ hasText: 'TikTok bio' });
  const url = await card.getByRole('textbox', { name: 'Address of TikTok bio' }).inputValue();
  expect(url).toMatch(new RegExp(`/${creator.username.replace('.', '\\.')}\\?l=[a-z0-9]{8}$`));

  // 2. A visitor opens it and signs up in the same browser.
  const fanContext = await browser.newContext();
  const fan = await fanContext.newPage();
  await agreeToTerms(fan);
  const visited = fan.waitForResponse((response) => response.url().endsWith('/papi/links/visit'));
  await fan.goto(url);
  expect(((await (await visited).json()) as Envelope<unknown>).statusCode).toBe(2);
  await fan.goto('/sign-up');
  const email = `linked.${Date.now()}@example.com`;
  await fan.getByLabel('E-mail').fill(email);
  await fan.getByLabel('Password', { exact: true }).fill(testPassword);
  await fan.getByRole('checkbox', { name: /18 or older/ }).check();
  await fan.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(fan.getByRole('heading', { level: 1, name: 'Welcome to Fanstage!' })).toBeVisible();
  await logIn(fan, email);
  await fan.goto(await mailedPath(fan.request, email, '/action/'));
  await expect(fan.getByText('Your e-mail address is verified. Thank you!')).toBeVisible();
  const fanToken = await accessToken(fan.request, email);

  // 3. He buys credits with the sandbox's card, subscribes and tips on the platform.
  const pkg = (await creditPackages(fan.request, fanToken)).sort((a, b) => a.cValue - b.cValue).find((p) => p.gValue >= 2000)!;
  const order = (await (await fan.request.post('/api/payments/pay-new-card', { headers: bearer(fanToken), data: { packageId: pkg.id, processor: 'sandbox' } })).json()) as Envelope<{ redirectUrl: string }>;
  await fan.goto(order.body.redirectUrl);
  await payOnCardPage(fan, testCards.pays, formatMoney(pkg.gValue));
  await expect.poll(async () => (await balanceOf(fan.request, fanToken)).gBalance).toBe(pkg.cValue);
  const subscribed = (await (await fan.request.post(`/api/subscription/subscribe/${offer.id}`, { headers: bearer(fanToken), data: {} })).json()) as Envelope<unknown>;
  expect(subscribed.statusCode).toBe(2);
  const gift = (await giftCatalogue(fan.request)).sort((a, b) => a.gValue - b.gValue)[0]!;
  const tip = (token: string, headers: Record<string, string> = {}) =>
    fan.request.post('/api/users/tip', { headers: { ...bearer(token), ...headers }, data: { userId: creator.id, giftId: gift.id, idempotencyKey: `k${Date.now()}${Math.random()}`.replace('.', '') } });
  expect(((await (await tip(fanToken)).json()) as Envelope<unknown>).statusCode).toBeGreaterThan(0);

  // 4. On her blog, her widget (signed in with his consent and a monthly allowance) sends a tip.
  const code = (await (await fan.request.post('/api/embed/code', { headers: bearer(fanToken), data: { origin: blog, allow: true, allowance: 5000 } })).json()) as Envelope<{ code: string }>;
  const exchanged = (await (await request.post('/papi/embed/exchange', { headers: { origin: blog }, data: { code: code.body.code, origin: blog } })).json()) as Envelope<{ accessToken: string }>;
  expect(((await (await tip(exchanged.body.accessToken, { origin: blog })).json()) as Envelope<unknown>).statusCode).toBeGreaterThan(0);

  // 5. Her statistics: the link's visit, sign-up, subscription and revenue; earnings by place and kind.
  const earned = (await balanceOf(request, creator.token)).cBalance;
  expect(earned).toBe(offer.priceCents + 2 * gift.cValue);
  await her.reload();
  await expect(her.getByTestId('statistics-total')).toHaveText(formatMoney(earned));
  await expect(card.getByTestId('link-visits')).toHaveText('1');
  await expect(card.getByTestId('link-signups')).toHaveText('1 (100%)');
  await expect(card.getByTestId('link-subscriptions')).toHaveText('1 (100%)');
  await expect(card.getByTestId('link-revenue')).toHaveText(formatMoney(earned));
  await expect(her.getByTestId('subscribers-gained')).toHaveText('1');

  // By kind (the first view): a subscription and two tips, in the chart and in its table.
  await expect(her.getByTestId('statistics-chart').locator('canvas')).toBeVisible();
  await her.getByRole('button', { name: 'Show as a table' }).click();
  await expect(totalOf(her, 'subscription')).toHaveText(formatMoney(offer.priceCents));
  await expect(totalOf(her, 'gift')).toHaveText(formatMoney(2 * gift.cValue));
  await expect(totalOf(her, 'total')).toHaveText(formatMoney(earned));
  // By place: the platform and her blog.
  await her.getByTestId('statistics-group').selectOption('place');
  await expect(totalOf(her, 'platform')).toHaveText(formatMoney(offer.priceCents + gift.cValue));
  await expect(totalOf(her, blog)).toHaveText(formatMoney(gift.cValue));
  await expect(her.getByTestId('statistics-table').locator('thead')).toContainText(blog);
  // By link: all of it through TikTok bio.
  await her.getByTestId('statistics-group').selectOption('link');
  await expect(her.getByTestId('statistics-table').locator('thead')).toContainText('TikTok bio');
  await expect(totalOf(her, 'total')).toHaveText(formatMoney(earned));
  await expectNoSeriousA11yViolations(her);

  // At 375 px the chart fits and the table reads the same numbers.
  await her.setViewportSize(viewports.phone);
  await her.getByTestId('statistics-group').selectOption('kind');
  await expect(her.getByTestId('statistics-chart').locator('canvas')).toBeVisible();
  const chartWidth = await her.getByTestId('statistics-chart').evaluate((element) => element.getBoundingClientRect().width);
  expect(chartWidth).toBeLessThanOrEqual(375);
  await expect.poll(() => her.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  await expect(totalOf(her, 'gift')).toHaveText(formatMoney(2 * gift.cValue));
  await expect(totalOf(her, 'total')).toHaveText(formatMoney(earned));

  await herContext.close();
  await fanContext.close();
});
