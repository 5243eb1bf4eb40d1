import { chromium, expect, test, type BrowserContext, type CDPSession, type Page, type Worker } from '@playwright/test';
import type { PushPayload } from '../../lib/contract/push';
import { fullChromium } from './browsers';
import { expectRemoteVideoPlays, launchArgs, loopbackOnly } from './callSupport';
import { logInCreator, signUpCreator } from './creatorSupport';
import { signUpVerifiedFan } from './postsSupport';
import { viewports } from './support';
import { decryptPush, startPushReceiver, type PushReceiver, type TestSubscription } from '../support/push-receiver';

/*
 * A creator whose tab of the site is in the background is called. What is real and what is not
 * is as in push.spec.ts: her browser's subscription points at a push service on loopback that this test runs (Chromium here has none to reach),
 * the server's real Web Push request is decrypted there and delivered to the site's service
 * worker through Chromium's own push path (DevTools' ServiceWorker.deliverPushMessage). The
 * notification's buttons are clicked by dispatching the click the browser would (a headless
 * browser shows notifications nobody can click); everything after — the worker bringing the tab
 * forward, the page answering that call, the server deciding — is the product's.
 *
 * Her browser starts without the end-to-end journeys' autoplay flag, as a person's does. Whether
 * a page nobody touched plays no sound is tests/ui/sound.test.ts's: Chromium driven over DevTools
 * marks the signed-in site's pages as activated by themselves, so no journey can show it.
 */

let receiver: PushReceiver;
test.beforeAll(async () => {
  receiver = await startPushReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

/**
 * Reads `expression` in the page without giving it a user activation: Playwright's own
 * evaluations and locator checks run as a user gesture, which would make an untouched page a
 * touched one (and let it play sound).
 */
async function reader(context: BrowserContext, page: Page): Promise<<T>(expression: string) => Promise<T>> {
  const cdp = await context.newCDPSession(page);
  return async <T>(expression: string) => {
    const { result } = (await cdp.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })) as { result: { value: T } };
    return result.value;
  };
}

/** Takes the focus emulation away from `page`, so another page brought forward leaves it in the background. */
async function inBackgroundWhenOthersFront(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
}

interface Shown {
  title: string;
  body: string | undefined;
  tag: string | undefined;
  actions: { action: string; title: string }[];
  requireInteraction: boolean | undefined;
  /** The browser listed it right after it was shown. */
  listed: boolean;
  /** The worker closed it (a notification of its tag, while it was up). */
  closed: boolean;
}

/** The site's service worker, watched where it hands notifications to the browser, and the push path into it. */
async function watchWorker(context: BrowserContext, page: Page, origin: string): Promise<{ sw: Worker; deliver: (raw: string) => Promise<void>; shown: () => Promise<Shown[]> }> {
  const cdp: CDPSession = await context.newCDPSession(page);
  const registrations = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: list }) => {
    for (const entry of list as { registrationId: string; scopeURL: string; isDeleted: boolean }[]) if (!entry.isDeleted) registrations.set(entry.scopeURL, entry.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.get(`${origin}/`)).toBeDefined();
  await expect.poll(() => context.serviceWorkers().some((w) => w.url().endsWith('/sw.js'))).toBe(true);
  const sw = context.serviceWorkers().find((w) => w.url().endsWith('/sw.js'))!;
  // Each notification the worker shows is kept with the one the browser then lists, passed
  // through unchanged, and each one it closes is noted by its tag. (The browser's own list is
  // asked only right after a show: headless Chromium under load at times answers it empty later.)
  await sw.evaluate(() => {
    const scope = self as unknown as {
      registration: ServiceWorkerRegistration;
      shown: { title: string; options: NotificationOptions & { actions?: { action: string; title: string }[] }; listed: Notification | undefined; closed: boolean }[];
      watched?: boolean;
    };
    scope.shown = [];
    // Watched once per worker, however many pages look at it.
    if (scope.watched) return;
    scope.watched = true;
    const close = Notification.prototype.close;
    Notification.prototype.close = function (this: Notification) {
      for (const entry of scope.shown) if (entry.options.tag === this.tag) entry.closed = true;
      close.call(this);
    };
    const registration = scope.registration;
    const show = registration.showNotification.bind(registration);
    registration.showNotification = async (title: string, options: NotificationOptions = {}) => {
      await show(title, options);
      const listed = (await registration.getNotifications({ tag: options.tag ?? '' })).find((notification) => notification.title === title);
      scope.shown.push({ title, options, listed, closed: false });
    };
  });
  return {
    sw,
    deliver: async (raw) => {
      await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: registrations.get(`${origin}/`)!, data: raw });
    },
    shown: () =>
      sw.evaluate(() => {
        const scope = self as unknown as { shown: { title: string; options: NotificationOptions & { actions?: { action: string; title: string }[] }; listed: Notification | undefined; closed: boolean }[] };
        return scope.shown.map(({ title, options, listed, closed }) => ({
          title,
          body: options.body,
          tag: options.tag,
          actions: (options.actions ?? []).map(({ action, title: label }) => ({ action, title: label })),
          requireInteraction: options.requireInteraction,
          listed: listed !== undefined,
          closed,
        }));
      }),
  };
}

