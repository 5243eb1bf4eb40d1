import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { formatMoney } from '../../lib/ui/WalletTopUp/money';
import { apiProfile, expectNoSeriousA11yViolations } from './support';
import { signUpVerifiedFan } from './postsSupport';
import { accessToken, balanceOf, creditPackages, giftCatalogue, payOnCardPage, testCards } from './moneySupport';

/**
 * A creator's fan club on a site nobody listed for widgets: served by the test itself on the
 * other loopback name and a port of its own, so it is another origin and another site than
 * the platform, with no relation to it but the script tag.
 */
function fanClubPage(platform: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Lucy's fan club</title>
    <script src="${platform}/embed/fanstage.js" async></script>
  </head>
  <body>
    <main>
      <h1>Lucy's fan club</h1>
      <fanstage-profile-card user="lucy.rivers"></fanstage-profile-card>
      <fanstage-tip-button creator="lucy.rivers"></fanstage-tip-button>
      <fanstage-feed creator="lucy.rivers"></fanstage-feed>
    </main>
  </body>
</html>`;
}

let site: Server;
let stranger: string;

test.beforeAll(async ({ baseURL }) => {
  const html = fanClubPage(baseURL!);
  site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  stranger = `http://localhost:${(site.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
});

/** An API call made by the stranger's page itself, with a token it holds: what a script there could do. */
async function fetchFromPage(page: Page, url: string, init: { method: string; token: string; body?: unknown }) {
  return page.evaluate(
    async ({ url, init }) => {
      const response = await fetch(url, {
        method: init.method,
        headers: { authorization: `Bearer ${init.token}`, 'content-type': 'application/json', apiversion: '1.0' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      return { status: response.status, json: (await response.json()) as { statusCode: number; statusText?: string } };
    },
    { url, init },
  );
}

test('widgets on a site nobody listed: real public data, sign-in only with the fan’s consent, a widget session that can tip but not take the account, and revocation in settings', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const platform = baseURL!;
  const context = await browser.newContext();
  const home = await context.newPage();
  const email = await signUpVerifiedFan(home, 'trustfan');
  const fanToken = await accessToken(home.request, email);
  const lucy = await apiProfile(home.request, 'lucy.rivers');

  // The fan buys credits on the platform with the sandbox's test card, as in the wallet.
  const pkg = (await creditPackages(home.request, fanToken)).sort((a, b) => a.cValue - b.cValue)[0]!;
  const order = await home.request.post('/api/payments/pay-new-card', {
    headers: { authorization: `Bearer ${fanToken}` },
    data: { packageId: pkg.id, processor: 'sandbox' },
  });
  const { body: checkout } = (await order.json()) as { body: { redirectUrl: string } };
  await home.goto(checkout.redirectUrl);
  await payOnCardPage(home, testCards.pays, formatMoney(pkg.gValue));
  await expect(home).toHaveURL(/\/gopay-return/);
  await expect.poll(async () => (await balanceOf(home.request, fanToken)).gBalance).toBe(pkg.cValue);

  // Every request the fan club's page makes to the platform, with the headers the browser sent.
  const page = await context.newPage();
  const sent: { url: string; authorization: string; cookie: string }[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(platform)) return;
    void request.allHeaders().then((headers) => sent.push({ url: request.url(), authorization: headers.authorization ?? '', cookie: headers.cookie ?? '' }));
  });
  await page.goto(`${stranger}/`);

  // 1. Public widgets show the platform's real data to a visitor on any page.
  const card = page.locator('fanstage-profile-card');
  await expect(card.getByRole('heading', { name: lucy.displayName })).toBeVisible();
  const feed = page.locator('fanstage-feed');
  await expect(feed.getByRole('article').first()).toBeVisible();
  const tipButton = page.locator('fanstage-tip-button');
  const tip = tipButton.getByRole('button', { name: `Send a tip to ${lucy.displayName}` });
  await expect(tip).toBeVisible();
  // The page cannot read the platform's session: its cookie is neither sent nor answered.
  const refresh = await page.evaluate(async (url) => {
    try {
      const response = await fetch(url, { credentials: 'include' });
      return `read ${response.status}`;
    } catch {
      return 'refused by the browser';
    }
  }, `${platform}/papi/login/refresh`);
  expect(refresh).toBe('refused by the browser');

  // 2. Signing in there asks the fan, signed in on the platform already, to allow this site.
  const popupOpened = page.waitForEvent('popup');
  await tip.click();
  const popup = await popupOpened;
  await expect(popup.getByRole('heading', { name: `Allow ${stranger} to use your Fanstage account?` })).toBeVisible();
  await expect(popup.getByText('is not listed by any creator on Fanstage')).toBeVisible();
  await expect(popup.getByText(/^@trustfan/)).toBeVisible();
  await expect(popup.getByText('change your password or e-mail, or delete your account')).toBeVisible();
  await expectNoSeriousA11yViolations(popup);
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Allow' }).click();
  await closed;

  // 3. The widget session tips.
  const gift = (await giftCatalogue(home.request)).reduce((cheapest, g) => (g.gValue < cheapest.gValue ? g : cheapest));
  const tipDialog = tipButton.getByRole('dialog', { name: `Send ${lucy.displayName} a tip` });
  await expect(tipDialog).toContainText(`Your balance: ${formatMoney(pkg.cValue)}`);
  await tipDialog.getByRole('radio', { name: new RegExp(`^${gift.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).click();
  await tipDialog.getByRole('button', { name: `Send ${gift.name} for ${formatMoney(gift.gValue)}` }).click();
  await expect(tipButton.getByRole('status').filter({ hasText: 'Gift sent. Thank you!' })).toBeVisible();
  await expect.poll(async () => (await balanceOf(home.request, fanToken)).gBalance).toBe(pkg.cValue - gift.gValue);

  // 4. …and nothing more. A script on the site holding the widget's token is refused the rest.
  const widgetToken = sent.map((request) => request.authorization).find((header) => header.startsWith('Bearer '))?.slice('Bearer '.length);
  expect(widgetToken).toBeDefined();
  expect(widgetToken).not.toBe(fanToken);
  const attempts = [
    { method: 'PUT', url: '/api/users/me', body: { currentPassword: 'correct horse battery staple', newPassword: 'taken over at last' } },
    { method: 'PUT', url: '/api/users/me', body: { embedOrigins: [stranger] } },
    { method: 'POST', url: '/api/earnings/payout', body: { cPayout: 100 } },
  ];
  for (const attempt of attempts) {
    const answer = await fetchFromPage(page, `${platform}${attempt.url}`, { method: attempt.method, token: widgetToken!, body: attempt.body });
    expect({ ...attempt, answer }).toEqual({ ...attempt, answer: { status: 403, json: { statusCode: -1, statusText: 'widget-scope' } } });
  }
  // No request of the page ever carried the platform's cookie.
  expect(sent.filter((request) => request.cookie.includes('fs_refresh'))).toEqual([]);

  // 5. In settings on the platform the fan sees the site and revokes it.
  await home.goto('/settings');
  const sites = home.getByRole('region', { name: 'Sites you allowed' });
  await expect(sites.getByText(stranger, { exact: true })).toBeVisible();
  await sites.getByRole('button', { name: `Revoke ${stranger}` }).click();
  await expect(sites.getByRole('status')).toHaveText(`${stranger} can no longer use your account; it was signed out.`);
  await expect(sites.getByText('No site can use your account through widgets.')).toBeVisible();

  // 6. The widget session is over: its token is refused, and after a reload the site must ask again.
  const after = await fetchFromPage(page, `${platform}/api/count/`, { method: 'GET', token: widgetToken! });
  expect(after.status).toBe(401);
  await page.reload();
  const again = page.waitForEvent('popup');
  await tipButton.getByRole('button', { name: `Send a tip to ${lucy.displayName}` }).click();
  const asked = await again;
  await expect(asked.getByRole('heading', { name: `Allow ${stranger} to use your Fanstage account?` })).toBeVisible();
  await asked.getByRole('button', { name: 'Cancel' }).click();
  await expect(tipDialog).toBeHidden();
  await context.close();
});
