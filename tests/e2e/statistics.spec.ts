import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { formatMoney } from '../../lib/contract/money';
import { discountedCents, fanPriceCents, formatPrice } from '../../lib/contract/rules/price';
import { agreeToTerms, clickClosingItsWindow, expectNoSeriousA11yViolations, viewports } from './support';
import { logIn, mailedPath, testPassword } from './postsSupport';
import { accessToken, balanceOf, creditPackages, giftCatalogue, payOnCardPage, testCards } from './moneySupport';
import { logInCreator, offerOf, signUpCreator } from './creatorSupport';

/**
 * Her blog: a real other origin (the other loopback name, a port of its own), served by the test.
 * Its page carries the widget's embed code as docs/embedding.md gives it, with her blog's
 * tracking link; its well-known file carries the token she publishes to prove the site hers.
 */
const blogState = { platform: '', creator: '', link: '', token: '' };
let blogServer: Server;
let blog = '';

function blogPage(): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Stella's blog</title>
    <script src="${blogState.platform}/embed/fanstage.js" async></script>
  </head>
  <body>
    <main>
      <h1>Stella's blog</h1>
      <p>Liked the story? <fanstage-tip-button creator="${blogState.creator}" link="${blogState.link}"></fanstage-tip-button></p>
    </main>
  </body>
</html>`;
}

test.beforeAll(async ({ baseURL }) => {
  blogState.platform = baseURL!;
  blogServer = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path === '/.well-known/fanstage-verification.txt') {
      response.writeHead(blogState.token ? 200 : 404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(blogState.token ? `${blogState.token}\n` : 'not here');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    response.end(blogPage());
  });
  await new Promise<void>((resolve) => blogServer.listen(0, '127.0.0.1', resolve));
  blog = `http://localhost:${(blogServer.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => blogServer.close(resolve));
});

