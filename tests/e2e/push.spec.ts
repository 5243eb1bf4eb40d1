import { expect, test, type Page } from '@playwright/test';
import { viewports } from './support';
import { chromiumArgs, fullChromium } from './browsers';
import { signUpVerifiedFan } from './postsSupport';
import { accessToken } from './moneySupport';
import { logInCreator, signUpCreator } from './creatorSupport';
import { decryptPush, startPushReceiver, type PushReceiver } from '../support/push-receiver';
import type { PushPayload } from '../../lib/contract/push';

// The Push API and notifications are the full browser's: the headless shell has neither.
test.use({ launchOptions: { executablePath: fullChromium, args: chromiumArgs } });

let receiver: PushReceiver;
test.beforeAll(async () => {
  receiver = await startPushReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(box).toHaveValue('');
}

/*
 * What is real here and what is not. Chromium on these machines has no push service to reach
 * (Chrome's is Google's, on the internet), so `PushManager.subscribe` cannot give an endpoint.
 * The fan's browser therefore registers a subscription whose endpoint is a push service on
 * loopback that this test runs (tests/support/push-receiver.ts), with keys the test made —
 * exactly the body the site posts after a subscribe, to the same POST /api/device. From there
 * on everything is the product's: the creator writes in the site, the server encrypts and signs
 * its Web Push request, the receiver checks the VAPID signature and decrypts what the server
 * sent, and that very payload is delivered to the site's service worker through Chromium's
 * own push path (DevTools' ServiceWorker.deliverPushMessage). Clicking the notification is the
 * one step dispatched by script: a headless browser shows notifications nobody can click.
 */
test('a fan turns notifications on; a creator’s message reaches the fan’s service worker as a push, and its notification opens the chat', async ({ browser }) => {
  test.setTimeout(120_000);
  const fanContext = await browser.newContext({ viewport: viewports.web, permissions: ['notifications'] });
  const creatorContext = await browser.newContext({ viewport: viewports.web });
  const fan = await fanContext.newPage();
  const creator = await creatorContext.newPage();

  const fanEmail = await signUpVerifiedFan(fan, 'pushfan');
  // The creator who writes to the fan, one of the test's own (her chats are hers alone), with a
  // message price as a seeded creator has.
  const own = await signUpCreator(creator.request, { name: 'Pia', messagePrice: 13 });
  const creatorName = own.username;
  await logInCreator(creator, own);
  await fan.goto('/notifications');

  // The opt-in, at the top of Notifications: the browser allows notifications (granted to this
  // context), nothing is registered yet.
  const prompt = fan.getByTestId('push-prompt');
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole('heading', { name: 'Turn on notifications?' })).toBeVisible();
  await prompt.getByRole('button', { name: 'Turn on' }).click();
  // The site registered its service worker and asked the browser to subscribe, which this
  // Chromium refuses (no Push API in its private profiles, and no push service to reach): the
  // fan is told, and nothing is registered.
  await expect(fan.getByTestId('push-message')).toHaveText('Notifications could not be turned on in this browser.');
  await expect.poll(() => fanContext.serviceWorkers().some((w) => w.url().endsWith('/sw.js')), { message: 'the site registered /sw.js' }).toBe(true);

  // What the site posts after a subscribe, with an endpoint this test can receive at.
  const subscription = receiver.subscription();
  const token = await accessToken(fan.request, fanEmail);
  const registered = await fan.evaluate(
    async ({ body, token }) => {
      const response = await fetch('/api/device', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
      return (await response.json()) as { statusCode: number };
    },
    { body: subscription.toJSON(), token },
  );
  expect(registered.statusCode).toBe(1);
  // Registered and allowed: once the account is in, the site asks no more.
  await fan.reload();
  await expect(fan.getByTestId('push-prompt-region')).toHaveAttribute('data-state', 'quiet');
  await expect(prompt).toHaveCount(0);

  // The creator writes to the fan in the site.
  const fanUsername = await fan.evaluate(async (token) => {
    const response = await fetch('/api/users/me', { headers: { authorization: `Bearer ${token}` } });
    return ((await response.json()) as { body: { username: string } }).body.username;
  }, token);
  await creator.goto(`/chat/${fanUsername}`);
  await expect(creator.getByTestId('chat-conversation')).toBeVisible();
  await expect(creator.getByTestId('chat-price-badge').first()).toBeVisible();
  const text = `Thanks for following me! ${Date.now()}`;
  await send(creator, text);

  // The server's own push request, decrypted with the subscription's private key.
  const push = await receiver.next(subscription, 20_000);
  const raw = decryptPush(subscription, push.body);
  const payload = JSON.parse(raw) as PushPayload;
  expect(payload).toMatchObject({ kind: 'chatMessage', body: text, url: `/chat/${creatorName}`, silent: false, lang: 'en' });
  expect(payload.title.length).toBeGreaterThan(0);

  // That payload into the site's service worker through the browser's push path. The worker is
  // watched where it hands the notification to the browser: each showNotification call is
  // recorded with the notification the browser then lists for its tag, and passed through
  // unchanged. (The page's own getNotifications() is no witness here: headless Chromium under
  // load at times answers it empty for a notification it did show.)
  const cdp = await fanContext.newCDPSession(fan);
  const registrations = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: list }) => {
    for (const entry of list as { registrationId: string; scopeURL: string; isDeleted: boolean }[]) if (!entry.isDeleted) registrations.set(entry.scopeURL, entry.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  const origin = new URL(fan.url()).origin;
  await expect.poll(() => registrations.get(`${origin}/`)).toBeDefined();
  const sw = fanContext.serviceWorkers().find((w) => w.url().endsWith('/sw.js'))!;
  await sw.evaluate(() => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration; shown: { title: string; options: NotificationOptions; listed: Notification | undefined }[] };
    scope.shown = [];
    const registration = scope.registration;
    const show = registration.showNotification.bind(registration);
    registration.showNotification = async (title: string, options: NotificationOptions = {}) => {
      await show(title, options);
      const listed = (await registration.getNotifications({ tag: options.tag ?? '' })).find((notification) => notification.title === title);
      scope.shown.push({ title, options, listed });
    };
  });
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: registrations.get(`${origin}/`)!, data: raw });

  // The notification shows, with the message and where it leads: as the worker asked for it,
  // and as the browser holds it.
  const shown = async () =>
    sw.evaluate(() =>
      (self as unknown as { shown: { title: string; options: NotificationOptions & { data: { url: string } }; listed: Notification | undefined }[] }).shown.map(({ title, options, listed }) => ({
        title,
        body: options.body,
        tag: options.tag,
        silent: options.silent,
        url: options.data.url,
        listed: listed ? { title: listed.title, body: listed.body, tag: listed.tag, url: (listed.data as { url: string }).url } : null,
      })),
    );
  const url = `${origin}/chat/${creatorName}`;
  await expect.poll(shown).toEqual([{ title: payload.title, body: text, tag: payload.tag, silent: false, url, listed: { title: payload.title, body: text, tag: payload.tag, url } }]);

  // A click on it: the fan's open tab goes to the chat with the creator.
  await sw.evaluate(() => {
    const scope = self as unknown as { shown: { listed: Notification }[]; dispatchEvent(event: Event): boolean };
    const NotificationEventClass = (self as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event }).NotificationEvent;
    scope.dispatchEvent(new NotificationEventClass('notificationclick', { notification: scope.shown[0]!.listed }));
  });
  await expect(fan).toHaveURL(`${origin}/chat/${creatorName}`);
  await expect(fan.getByTestId('chat-message').filter({ hasText: text })).toBeVisible();

  await fanContext.close();
  await creatorContext.close();
});

test('“Not now” keeps the offer away for 14 days through the pushdis cookie', async ({ browser }) => {
  const context = await browser.newContext({ viewport: viewports.phone, permissions: ['notifications'] });
  const fan = await context.newPage();
  await signUpVerifiedFan(fan, 'pushlater');
  await fan.goto('/notifications');
  const prompt = fan.getByTestId('push-prompt');
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'Not now' }).click();
  await expect(prompt).toHaveCount(0);
  await expect.poll(async () => (await context.cookies()).find((cookie) => cookie.name === 'pushdis')?.expires ?? 0).toBeGreaterThan(0);
  const cookie = (await context.cookies()).find((c) => c.name === 'pushdis')!;
  const days = (cookie.expires * 1000 - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(13.9);
  expect(days).toBeLessThanOrEqual(14);
  // Still away after a reload, once the account is in.
  await fan.reload();
  await expect(fan.getByTestId('push-prompt-region')).toHaveAttribute('data-state', 'quiet');
  await expect(prompt).toHaveCount(0);
  await context.close();
});