/** The browser's click on the last notification the worker showed, on `action` ('' for its body). */
async function clickNotification(sw: Worker, action: string): Promise<void> {
  await sw.evaluate((action) => {
    const scope = self as unknown as { shown: { listed: Notification }[]; dispatchEvent(event: Event): boolean };
    const NotificationEventClass = (self as unknown as { NotificationEvent: new (type: string, init: { notification: Notification; action: string }) => Event }).NotificationEvent;
    scope.dispatchEvent(new NotificationEventClass('notificationclick', { notification: scope.shown.at(-1)!.listed, action }));
  }, action);
}

async function payloadOf(subscription: TestSubscription): Promise<{ raw: string; payload: PushPayload }> {
  const push = await receiver.next(subscription, 20_000);
  const raw = decryptPush(subscription, push.body);
  return { raw, payload: JSON.parse(raw) as PushPayload };
}

test('a creator whose tab is in the background gets the incoming call as a notification; Accept connects the call, Decline declines the next without opening anything, and a call given up leaves a missed call', async ({ baseURL }) => {
  test.setTimeout(180_000);
  // Her browser: no autoplay flag, as a person's (the fan's may keep it).
  const creatorBrowser = await chromium.launch({ executablePath: fullChromium, args: launchArgs.filter((arg) => !arg.startsWith('--autoplay-policy')) });
  const fanBrowser = await chromium.launch({ executablePath: fullChromium, args: launchArgs });
  try {
    const creatorContext = await creatorBrowser.newContext({ baseURL, viewport: viewports.web, permissions: ['notifications'] });
    await creatorContext.addInitScript(loopbackOnly);
    const creator = await creatorContext.newPage();
    const fanContext = await fanBrowser.newContext({ baseURL, viewport: viewports.web });
    await fanContext.addInitScript(loopbackOnly);
    const fan = await fanContext.newPage();

    const made = await signUpCreator(creator.request, { name: 'Rita', callPrice: 0 });
    await logInCreator(creator, made);
    // Her browser takes pushes: the site's service worker, and a subscription at the loopback push service.
    await creator.goto('/timeline');
    await creator.evaluate(async () => {
      await navigator.serviceWorker.register('/sw.js');
      await navigator.serviceWorker.ready;
    });
    const subscription = receiver.subscription();
    const registered = await creator.request.post('/api/device', { headers: { authorization: `Bearer ${made.token}` }, data: subscription.toJSON() });
    expect(((await registered.json()) as { statusCode: number }).statusCode).toBe(1);

    // She loads the site and leaves it for another window of hers. (Headless Chromium keeps
    // every page "visible": the background here is her page without the focus.)
    await creator.goto('/timeline');
    const read = await reader(creatorContext, creator);
    await expect.poll(() => read<boolean>('document.querySelector("h1") !== null')).toBe(true);
    const consoleLines: string[] = [];
    creator.on('console', (message) => consoleLines.push(message.text()));
    const iconExpression = 'document.querySelector(\'link[rel~="icon"]\')?.getAttribute("href") ?? null';
    const ownIcon = await read<string | null>(iconExpression);
    await inBackgroundWhenOthersFront(creatorContext, creator);
    const front = await creatorContext.newPage();
    await front.bringToFront();
    await expect.poll(() => read<boolean>('document.hasFocus()')).toBe(false);
    const origin = new URL(creator.url()).origin;
    const worker = await watchWorker(creatorContext, creator, origin);

    // The fan calls her.
    await signUpVerifiedFan(fan, 'ringfan');
    await fan.goto(`/${made.username}`);
    await fan.getByTestId('call-button').click();
    await expect(fan).toHaveURL(/\/videocall\/[A-Za-z0-9_-]{22,}$/);
    const callId = new URL(fan.url()).pathname.split('/').at(-1)!;

    // Her tab rings without a sound it may not play: its title and icon say who calls.
    await expect.poll(() => read<string>('document.title')).toMatch(/^📞 .+ is calling…$/);
    await expect.poll(() => read<string | null>(iconExpression)).toMatch(/^data:image\/svg\+xml,/);

    // The server's push: the call, its buttons, and nothing else.
    const ring = await payloadOf(subscription);
    expect(ring.payload).toMatchObject({ kind: 'incomingCall', title: 'Incoming call', tag: `call:${callId}`, callId });
    await worker.deliver(ring.raw);
    await expect
      .poll(worker.shown)
      .toEqual([
        {
          title: 'Incoming call',
          body: ring.payload.body,
          tag: `call:${callId}`,
          actions: [
            { action: 'accept', title: 'Accept' },
            { action: 'decline', title: 'Decline' },
          ],
          requireInteraction: true,
          listed: true,
          closed: false,
        },
      ]);

    // Accept: her tab comes forward and answers that very call; both see each other.
    await clickNotification(worker.sw, 'accept');
    await expect(creator).toHaveURL(new RegExp(`/videocall/${callId}$`));
    await expectRemoteVideoPlays(creator);
    await expectRemoteVideoPlays(fan);
    await expect(fan.getByTestId('call-window')).toHaveAttribute('data-phase', 'live');
    // The ring is over: the server's push closes what is left of it, and the tab is itself again.
    const taken = await payloadOf(subscription);
    expect(taken.payload).toMatchObject({ kind: 'callEnded', callId, missed: false });
    await worker.deliver(taken.raw);
    await expect.poll(async () => (await worker.shown()).map((n) => n.closed)).toEqual([true]);
    // The icon and the title come back together, when the ring stops.
    await expect.poll(() => read<string | null>(iconExpression)).toBe(ownIcon);
    expect(await read<string>('document.title')).not.toMatch(/📞/);
    expect(consoleLines.filter((text) => /AudioContext/.test(text))).toEqual([]);

    await fan.getByTestId('call-hang-up').click();
    await expect(creator.getByTestId('call-totals')).toBeVisible({ timeout: 15_000 });
    await creator.getByRole('button', { name: 'Close' }).click();
    await fan.getByRole('button', { name: 'Close' }).click();
    await expect(fan).not.toHaveURL(/\/videocall\//);
    // She closes the site; only her other window is left.
    await creator.close();
    const pagesBefore = creatorContext.pages().map((page) => page.url());
    const later = await watchWorker(creatorContext, front, origin);

    // The fan calls again; she declines from the notification. The worker asks the server
    // itself, with her session's cookie: no tab is opened, and the fan hears it was declined.
    await fan.goto(`/${made.username}`);
    await fan.getByTestId('call-button').click();
    await expect(fan).toHaveURL(/\/videocall\/[A-Za-z0-9_-]{22,}$/);
    const secondId = new URL(fan.url()).pathname.split('/').at(-1)!;
    const second = await payloadOf(subscription);
    expect(second.payload).toMatchObject({ kind: 'incomingCall', callId: secondId });
    await later.deliver(second.raw);
    await expect.poll(async () => (await later.shown()).map((n) => ({ tag: n.tag, listed: n.listed }))).toEqual([{ tag: `call:${secondId}`, listed: true }]);
    await clickNotification(later.sw, 'decline');
    await expect(fan.getByText('The call was declined.')).toBeVisible({ timeout: 15_000 });
    const declined = await payloadOf(subscription);
    expect(declined.payload).toMatchObject({ kind: 'callEnded', callId: secondId, missed: false });

    // A third call, which the fan gives up before she sees it: the ring's end closes its
    // notification and leaves a quiet missed call in its place.
    await fan.getByRole('button', { name: 'Close' }).click();
    await fan.goto(`/${made.username}`);
    await fan.getByTestId('call-button').click();
    await expect(fan).toHaveURL(/\/videocall\/[A-Za-z0-9_-]{22,}$/);
    const thirdId = new URL(fan.url()).pathname.split('/').at(-1)!;
    const third = await payloadOf(subscription);
    expect(third.payload).toMatchObject({ kind: 'incomingCall', callId: thirdId });
    await later.deliver(third.raw);
    await expect.poll(async () => (await later.shown()).map((n) => n.tag)).toEqual([`call:${secondId}`, `call:${thirdId}`]);
    expect((await later.shown())[1]!.closed).toBe(false);
    await fan.getByTestId('call-hang-up').click();
    const gaveUp = await payloadOf(subscription);
    expect(gaveUp.payload).toMatchObject({ kind: 'callEnded', callId: thirdId, missed: true, title: 'Missed call', silent: true });
    await later.deliver(gaveUp.raw);
    await expect
      .poll(async () => (await later.shown()).slice(1))
      .toEqual([
        { title: 'Incoming call', body: third.payload.body, tag: `call:${thirdId}`, actions: [{ action: 'accept', title: 'Accept' }, { action: 'decline', title: 'Decline' }], requireInteraction: true, listed: true, closed: true },
        { title: 'Missed call', body: gaveUp.payload.body, tag: `call:${thirdId}`, actions: [], requireInteraction: undefined, listed: true, closed: false },
      ]);
    expect(creatorContext.pages().map((page) => page.url())).toEqual(pagesBefore);
    expect(consoleLines.filter((text) => /AudioContext/.test(text))).toEqual([]);
  } finally {
    await creatorBrowser.close();
    await fanBrowser.close();
  }
});
