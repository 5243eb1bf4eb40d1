import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { formatMoney } from '../../lib/ui/shared/money';
import { apiProfile, clickClosingItsWindow, expectNoSeriousA11yViolations } from './support';
import { signUpVerifiedFan } from './postsSupport';
import { postThroughApi, signUpCreator } from './creatorSupport';
import { accessToken, balanceOf, creditPackages, giftCatalogue, payOnCardPage, testCards } from './moneySupport';

/**
 * A creator's fan club on a site nobody listed for widgets: served by the test itself on the
 * other loopback name and a port of its own, so it is another origin and another site than
 * the platform, with no relation to it but the script tag. The creator is named in the query
 * (`/?creator=`): the test tips one of its own, whose earnings nothing else touches.
 */
function fanClubPage(platform: string, creator: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>A fan club</title>
    <script src="${platform}/embed/${release.loader}" integrity="${release.files['fanstage.js']}" crossorigin="anonymous" async></script>
    <script>
      window.fanstageEvents = [];
      for (const type of ${JSON.stringify(activityTypes)}) {
        document.addEventListener('fanstage:' + type, (event) => fanstageEvents.push({ type: event.type, on: event.target.localName, detail: event.detail }));
      }
    </script>
  </head>
  <body>
    <main>
      <h1>A fan club</h1>
      <fanstage-profile-card user="${creator}"></fanstage-profile-card>
      <fanstage-tip-button creator="${creator}"></fanstage-tip-button>
      <fanstage-wallet></fanstage-wallet>
      <fanstage-feed creator="${creator}"></fanstage-feed>
    </main>
  </body>
</html>`;
}

/**
 * The fan club pins the release it was written for, as docs/embedding.md says a partner may: the
 * versioned address with its Subresource Integrity hash, published next to the loader.
 */
const release = JSON.parse(readFileSync('dist/embed/integrity.json', 'utf8')) as { version: string; loader: string; files: Record<'fanstage.js', string> };
const activityTypes = ['follow', 'unfollow', 'tip', 'unlock', 'subscribe', 'messagesent', 'callstart', 'callend', 'signin', 'signout'];
type RecordedEvent = { type: string; on: string; detail: Record<string, unknown> };
const eventsOn = (page: Page) => page.evaluate(() => (window as unknown as { fanstageEvents: RecordedEvent[] }).fanstageEvents);

/** The same site's page with nothing of Fanstage but one tip button. */
function tipPage(platform: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Tip Lucy</title>
    <link rel="icon" href="data:," />
    <script src="${platform}/embed/fanstage.js" async></script>
  </head>
  <body>
    <main>
      <h1>Tip Lucy</h1>
      <p>Liked the photos? <fanstage-tip-button creator="lucy.rivers"></fanstage-tip-button></p>
    </main>
  </body>
</html>`;
}

let site: Server;
let stranger: string;

