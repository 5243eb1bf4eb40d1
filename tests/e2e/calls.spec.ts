import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { fanPriceCents, formatPrice } from '../../lib/sdk/rules/price';
import { formatMoney } from '../../lib/ui/shared/money';
import type { CreditPackage } from '../../lib/contract';
import { apiProfile, clickClosingItsWindow, viewports } from './support';
// The calls need the full browser: the headless shell decodes no fake camera's video, and a
// popup opened from a popup's answer does not reach the page there.
import { fullChromium } from './browsers';
import { signUpVerifiedFan } from './postsSupport';
import { accessToken, balanceOf, creditPackages, giftCatalogue, payOnCardPage, priceSalt, testCards } from './moneySupport';
import { demoPageOf, logInCreator, signUpCreator } from './creatorSupport';
import { expectRemoteVideoPlays, launchArgs, loopbackOnly } from './callSupport';

/**
 * A paid video call between two browsers (two Chromiums, as two people on two machines), each
 * on fake camera and microphone. The traffic stays on this machine: no STUN servers (the server
 * configures none), loopback allowed, and only `127.0.0.1` candidates leave each page — the
 * test wraps the browser's RTCPeerConnection for that, not our code. The creator called is one
 * of the test's own (creatorSupport.ts): what she earns, her price and the calls ringing on her
 * pages are hers alone, whatever runs beside the test.
 */

/** Her price a minute: the 128-credit call step of SPEC §9. */
const callPrice = 128;

async function personIn(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: viewports.web });
  await context.addInitScript(loopbackOnly);
  return context.newPage();
}

