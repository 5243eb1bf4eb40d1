import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { fanPriceCents, formatPrice } from '../../lib/sdk/rules/price';
import { formatMoney } from '../../lib/ui/WalletTopUp/money';
import { viewports } from './support';
import { logInDemoCreator, signUpVerifiedFan } from './postsSupport';
import { accessToken, balanceOf, creditPackages, payOnCardPage, priceSalt, testCards } from './moneySupport';

/**
 * A paid video call between two browsers (two Chromiums, as two people on two machines), each
 * on fake camera and microphone. The traffic stays on this machine: no STUN servers (the server
 * configures none), loopback allowed, and only `127.0.0.1` candidates leave each page — the
 * test wraps the browser's RTCPeerConnection for that, not our code.
 */

const creatorName = 'lucy.rivers';
/** Her price a minute: the 128-credit call step of SPEC §9. */
const callPrice = 128;

const launchArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--autoplay-policy=no-user-gesture-required',
];

/** Only loopback candidates reach the other side (runs in the page, before its scripts). */
function loopbackOnly() {
  const proto = window.RTCPeerConnection.prototype;
  const native = Object.getOwnPropertyDescriptor(proto, 'onicecandidate');
  if (!native?.get || !native.set) return;
  const { get, set } = native;
  Object.defineProperty(proto, 'onicecandidate', {
    configurable: true,
    enumerable: native.enumerable ?? true,
    get(this: RTCPeerConnection) {
      return get.call(this) as unknown;
    },
    set(this: RTCPeerConnection, handler: ((event: RTCPeerConnectionIceEvent) => unknown) | null) {
      set.call(
        this,
        handler
          ? (event: RTCPeerConnectionIceEvent) => {
              if (event.candidate && !/ 127\.0\.0\.1 /.test(event.candidate.candidate)) return;
              handler(event);
            }
          : null,
      );
    },
  });
}

async function personIn(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: viewports.web });
  await context.addInitScript(loopbackOnly);
  return context.newPage();
}

/** Buys the smallest credit package with the sandbox's test card, from the wallet in settings. */
async function buyCredits(fan: Page, token: string): Promise<void> {
  const pkg = (await creditPackages(fan.request, token)).sort((a, b) => a.cValue - b.cValue)[0]!;
  await fan.goto('/settings/wallet');
  const topUp = fan.getByRole('region', { name: 'Buy credits' });
  await topUp.getByRole('radio', { name: new RegExp(`^${formatMoney(pkg.cValue).replace(/[.$]/g, '\\$&')} in credits`) }).check();
  await topUp.getByRole('radio', { name: 'A new card' }).check();
  await topUp.getByRole('button', { name: `Pay ${formatMoney(pkg.gValue)}` }).click();
  await payOnCardPage(fan, testCards.pays, formatMoney(pkg.gValue));
  await expect(fan.getByTestId('payment-outcome')).toHaveAttribute('data-outcome', 'paid');
  await expect.poll(async () => (await balanceOf(fan.request, token)).gBalance).toBe(pkg.cValue);
}

/** The remote video decodes: it has a size, and its frames advance. */
async function expectRemoteVideoPlays(page: Page): Promise<void> {
  const video = page.getByTestId('call-remote-video');
  await expect(video).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 20_000 }).toBeGreaterThan(0);
  const frames = () => video.evaluate((v: HTMLVideoElement) => v.getVideoPlaybackQuality().totalVideoFrames);
  const before = await frames();
  await expect.poll(frames, { timeout: 10_000 }).toBeGreaterThan(before);
}