test.beforeAll(async ({ baseURL }) => {
  const tip = tipPage(baseURL!);
  site = createServer((request, response) => {
    // The page itself is revalidated on every visit, as a site's HTML usually is.
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    const url = new URL(request.url ?? '/', 'http://localhost');
    const creator = /^[\w.]+$/.exec(url.searchParams.get('creator') ?? '')?.[0] ?? 'lucy.rivers';
    response.end(url.pathname === '/tip' ? tip : fanClubPage(baseURL!, creator));
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

test('widgets on a site nobody listed: real public data, sign-in only with the fan’s consent, spends only on his word in the platform’s popup or within the allowance he set, no card charged without his click there, no account taken, and revocation in settings', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const platform = baseURL!;
  const context = await browser.newContext();
  const home = await context.newPage();
  const email = await signUpVerifiedFan(home, 'trustfan');
  const fanToken = await accessToken(home.request, email);
  // The creator of the fan club, one of the test's own, with a post for her feed.
  const own = await signUpCreator(home.request, { name: 'Tess', avatar: true });
  await postThroughApi(home.request, own.token, 'Behind the scenes of the new series', 0);
  const her = await apiProfile(home.request, own.username);

  // The fan buys credits on the platform with the sandbox's test card, as in the wallet, and keeps the card.
  const packages = (await creditPackages(home.request, fanToken)).sort((a, b) => a.cValue - b.cValue);
  const pkg = packages.find((p) => p.gValue === 2000)!;
  const order = await home.request.post('/api/payments/pay-new-card', {
    headers: { authorization: `Bearer ${fanToken}` },
    data: { packageId: pkg.id, processor: 'sandbox', saveCard: true },
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
  await page.goto(`${stranger}/?creator=${own.username}`);

  // 1. Public widgets show the platform's real data to a visitor on any page.
  const card = page.locator('fanstage-profile-card');
  await expect(card.getByRole('heading', { name: her.displayName })).toBeVisible();
  const feed = page.locator('fanstage-feed');
  await expect(feed.getByRole('article').first()).toBeVisible();
  const tipButton = page.locator('fanstage-tip-button');
  const tip = tipButton.getByRole('button', { name: `Send a tip to ${her.displayName}` });
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
  await clickClosingItsWindow(popup, popup.getByRole('button', { name: 'Allow' }));
  // The page hears of it (docs/embedding.md, "Events").
  await expect.poll(() => eventsOn(page)).toEqual([{ type: 'fanstage:signin', on: 'fanstage-tip-button', detail: { userId: expect.any(Number) } }]);

  // 3. A tip from the widget is the fan's to confirm, in a popup on the platform naming the site,
  //    the creator and the amount (the default the consent screen offered: ask every time).
  const gifts = await giftCatalogue(home.request);
  const giftOf = (name: string) => gifts.find((g) => g.name === name)!;
  const rose = giftOf('Rose');
  const tipDialog = tipButton.getByRole('dialog', { name: `Send ${her.displayName} a tip` });
  const chooseAndSend = async (gift: { name: string; gValue: number }) => {
    if (!(await tipDialog.isVisible())) await tipButton.getByRole('button', { name: `Send a tip to ${her.displayName}` }).click();
    await tipDialog.getByRole('radio', { name: new RegExp(`^${gift.name}`) }).click();
    await tipDialog.getByRole('button', { name: `Send ${gift.name} for ${formatMoney(gift.gValue)}` }).click();
  };
  await expect(tipDialog).toContainText(`Your balance: ${formatMoney(pkg.cValue)}`);
  const asking = page.waitForEvent('popup');
  await chooseAndSend(rose);
  const confirm = await asking;
  await expect(confirm.getByRole('heading', { name: 'Confirm a payment' })).toBeVisible();
  await expect(confirm.getByText(`${stranger} asks you to pay on Fanstage.`)).toBeVisible();
  await expect(confirm.getByText(her.displayName, { exact: true })).toBeVisible();
  await expect(confirm.getByText(`A tip: ${rose.name}`)).toBeVisible();
  await expect(confirm.getByText(`${formatMoney(pkg.cValue)} → ${formatMoney(pkg.cValue - rose.gValue)}`)).toBeVisible();
  await expectNoSeriousA11yViolations(confirm);
  // Cancel moves nothing, and the widget says so.
  await clickClosingItsWindow(confirm, confirm.getByRole('button', { name: 'Cancel' }));
  await expect(tipDialog.getByRole('alert')).toHaveText('You cancelled the payment. Nothing was charged.');
  expect((await balanceOf(home.request, fanToken)).gBalance).toBe(pkg.cValue);
  // Confirm tips once.
  const askingAgain = page.waitForEvent('popup');
  await chooseAndSend(rose);
  const secondAsk = await askingAgain;
  await clickClosingItsWindow(secondAsk, secondAsk.getByRole('button', { name: `Confirm ${formatMoney(rose.gValue)}` }));
  await expect(tipButton.getByRole('status').filter({ hasText: 'Gift sent. Thank you!' })).toBeVisible();
  await expect.poll(async () => (await balanceOf(home.request, fanToken)).gBalance).toBe(pkg.cValue - rose.gValue);
  // The confirmed tip, and not the cancelled one, reached the page as an event from the tip button.
  const tips = (await eventsOn(page)).filter((event) => event.type === 'fanstage:tip');
  expect(tips).toEqual([{ type: 'fanstage:tip', on: 'fanstage-tip-button', detail: { userId: her.id, giftId: rose.id, balance: pkg.cValue - rose.gValue } }]);

  // 3b. With $10 a month allowed to the site in settings, tips up to $10 go without asking; the next one asks.
  await home.goto('/settings');
  const allowedSites = home.getByRole('region', { name: 'Sites you allowed' });
  await allowedSites.getByLabel('Spending without asking').selectOption({ label: 'Up to $10.00 a month' });
  await expect(allowedSites.getByRole('status')).toHaveText(`${stranger} may now spend up to $10.00 a month without asking you.`);
  let popups = 0;
  page.on('popup', () => void (popups += 1));
  for (const name of ['Cupcake', 'Coffee']) {
    await chooseAndSend(giftOf(name));
    // Sent without a word from the platform: the dialog closes on the answer.
    await expect(tipDialog).toBeHidden();
    await expect(tipButton.getByRole('status').filter({ hasText: 'Gift sent. Thank you!' })).toBeVisible();
  }
  expect(popups, 'no popup within the allowance').toBe(0);
  const spentOnSite = rose.gValue + giftOf('Cupcake').gValue + giftOf('Coffee').gValue;
  await expect.poll(async () => (await balanceOf(home.request, fanToken)).gBalance).toBe(pkg.cValue - spentOnSite);
  const beyond = page.waitForEvent('popup');
  await chooseAndSend(rose);
  const beyondPopup = await beyond;
  await expect(beyondPopup.getByText(`A tip: ${rose.name}`)).toBeVisible();
  await clickClosingItsWindow(beyondPopup, beyondPopup.getByRole('button', { name: 'Cancel' }));
  await expect(tipDialog.getByRole('alert')).toHaveText('You cancelled the payment. Nothing was charged.');
  await tipDialog.getByRole('button', { name: 'Close' }).click();
  // Settings shows the month's spend on the site with its receipts.
  await home.reload();
  await expect(allowedSites.getByText(`Spent this month: ${formatMoney(spentOnSite)}`)).toBeVisible();
  await allowedSites.getByRole('button', { name: 'Receipts' }).click();
  const receipts = allowedSites.getByRole('list', { name: `This month's payments on ${stranger}` });
  await expect(receipts.getByRole('listitem')).toHaveCount(3);
  await expect(receipts.getByRole('listitem').filter({ hasText: 'confirmed by you' })).toHaveCount(1);
  await expect(receipts.getByRole('listitem').filter({ hasText: 'within the allowance' })).toHaveCount(2);

  // 3c. A top-up from the widget charges the saved card only after the click in the platform's card window.
  const wallet = page.locator('fanstage-wallet');
  const small = packages[0]!;
  await wallet.getByRole('button', { name: 'Buy credits' }).click();
  const buy = wallet.getByRole('region', { name: 'Buy credits' });
  await buy.getByRole('radio', { name: new RegExp(`^${formatMoney(small.cValue).replace('$', '\\$')} in credits`) }).check();
  await buy.getByRole('radio', { name: /Visa/ }).check();
  const cardWindowOpened = page.waitForEvent('popup');
  await buy.getByRole('button', { name: new RegExp(`^Pay ${formatMoney(small.gValue).replace('$', '\\$')}`) }).click();
  const cardWindow = await cardWindowOpened;
  await expect(cardWindow.getByRole('heading', { name: 'Pay with your card' })).toBeVisible();
  await expect(cardWindow.getByText(`${stranger} asks you to pay on Fanstage.`)).toBeVisible();
  const before = (await balanceOf(home.request, fanToken)).gBalance;
  expect(before, 'nothing charged before the click').toBe(pkg.cValue - spentOnSite);
  await clickClosingItsWindow(cardWindow, cardWindow.getByRole('button', { name: new RegExp(`^Pay ${formatMoney(small.gValue).replace('$', '\\$')} with Visa`) }));
  await expect.poll(async () => (await balanceOf(home.request, fanToken)).gBalance).toBe(before + small.cValue);
  await expect(buy.getByRole('status')).toHaveText(`Credits added. Your balance is now ${formatMoney(before + small.cValue)}.`);

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
  await tipButton.getByRole('button', { name: `Send a tip to ${her.displayName}` }).click();
  const asked = await again;
  await expect(asked.getByRole('heading', { name: `Allow ${stranger} to use your Fanstage account?` })).toBeVisible();
  await clickClosingItsWindow(asked, asked.getByRole('button', { name: 'Cancel' }));
  await expect(tipDialog).toBeHidden();
  await context.close();
});

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

/** The files a chunk of the script tag needs, transitively; with `lazy`, also those it may import later. */
function filesOf(manifest: Record<string, ManifestChunk>, key: string, lazy: boolean, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const next of [...(chunk.imports ?? []), ...(lazy ? (chunk.dynamicImports ?? []) : [])]) filesOf(manifest, next, lazy, into);
  return into;
}

test('a page with one tip button fetches the tip button’s chunks and no other widget’s, and a second visit takes every script from the cache', async ({ browser, baseURL }) => {
  const platform = baseURL!;
  const manifest = JSON.parse(readFileSync('dist/embed/.vite/manifest.json', 'utf8')) as Record<string, ManifestChunk>;
  // What the page may load: the tip button with everything behind it, and the runtime (window.Fanstage), not the elements it could load.
  const allowed = filesOf(manifest, 'elements/script/tip-button.ts', true, filesOf(manifest, 'elements/embed.ts', false));
  const otherWidgets = ['profile-card', 'feed', 'wallet', 'chat', 'call'].map((name) => manifest[`elements/script/${name}.ts`]!.file);
  for (const file of otherWidgets) expect(allowed.has(file), file).toBe(false);

  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  // Every request by id: its address, and whether the answer came from the network or a cache.
  const requests = new Map<string, { url: string; method: string; cached: boolean; status: number }>();
  cdp.on('Network.requestWillBeSent', (event) => requests.set(event.requestId, { url: event.request.url, method: event.request.method, cached: false, status: 0 }));
  cdp.on('Network.requestServedFromCache', (event) => {
    const request = requests.get(event.requestId);
    if (request) request.cached = true;
  });
  cdp.on('Network.responseReceived', (event) => {
    const request = requests.get(event.requestId);
    if (!request) return;
    request.status = event.response.status;
    if (event.response.fromDiskCache || event.response.fromPrefetchCache) request.cached = true;
  });
  const embedFiles = () =>
    [...requests.values()].filter((r) => r.url.startsWith(`${platform}/embed/`)).map((r) => ({ ...r, file: new URL(r.url).pathname.slice('/embed/'.length) }));

  const tipButton = page.locator('fanstage-tip-button');
  const visit = async () => {
    requests.clear();
    await page.goto(`${stranger}/tip`);
    await expect(tipButton.getByRole('button', { name: 'Send a tip to Lucy Rivers' })).toBeVisible();
    // The dialog's part and the runtime come with the reader's intent: the pointer over the button.
    await tipButton.hover();
    await expect.poll(() => page.evaluate(() => (window as unknown as { Fanstage?: { loaded?: boolean } }).Fanstage?.loaded)).toBe(true);
    await expect(tipButton.locator('[data-fs-lite]')).toHaveCount(0);
    await page.waitForLoadState('networkidle');
  };

  // 1. The first visit: the loader, then only the tip button's chunks (and what they share with the runtime).
  await visit();
  const first = embedFiles();
  expect(first.map((r) => r.file)).toContain('fanstage.js');
  const scripts = first.filter((r) => r.file !== 'fanstage.js').map((r) => r.file);
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((file) => !allowed.has(file))).toEqual([]);
  for (const file of otherWidgets) expect(scripts).not.toContain(file);
  // Each piece once.
  expect(scripts.length).toBe(new Set(scripts).size);
  expect(first.every((r) => r.status === 200)).toBe(true);

  // 2. The second visit fetches the page and nothing else of ours: the loader within its five
  // minutes, the chunks for good (their names change with their content).
  await visit();
  const second = [...requests.values()];
  const fromNetwork = second.filter((r) => !r.cached && r.method === 'GET' && !r.url.includes('/papi/'));
  expect(fromNetwork.map((r) => r.url)).toEqual([`${stranger}/tip`]);
  expect(embedFiles().map((r) => r.file).sort()).toEqual(first.map((r) => r.file).sort());
  await context.close();
});

test('a click on the tip button before its dialog has loaded is not lost: the sign-in opens once it is there, and keyboard focus stays on the button', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // Holds the dialog's chunk back until the button has been clicked.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route(/\/embed\/assets\/tip-button-full-[\w-]+\.js$/, async (route) => {
    held += 1;
    await released;
    await route.continue();
  });
  await page.goto(`${stranger}/tip`);
  const tipButton = page.locator('fanstage-tip-button');
  const lite = tipButton.locator('[data-fs-lite] button');
  // The React-free button, named like the React one.
  await expect(lite).toHaveAccessibleName('Send a tip to Lucy Rivers');
  await expect(lite).toHaveAttribute('aria-haspopup', 'dialog');
  await lite.focus();
  const popupOpened = page.waitForEvent('popup');
  await lite.click();
  await expect.poll(() => held).toBeGreaterThan(0);
  release();
  // One click: the visitor is asked to sign in through the platform's popup.
  const popup = await popupOpened;
  expect(new URL(popup.url()).pathname).toBe('/embed/login');
  // Closed once it shows its form: Chromium can lose the close of a window still committing its
  // first page, and the test would hang on it.
  await expect(popup.getByRole('heading', { name: 'Sign in with Fanstage' })).toBeVisible();
  await popup.close();
  // The React button took the light one's place, focused.
  await expect(tipButton.locator('[data-fs-lite]')).toHaveCount(0);
  await expect(tipButton.getByRole('button', { name: 'Send a tip to Lucy Rivers' })).toBeFocused();
  await context.close();
});