/** Buys the smallest credit package with the sandbox's test card, from the wallet in settings. */
async function buyCredits(fan: Page, token: string): Promise<CreditPackage> {
  const pkg = (await creditPackages(fan.request, token)).sort((a, b) => a.cValue - b.cValue)[0]!;
  await fan.goto('/settings/wallet');
  const topUp = fan.getByRole('region', { name: 'Buy credits' });
  await topUp.getByRole('radio', { name: new RegExp(`^${escapeRegExp(formatMoney(pkg.cValue))} in credits`) }).check();
  await topUp.getByRole('radio', { name: 'A new card' }).check();
  await topUp.getByRole('button', { name: `Pay ${formatMoney(pkg.gValue)}` }).click();
  await payOnCardPage(fan, testCards.pays, formatMoney(pkg.gValue));
  await expect(fan.getByTestId('payment-outcome')).toHaveAttribute('data-outcome', 'paid');
  await expect.poll(async () => (await balanceOf(fan.request, token)).gBalance).toBe(pkg.cValue);
  return pkg;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `+$1.28` or `−$1.60` (formatMoney's minus sign) back to cents. */
function centsOf(text: string): number {
  const match = /^([+−-]?)\$(\d+)\.(\d{2})$/.exec(text.trim());
  expect(match, `an amount: ${text}`).not.toBeNull();
  const cents = Number(match![2]) * 100 + Number(match![3]);
  return match![1] === '−' || match![1] === '-' ? -cents : cents;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The call window's layout at the site's three widths, while the call is live: no sideways
 * scrolling, and the other side's video, the timer, the meter and the hang-up button all on
 * screen at the top of the page, each clear of the others and of the site's own bars (what is
 * under each one's centre is that element). Measured in one go per width: the call runs on
 * while this looks. Screenshots go to /tmp for a person to look at.
 */
async function expectCallLayoutFits(page: Page): Promise<void> {
  for (const [name, size] of Object.entries(viewports)) {
    await page.setViewportSize(size);
    await expect(page.getByTestId('call-hang-up')).toBeVisible();
    const layout = await page.evaluate(() => {
      window.scrollTo(0, 0);
      const root = document.scrollingElement!;
      const parts = {
        video: document.querySelector('[data-testid="call-remote-video"]'),
        timer: document.querySelector('[data-testid="call-window"] [role="timer"]'),
        meter: document.querySelector('[data-testid="call-meter"]'),
        hangUp: document.querySelector('[data-testid="call-hang-up"]'),
      };
      const boxes: Record<string, { x: number; y: number; width: number; height: number; onTop: boolean } | null> = {};
      for (const [part, element] of Object.entries(parts)) {
        if (!element) {
          boxes[part] = null;
          continue;
        }
        const r = element.getBoundingClientRect();
        // Nothing lies on top of it (the site's header or tab bar, the small self-view).
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        boxes[part] = { x: r.left, y: r.top, width: r.width, height: r.height, onTop: hit !== null && (hit === element || element.contains(hit)) };
      }
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, viewport: { width: window.innerWidth, height: window.innerHeight }, boxes };
    });
    await page.screenshot({ path: `/tmp/fanstage-call-${size.width}.png` });
    expect(layout.viewport, `${name}: the page has the viewport's size`).toEqual(size);
    expect(layout.scrollWidth, `${name}: no horizontal overflow`).toBeLessThanOrEqual(layout.clientWidth);
    const boxes: Record<string, Box> = {};
    for (const [part, box] of Object.entries(layout.boxes)) {
      expect(box, `${name}: ${part} is on the page`).not.toBeNull();
      const { onTop, ...rect } = box!;
      boxes[part] = rect;
      expect(rect.width * rect.height, `${name}: ${part} has a size`).toBeGreaterThan(0);
      expect(rect.x, `${name}: ${part} starts inside the viewport`).toBeGreaterThanOrEqual(0);
      expect(rect.y, `${name}: ${part} starts inside the viewport`).toBeGreaterThanOrEqual(0);
      expect(rect.x + rect.width, `${name}: ${part} ends inside the viewport`).toBeLessThanOrEqual(size.width);
      expect(rect.y + rect.height, `${name}: ${part} ends inside the viewport`).toBeLessThanOrEqual(size.height);
      expect(onTop, `${name}: ${part} is not covered`).toBe(true);
    }
    const names = Object.keys(boxes);
    for (const [i, a] of names.entries()) {
      for (const b of names.slice(i + 1)) {
        const p = boxes[a]!;
        const q = boxes[b]!;
        const apart = p.x + p.width <= q.x || q.x + q.width <= p.x || p.y + p.height <= q.y || q.y + q.height <= p.y;
        expect(apart, `${name}: ${a} and ${b} do not overlap`).toBe(true);
      }
    }
  }
  await page.setViewportSize(viewports.web);
}

test('a fan with credit for one minute calls a creator, is told the time left, tops up in the call, goes on into the second minute and pays two minutes, on screen and in both histories', async ({ baseURL }) => {
  // About 1 min 5 s of call, and the setting up around it.
  test.setTimeout(240_000);
  const fanBrowser = await chromium.launch({ executablePath: fullChromium, args: launchArgs });
  const creatorBrowser = await chromium.launch({ executablePath: fullChromium, args: launchArgs });
  try {
    const creator = await personIn(creatorBrowser, baseURL!);
    const fan = await personIn(fanBrowser, baseURL!);

    // A name too long for one line of a phone: the call window keeps its controls in view anyway.
    const made = await signUpCreator(creator.request, { name: 'Ana', surname: 'Konstantinopolská-Wittelsbachová' });
    const creatorName = made.username;
    await logInCreator(creator, made);
    const creatorToken = await accessToken(creator.request, made.email);
    const priced = await creator.request.put('/api/users/me', { headers: { authorization: `Bearer ${creatorToken}` }, data: { callPrice } });
    expect(((await priced.json()) as { statusCode: number }).statusCode).toBeGreaterThan(0);
    const salt = await priceSalt(fan.request);
    const fanPays = fanPriceCents(callPrice, salt);
    const her = await apiProfile(fan.request, creatorName);

    const fanEmail = await signUpVerifiedFan(fan, 'callfan');
    const fanToken = await accessToken(fan.request, fanEmail);
    const pkg = await buyCredits(fan, fanToken);
    const fanAccount = (await (await fan.request.get('/api/users/me', { headers: { authorization: `Bearer ${fanToken}` } })).json()) as { body: { username: string; displayName?: string | null } };
    const fanName = fanAccount.body.displayName?.trim() || fanAccount.body.username;

    // She spends the credits down with a tip to another creator, to a little more than one
    // minute of the call: the server can hold the first minute, never the second.
    const gift = (await giftCatalogue(fan.request)).find((g) => pkg.cValue - g.gValue >= fanPays && pkg.cValue - g.gValue < 2 * fanPays);
    expect(gift, `a gift that leaves between one and two minutes of ${fanPays} out of ${pkg.cValue}`).toBeDefined();
    const sofia = await apiProfile(fan.request, 'sofia.bloom');
    const tipped = await fan.request.post('/api/users/tip', { headers: { authorization: `Bearer ${fanToken}` }, data: { userId: sofia.id, giftId: gift!.id } });
    expect(((await tipped.json()) as { statusCode: number }).statusCode).toBeGreaterThan(0);

    // She works on the site; the call may come on any page.
    await creator.goto('/timeline');
    await expect(creator.getByRole('heading', { level: 1 }).first()).toBeVisible();
    const fanBefore = await balanceOf(fan.request, fanToken);
    expect(fanBefore.gBalance).toBe(pkg.cValue - gift!.gValue);
    const creatorBefore = await balanceOf(creator.request, creatorToken);

    // 1. The fan calls from her profile: the button says the price a minute.
    await fan.goto(`/${creatorName}`);
    const callButton = fan.getByTestId('call-button');
    await expect(callButton).toContainText(`Call · ${formatPrice(callPrice, salt)}/min`);
    await callButton.click();
    await expect(fan).toHaveURL(/\/videocall\/[A-Za-z0-9_-]{22,}$/);
    const callId = new URL(fan.url()).pathname.split('/').at(-1)!;
    await expect(fan.getByRole('heading', { name: /^Calling / })).toBeVisible();

    // 2. The incoming-call screen shows over her timeline; she accepts and lands on the call.
    const incoming = creator.getByRole('alertdialog', { name: /is calling$/ });
    await expect(incoming).toBeVisible({ timeout: 15_000 });
    await expect(incoming).toContainText(`You earn ${formatMoney(callPrice)} a minute`);
    await incoming.getByRole('button', { name: 'Accept' }).click();
    await expect(creator).toHaveURL(new RegExp(`/videocall/${callId}$`));

    // 3. Each side decodes the other's video.
    const fanWindow = fan.getByTestId('call-window');
    await expectRemoteVideoPlays(fan);
    await expectRemoteVideoPlays(creator);
    await expect(fanWindow).toHaveAttribute('data-phase', 'live');
    await expect(fan.getByTestId('call-meter')).toHaveText(`Cost so far: ${formatMoney(fanPays)}`);
    await expect(creator.getByTestId('call-meter')).toHaveText(`Earned so far: ${formatMoney(callPrice)}`);

    // 4. A line of chat during the call reaches her.
    await fan.getByRole('textbox', { name: 'Write a message' }).fill('Hi Lucy!');
    await fan.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(creator.getByRole('log', { name: 'Chat' })).toContainText('Hi Lucy!');

    // 5. Ten seconds in, the server cannot hold the second minute: the fan sees the time
    // left, and the top-up opens in the call window.
    const warning = fanWindow.getByRole('alert').filter({ hasText: /Your credits run out in 0:[0-5]\d\. Top up to go on\./ });
    await expect(warning).toBeVisible({ timeout: 45_000 });
    // The top-up has to be in before the paid minute ends, so the fan keeps the first package
    // (the smallest) and pays with a new card in the card window (her saved card comes first).
    const topUp = fanWindow.getByRole('region', { name: 'Buy credits' });
    await topUp.getByRole('radio', { name: 'A new card' }).check();
    // The card page opens in a window of its own; the call stays where it is.
    const cardWindowOpened = fan.waitForEvent('popup');
    await topUp.getByRole('button', { name: `Pay ${formatMoney(pkg.gValue)}` }).click();
    const cardWindow = await cardWindowOpened;
    await expect(fanWindow.getByText(/^Time left: 0:[0-5]\d$/)).toBeVisible();
    await payOnCardPage(cardWindow, testCards.pays, formatMoney(pkg.gValue));
    if (!cardWindow.isClosed()) await cardWindow.waitForEvent('close');

    // 6. The server holds the next minute (creditOK): the warning goes, and the call goes on
    // with its video.
    await expect(warning).toBeHidden({ timeout: 15_000 });
    await expect(topUp).toBeHidden();
    expect(new URL(fan.url()).pathname).toBe(`/videocall/${callId}`);
    await expect(fanWindow).toHaveAttribute('data-phase', 'live');
    await expectRemoteVideoPlays(fan);
    await expectRemoteVideoPlays(creator);

    // 7. The call window fits a phone, a tablet and a wide screen while the call is live.
    await expectCallLayoutFits(fan);

    // 8. The call goes on into the second minute, the one her top-up paid for; once it has
    // begun the fan hangs up.
    await expect(fan.getByTestId('call-meter')).toHaveText(`Cost so far: ${formatMoney(2 * fanPays)}`, { timeout: 75_000 });
    await expect(creator.getByTestId('call-meter')).toHaveText(`Earned so far: ${formatMoney(2 * callPrice)}`, { timeout: 15_000 });
    await expect(fan.getByRole('timer', { name: 'Call time' })).toHaveText(/^1:\d\d$/);
    await expect(warning).toBeHidden();
    await expectRemoteVideoPlays(fan);
    await fan.getByTestId('call-hang-up').click();
    await expect(fan.getByTestId('call-totals')).toHaveText(`2 minutes · You paid ${formatMoney(2 * fanPays)}`, { timeout: 15_000 });
    await expect(creator.getByTestId('call-totals')).toHaveText(`2 minutes · You earned ${formatMoney(2 * callPrice)}`, { timeout: 15_000 });

    // Two minutes paid, once each: the fan's credits fell by them (and rose by her top-up),
    // her earnings rose by them, and the server's record says the same.
    const fanAfter = fanBefore.gBalance + pkg.cValue - 2 * fanPays;
    const creatorAfter = creatorBefore.cBalance + 2 * callPrice;
    await expect.poll(async () => (await balanceOf(fan.request, fanToken)).gBalance).toBe(fanAfter);
    await expect.poll(async () => (await balanceOf(creator.request, creatorToken)).cBalance).toBe(creatorAfter);
    const record = (await (await fan.request.get(`/api/calls/${callId}`, { headers: { authorization: `Bearer ${fanToken}` } })).json()) as { body: { state: string; minutes: number; cost: number } };
    expect(record.body).toMatchObject({ state: 'ended', minutes: 2, cost: 2 * fanPays });

    await fan.getByRole('button', { name: 'Close' }).click();
    await expect(fan).not.toHaveURL(/\/videocall\//);
    await creator.getByRole('button', { name: 'Close' }).click();
    await expect(creator).not.toHaveURL(/\/videocall\//);

    // On screen: the fan's wallet shows the balance and a call line for each minute, and its
    // lines add up to the balance (a minute held and given back leaves none).
    // A fresh page load, minutes after the card window closed: the session resumes from the
    // refresh cookie that window rotated while it loaded (it was not closed under that request).
    await fan.goto('/settings/wallet');
    await expect(fan.getByTestId('wallet-balance')).toHaveText(formatMoney(fanAfter));
    const walletLines = fan.getByTestId('wallet-history').getByRole('listitem');
    const fanCallLines = walletLines.filter({ hasText: `Call · ${her.displayName}` });
    await expect(fanCallLines).toHaveCount(2);
    for (const line of await fanCallLines.all()) await expect(line).toContainText(formatMoney(-fanPays));
    await expect(walletLines.filter({ hasText: 'Credits bought' })).toHaveCount(2);
    const walletSum = (await walletLines.locator(':scope > span:last-child').allTextContents()).reduce((sum, text) => sum + centsOf(text), 0);
    expect(walletSum).toBe(fanAfter);

    // Her earnings show the amount and a call line for each minute, with the fan.
    await creator.goto('/settings/earnings');
    await expect(creator.getByTestId('earnings-available')).toHaveText(formatMoney(creatorAfter));
    const creatorCallLines = creator.getByTestId('earnings-lines').getByRole('listitem').filter({ hasText: `Call · ${fanName}` });
    await expect(creatorCallLines).toHaveCount(2);
    for (const line of await creatorCallLines.all()) await expect(line).toContainText(`+${formatMoney(callPrice)}`);
  } finally {
    await fanBrowser.close();
    await creatorBrowser.close();
  }
});

test('a fan calls the creator from <fanstage-call> on her own site, another origin, signing in through the platform’s popup and accepting the price per minute there', async ({ baseURL }) => {
  test.setTimeout(240_000);
  const platform = new URL(baseURL!).origin;
  // The same server's demo page opened as localhost: another origin and another site, as a creator's own page is.
  const partner = platform.replace('127.0.0.1', 'localhost');
  const fanBrowser = await chromium.launch({ executablePath: fullChromium, args: launchArgs });
  const creatorBrowser = await chromium.launch({ executablePath: fullChromium, args: launchArgs });
  try {
    const creator = await personIn(creatorBrowser, platform);
    const fanOnPlatform = await personIn(fanBrowser, platform);
    const made = await signUpCreator(creator.request, { name: 'Ana', callPrice });
    await logInCreator(creator, made);
    const salt = await priceSalt(creator.request);
    const fanPays = fanPriceCents(callPrice, salt);

    const fanEmail = await signUpVerifiedFan(fanOnPlatform, 'widgetcallfan');
    const fanToken = await accessToken(fanOnPlatform.request, fanEmail);
    await buyCredits(fanOnPlatform, fanToken);
    const fanBefore = await balanceOf(fanOnPlatform.request, fanToken);
    await creator.goto('/timeline');

    // The creator's own page, with the call element: the partner demo, with her name in it.
    const page = await fanOnPlatform.context().newPage();
    await demoPageOf(page, made);
    await page.goto(`${partner}/demo/?platform=${encodeURIComponent(platform)}`);
    expect(await page.evaluate(() => location.origin)).toBe(partner);
    const widget = page.locator(`fanstage-call[with="${made.username}"]`);
    const button = widget.getByTestId('call-button');
    await expect(button).toContainText(`Call · ${formatPrice(callPrice, salt)}/min`);

    // A visitor there: the call signs her in through the platform's popup (signed in on the
    // platform already, she is only asked to allow this site), then rings.
    const popupOpened = page.waitForEvent('popup', { timeout: 15_000 });
    await button.click();
    const popup = await popupOpened;
    await popup.waitForLoadState();
    expect(new URL(popup.url()).origin).toBe(platform);
    await expect(popup.getByRole('heading', { name: `Allow ${partner} to use your Fanstage account?` })).toBeVisible({ timeout: 15_000 });
    const asking = page.waitForEvent('popup', { timeout: 15_000 });
    await clickClosingItsWindow(popup, popup.getByRole('button', { name: 'Allow', exact: true }), { timeout: 15_000 });
    // A paid call from another site rings only once she accepted its price on the platform.
    const confirm = await asking;
    expect(new URL(confirm.url()).origin).toBe(platform);
    await expect(confirm.getByText('A video call, paid by the minute')).toBeVisible({ timeout: 15_000 });
    await expect(confirm.getByText(`${partner} asks you to pay on Fanstage.`)).toBeVisible();
    await clickClosingItsWindow(confirm, confirm.getByRole('button', { name: `Confirm ${formatMoney(fanPays)}` }), { timeout: 15_000 });
    await expect(widget.getByRole('heading', { name: /^Calling / })).toBeVisible({ timeout: 15_000 });

    // She answers on the platform's site; each side sees the other.
    const incoming = creator.getByRole('alertdialog', { name: /is calling$/ });
    await expect(incoming).toBeVisible({ timeout: 15_000 });
    await incoming.getByRole('button', { name: 'Accept' }).click();
    await expectRemoteVideoPlays(page);
    await expectRemoteVideoPlays(creator);
    await expect(widget.getByTestId('call-meter')).toHaveText(`Cost so far: ${formatMoney(fanPays)}`);

    // The creator hangs up; the widget says what it cost, and the minute begun is paid once.
    await creator.getByTestId('call-hang-up').click();
    await expect(widget.getByTestId('call-totals')).toHaveText(`1 minute · You paid ${formatMoney(fanPays)}`, { timeout: 15_000 });
    await expect.poll(async () => fanBefore.gBalance - (await balanceOf(fanOnPlatform.request, fanToken)).gBalance).toBe(fanPays);
    await widget.getByRole('button', { name: 'Close' }).click();
    await expect(button).toBeVisible();
  } finally {
    await fanBrowser.close();
    await creatorBrowser.close();
  }
});