interface Envelope<T> {
  statusCode: number;
  statusText?: string;
  body: T;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The statistics table's cell of `key` in its totals row. */
const totalOf = (page: Page, key: string) => page.getByTestId('statistics-table').locator(`tfoot td[data-key="${key}"]`);

/**
 * Issue 34, Done-when 1: a fan comes through a creator's tracking link (with a first-month
 * discount), signs up, subscribes and tips on the platform, then tips by clicking her widget on
 * her blog, a site she proved hers, through the blog's own link; her statistics show what each
 * link brought and her earnings split by place, by link and by kind, each sum the ledger's.
 */
test('a fan brought by a tracking link shows in the creator’s statistics: the link’s visit, sign-up, subscription and revenue, and the earnings by place, link and kind, as the ledger has them', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const creator = await signUpCreator(request, { name: 'Stella' });
  const offer = await offerOf(request, creator, 'Monthly', 640);
  const { salt } = ((await (await request.get('/papi/settings')).json()) as Envelope<{ salt: number }>).body;

  // 1. She proves her blog on the site screen: she adds it, publishes the token, checks it.
  const herContext = await browser.newContext();
  const her = await herContext.newPage();
  await logInCreator(her, creator);
  await her.setViewportSize(viewports.web);
  await her.goto('/settings');
  await her.getByRole('link', { name: 'Your sites for widgets' }).click();
  await expect(her.getByRole('heading', { level: 1, name: 'Your sites for widgets' })).toBeVisible();
  await her.getByLabel('Site address').fill(blog);
  await her.getByRole('button', { name: 'Add site' }).click();
  await expect(her.getByRole('status').filter({ hasText: `${blog} is on your list.` })).toBeVisible();
  const site = her.getByTestId('widget-site').filter({ hasText: blog });
  await expect(site.getByTestId('widget-site-state')).toHaveText('Not proven yet');
  // Nothing published yet: the check says what it found.
  await site.getByRole('button', { name: `Check ${blog}` }).click();
  await expect(site.getByRole('status')).toHaveText('The site answered, but neither the file nor the home page has your token.');
  blogState.token = await site.getByLabel(`As a line of the text file ${blog}/.well-known/fanstage-verification.txt`).inputValue();
  expect(blogState.token).toMatch(/^fanstage-/);
  await expect(site.getByLabel('Or in the <head> of the home page:')).toHaveValue(`<meta name="fanstage-verification" content="${blogState.token}">`);
  await site.getByRole('button', { name: `Check ${blog}` }).click();
  await expect(site.getByTestId('widget-site-state')).toHaveText('Proven');
  await expect(site.getByRole('status')).toHaveText(`${blog} is proven to be yours.`);
  await expectNoSeriousA11yViolations(her);

  // 2. On her statistics screen she makes a link with a first-month discount, and one for her blog.
  await her.goto('/statistics');
  await expect(her.getByRole('heading', { level: 1, name: 'Statistics' })).toBeVisible();
  await expect(her.getByText('No earnings in this time yet.')).toBeVisible();
  await her.getByLabel('Name').fill('TikTok bio');
  await her.getByRole('radio', { name: 'A first-month discount' }).check();
  await her.getByLabel('Per cent off the first month').fill('50');
  const firstMonth = discountedCents(offer.priceCents, 50);
  await expect(her.getByText(`The first month costs ${formatMoney(firstMonth)}, then ${formatMoney(offer.priceCents)} a month.`)).toBeVisible();
  await her.getByRole('button', { name: 'Make link' }).click();
  const card = her.getByTestId('tracking-link').filter({ hasText: 'TikTok bio' });
  await expect(card.getByTestId('link-discount')).toContainText('50 % off the first month of Monthly');
  const url = await card.getByRole('textbox', { name: 'Address of TikTok bio' }).inputValue();
  expect(url).toMatch(new RegExp(`/${creator.username.replace('.', '\\.')}\\?l=[a-z0-9]{8}$`));
  await her.getByRole('radio', { name: 'Nothing more' }).check();
  await her.getByLabel('Name').fill('My blog');
  await her.getByRole('button', { name: 'Make link' }).click();
  const blogCard = her.getByTestId('tracking-link').filter({ hasText: 'My blog' });
  await expect(blogCard).toBeVisible();
  blogState.creator = creator.username;
  blogState.link = (await blogCard.getAttribute('data-code'))!;

  // 3. A visitor opens the TikTok link: her profile tells him of the discount. He signs up in that browser.
  const fanContext = await browser.newContext();
  const fan = await fanContext.newPage();
  await agreeToTerms(fan);
  const visited = fan.waitForResponse((response) => response.url().endsWith('/papi/links/visit'));
  await fan.goto(url);
  expect(((await (await visited).json()) as Envelope<unknown>).statusCode).toBe(2);
  const discountBox = fan.getByTestId('link-offer');
  await expect(discountBox.getByRole('heading', { name: '50 % off your first month' })).toBeVisible();
  await expect(discountBox).toContainText(`your first month costs ${formatPrice(firstMonth, salt)}`);
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

  // 4. He buys credits with the sandbox's card, subscribes on her profile (the discounted first month) and tips on the platform.
  const pkg = (await creditPackages(fan.request, fanToken)).sort((a, b) => a.cValue - b.cValue).find((p) => p.gValue >= 2000)!;
  const order = (await (await fan.request.post('/api/payments/pay-new-card', { headers: bearer(fanToken), data: { packageId: pkg.id, processor: 'sandbox' } })).json()) as Envelope<{ redirectUrl: string }>;
  await fan.goto(order.body.redirectUrl);
  await payOnCardPage(fan, testCards.pays, formatMoney(pkg.gValue));
  await expect.poll(async () => (await balanceOf(fan.request, fanToken)).gBalance).toBe(pkg.cValue);
  // Her profile's purchase tells him the first month's price the server will charge, and charges it.
  await fan.goto(`/${creator.username}`);
  await fan.getByRole('button', { name: /^Subscribe · / }).click();
  const purchase = fan.getByRole('dialog');
  await expect(purchase.getByTestId('subscription-first-month')).toHaveText(`First month ${formatPrice(firstMonth, salt)} (50 % off through the link you came by)`);
  await purchase.getByRole('button', { name: `Subscribe: ${formatPrice(firstMonth, salt)} now, then ${formatPrice(offer.priceCents, salt)} a month` }).click();
  await expect.poll(async () => (await balanceOf(fan.request, fanToken)).gBalance).toBe(pkg.cValue - fanPriceCents(firstMonth, salt));
  const gift = (await giftCatalogue(fan.request)).sort((a, b) => a.gValue - b.gValue)[0]!;
  const tipped = await fan.request.post('/api/users/tip', { headers: bearer(fanToken), data: { userId: creator.id, giftId: gift.id, idempotencyKey: `k${Date.now()}` } });
  expect(((await tipped.json()) as Envelope<unknown>).statusCode).toBeGreaterThan(0);

  // 5. On her blog he clicks her tip button: the widget's sign-in popup asks him to allow the
  //    site, which it names as listed by her (proven); he confirms the tip in the platform's popup.
  const blogPageOfFan = await fanContext.newPage();
  const blogVisit = blogPageOfFan.waitForResponse((response) => response.url().endsWith('/papi/links/widget-visit'));
  await blogPageOfFan.goto(blog);
  expect(((await (await blogVisit).json()) as Envelope<{ visitor: string }>).body.visitor).toMatch(/^[A-Za-z0-9_-]{22}$/);
  const tipButton = blogPageOfFan.locator('fanstage-tip-button');
  const signingIn = blogPageOfFan.waitForEvent('popup');
  await tipButton.getByRole('button', { name: /^Send a tip to / }).click();
  const consent = await signingIn;
  await expect(consent.getByRole('heading', { name: `Allow ${blog} to use your Fanstage account?` })).toBeVisible();
  await expect(consent.getByText(/listed for widgets by/)).toBeVisible();
  await clickClosingItsWindow(consent, consent.getByRole('button', { name: 'Allow' }));
  const tipDialog = tipButton.getByRole('dialog');
  await expect(tipDialog).toContainText(`Your balance: ${formatMoney(pkg.cValue - fanPriceCents(firstMonth, salt) - gift.gValue)}`);
  await tipDialog.getByRole('radio', { name: new RegExp(`^${gift.name}`) }).click();
  const asking = blogPageOfFan.waitForEvent('popup');
  await tipDialog.getByRole('button', { name: `Send ${gift.name} for ${formatMoney(gift.gValue)}` }).click();
  const confirm = await asking;
  await clickClosingItsWindow(confirm, confirm.getByRole('button', { name: `Confirm ${formatMoney(gift.gValue)}` }));
  await expect(tipButton.getByRole('status').filter({ hasText: 'Gift sent. Thank you!' })).toBeVisible();

  // 6. Her statistics: each link's visit, sign-up, subscription and revenue; earnings by place, link and kind.
  const earned = (await balanceOf(request, creator.token)).cBalance;
  expect(earned).toBe(firstMonth + 2 * gift.cValue);
  await her.reload();
  await expect(her.getByTestId('statistics-total')).toHaveText(formatMoney(earned));
  await expect(card.getByTestId('link-visits')).toHaveText('1');
  await expect(card.getByTestId('link-signups')).toHaveText('1 (100%)');
  await expect(card.getByTestId('link-subscriptions')).toHaveText('1 (100%)');
  await expect(card.getByTestId('link-revenue')).toHaveText(formatMoney(firstMonth + gift.cValue));
  await expect(card.getByTestId('link-discount')).toContainText('used 1×');
  // The blog's link: his visit there, his own once he signed in through the widget.
  await expect(blogCard.getByTestId('link-visits')).toHaveText('1');
  await expect(blogCard.getByTestId('link-signups')).toHaveText('0 (0%)');
  await expect(blogCard.getByTestId('link-revenue')).toHaveText(formatMoney(gift.cValue));
  await expect(her.getByTestId('subscribers-gained')).toHaveText('1');

  // By kind (the first view): a subscription and two tips, in the chart and in its table.
  await expect(her.getByTestId('statistics-chart').locator('canvas')).toBeVisible();
  await her.getByRole('button', { name: 'Show as a table' }).click();
  await expect(totalOf(her, 'subscription')).toHaveText(formatMoney(firstMonth));
  await expect(totalOf(her, 'gift')).toHaveText(formatMoney(2 * gift.cValue));
  await expect(totalOf(her, 'total')).toHaveText(formatMoney(earned));
  // By place: the platform and her blog.
  await her.getByTestId('statistics-group').selectOption('place');
  await expect(totalOf(her, 'platform')).toHaveText(formatMoney(firstMonth + gift.cValue));
  await expect(totalOf(her, blog)).toHaveText(formatMoney(gift.cValue));
  await expect(her.getByTestId('statistics-table').locator('thead')).toContainText(blog);
  // By link: TikTok bio brought the subscription and the platform's tip, her blog's link the blog's tip.
  await her.getByTestId('statistics-group').selectOption('link');
  await expect(her.getByTestId('statistics-table').locator('thead')).toContainText('TikTok bio');
  await expect(her.getByTestId('statistics-table').locator('thead')).toContainText('My blog');
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
  // The site screen holds at 375 px too.
  await her.goto('/settings/widget-sites');
  await expect(site.getByTestId('widget-site-state')).toHaveText('Proven');
  await expect.poll(() => her.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

  await herContext.close();
  await fanContext.close();
});