test('a fan calls a creator from her profile, she accepts on the incoming-call screen, each sees the other, and the minute begun is paid once', async ({ baseURL }) => {
  test.setTimeout(240_000);
  const fanBrowser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: launchArgs });
  const creatorBrowser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: launchArgs });
  try {
    const creator = await personIn(creatorBrowser, baseURL!);
    const fan = await personIn(fanBrowser, baseURL!);

    const creatorEmail = await logInDemoCreator(creator, creatorName);
    const creatorToken = await accessToken(creator.request, creatorEmail);
    const priced = await creator.request.put('/api/users/me', { headers: { authorization: `Bearer ${creatorToken}` }, data: { callPrice } });
    expect(((await priced.json()) as { statusCode: number }).statusCode).toBeGreaterThan(0);
    const salt = await priceSalt(fan.request);
    const fanPays = fanPriceCents(callPrice, salt);

    const fanEmail = await signUpVerifiedFan(fan, 'callfan');
    const fanToken = await accessToken(fan.request, fanEmail);
    await buyCredits(fan, fanToken);

    // She works on the site; the call may come on any page.
    await creator.goto('/timeline');
    await expect(creator.getByRole('heading', { level: 1 }).first()).toBeVisible();
    const fanBefore = await balanceOf(fan.request, fanToken);
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
    await expectRemoteVideoPlays(fan);
    await expectRemoteVideoPlays(creator);
    await expect(fan.getByTestId('call-window')).toHaveAttribute('data-phase', 'live');
    await expect(fan.getByTestId('call-meter')).toHaveText(`Cost so far: ${formatMoney(fanPays)}`);
    await expect(creator.getByTestId('call-meter')).toHaveText(`Earned so far: ${formatMoney(callPrice)}`);

    // 4. A line of chat during the call reaches her.
    await fan.getByRole('textbox', { name: 'Write a message' }).fill('Hi Lucy!');
    await fan.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(creator.getByRole('log', { name: 'Chat' })).toContainText('Hi Lucy!');

    // 5. The fan hangs up within the first minute: both see the end and its totals.
    await fan.getByTestId('call-hang-up').click();
    await expect(fan.getByTestId('call-totals')).toHaveText(`1 minute · You paid ${formatMoney(fanPays)}`, { timeout: 15_000 });
    await expect(creator.getByTestId('call-totals')).toHaveText(`1 minute · You earned ${formatMoney(callPrice)}`, { timeout: 15_000 });

    // The minute begun is paid once: the fan's credits fell by it, her earnings rose by it.
    await expect.poll(async () => fanBefore.gBalance - (await balanceOf(fan.request, fanToken)).gBalance).toBe(fanPays);
    await expect.poll(async () => (await balanceOf(creator.request, creatorToken)).cBalance - creatorBefore.cBalance).toBe(callPrice);

    // The server's record says the same to either party.
    const record = (await (await fan.request.get(`/api/calls/${callId}`, { headers: { authorization: `Bearer ${fanToken}` } })).json()) as { body: { state: string; minutes: number; cost: number } };
    expect(record.body).toMatchObject({ state: 'ended', minutes: 1, cost: fanPays });

    await fan.getByRole('button', { name: 'Close' }).click();
    await expect(fan).not.toHaveURL(/\/videocall\//);
  } finally {
    await fanBrowser.close();
    await creatorBrowser.close();
  }
});

test('a fan calls the creator from <fanstage-call> on her own site, another origin, signing in through the platform’s popup', async ({ baseURL }) => {
  test.setTimeout(240_000);
  const platform = new URL(baseURL!).origin;
  // The same server's demo page opened as localhost: another origin and another site, as a creator's own page is.
  const partner = platform.replace('127.0.0.1', 'localhost');
  const fanBrowser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: launchArgs });
  const creatorBrowser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: launchArgs });
  try {
    const creator = await personIn(creatorBrowser, platform);
    const fanOnPlatform = await personIn(fanBrowser, platform);
    const creatorEmail = await logInDemoCreator(creator, creatorName);
    const creatorToken = await accessToken(creator.request, creatorEmail);
    await creator.request.put('/api/users/me', { headers: { authorization: `Bearer ${creatorToken}` }, data: { callPrice } });
    const salt = await priceSalt(creator.request);
    const fanPays = fanPriceCents(callPrice, salt);

    const fanEmail = await signUpVerifiedFan(fanOnPlatform, 'widgetcallfan');
    const fanToken = await accessToken(fanOnPlatform.request, fanEmail);
    await buyCredits(fanOnPlatform, fanToken);
    const fanBefore = await balanceOf(fanOnPlatform.request, fanToken);
    await creator.goto('/timeline');

    // The creator's own page, with the call element.
    const page = await fanOnPlatform.context().newPage();
    await page.goto(`${partner}/demo/?platform=${encodeURIComponent(platform)}`);
    expect(await page.evaluate(() => location.origin)).toBe(partner);
    const widget = page.locator('fanstage-call[with="lucy.rivers"]');
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
    const closed = popup.waitForEvent('close', { timeout: 15_000 });
    await popup.getByRole('button', { name: 'Allow', exact: true }).click({ timeout: 15_000 });
    await closed;
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
