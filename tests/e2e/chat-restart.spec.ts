import { expect, test, type Locator, type Page } from '@playwright/test';
import { viewports } from './support';
import { logInDemoCreator } from './postsSupport';
import { ServerProcess } from './serverProcess';

/**
 * Done when the server goes away mid-conversation: it is stopped and started again on the same
 * port and data, both people's pages come back — by reconnecting, or by the reload the site does
 * after more than 6 reconnections in a row (SPEC §4), repeated by the person if it found no
 * server — and every message — sent before, tried during the gap and sent again (the refused
 * draft survives a reload), or sent while the other side was still reconnecting — shows exactly
 * once on both sides, and again after a reload (the server stored each once).
 *
 * This test runs a server of its own: the shared one of playwright.config.ts must stay up.
 */
const port = Number(process.env.E2E_PORT ?? 8181) + 202;
const server = new ServerProcess(port, `.tmp/e2e-restart-${port}`);

test.beforeAll(async () => {
  // The first start seeds the demo content.
  test.setTimeout(90_000);
  server.reset();
  await server.start();
});

test.afterAll(async () => {
  await server.stop();
});

/** SPEC §8 'trying-to-reconnect', as the chat shows it from the second attempt on. */
const reconnecting = 'Connection lost. Trying to reconnect…';

function message(page: Page, text: string): Locator {
  return page.getByTestId('chat-message').filter({ hasText: text });
}

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(box).toHaveValue('');
}

/**
 * What a person does with a message that did not go out: taps 'Send again' until it does (the
 * page may still be reconnecting the first times).
 */
async function sendAgainUntilDelivered(draft: Locator): Promise<void> {
  await expect
    .poll(
      async () => {
        const state = await draft.getAttribute('data-state');
        if (state === 'failed') await draft.getByRole('button', { name: 'Send again' }).click();
        return state;
      },
      { timeout: 30_000, intervals: [1_000] },
    )
    .toMatch(/^(sent|read)$/);
}

/**
 * Waits until the page is back with a live connection. A page whose reconnections ran out while
 * the server was down reloaded onto the browser's error page: the person reloads it. The state
 * must hold for two looks in a row, so a page that is just about to reload does not count.
 */
async function backOnline(page: Page, path: string): Promise<void> {
  let settled = 0;
  await expect
    .poll(
      async () => {
        if (!page.url().startsWith(server.baseUrl)) {
          settled = 0;
          await page.goto(path).catch(() => undefined);
          return false;
        }
        const conversation = page.getByTestId('chat-conversation');
        const live = (await conversation.isVisible()) && !(await conversation.getByText(reconnecting).isVisible());
        settled = live ? settled + 1 : 0;
        return settled >= 2;
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toBe(true);
}

/** Counts a page's loads after its first, however they came (the site's own reload, the person's). */
function countReloads(page: Page): () => number {
  let loads = 0;
  page.on('load', () => (loads += 1));
  return () => Math.max(0, loads - 1);
}

/** Sends `text`; if the page is not connected yet, sends it again until it goes out. */
async function deliver(page: Page, text: string): Promise<void> {
  await send(page, text);
  await sendAgainUntilDelivered(message(page, text));
}

/** Each text once on the page, none doubled. */
async function expectEachOnce(page: Page, texts: string[]): Promise<void> {
  for (const text of texts) await expect(message(page, text), text).toHaveCount(1);
}

test('the server restarts during a conversation: both sides reconnect, nothing is lost or doubled', async ({ browser }) => {
  test.setTimeout(180_000);
  // Two demo fans: messages between people who sell nothing are free, so the test is about delivery alone.
  const aContext = await browser.newContext({ baseURL: server.baseUrl, viewport: viewports.web });
  const bContext = await browser.newContext({ baseURL: server.baseUrl, viewport: viewports.phone });
  const a = await aContext.newPage();
  const b = await bContext.newPage();
  const aReloads = countReloads(a);
  const bReloads = countReloads(b);
  await logInDemoCreator(a, 'tom.baker');
  await logInDemoCreator(b, 'daniel.kim');

  await a.goto('/chat/daniel.kim');
  await b.goto('/chat/tom.baker');
  await expect(a.getByTestId('chat-conversation')).toBeVisible();
  await expect(b.getByTestId('chat-conversation')).toBeVisible();

  const stamp = Date.now();
  const before = [`Before the restart, from Tom ${stamp}`, `Before the restart, from Daniel ${stamp}`];
  await send(a, before[0]!);
  await expect(message(b, before[0]!)).toBeVisible();
  await send(b, before[1]!);
  await expect(message(a, before[1]!)).toBeVisible();

  // The server goes away: both pages notice and keep trying (SPEC §8 trying-to-reconnect), and
  // a message tried meanwhile is refused as offline, nothing queued.
  await server.stop();
  await expect(a.getByTestId('chat-conversation').getByText(reconnecting)).toBeVisible({ timeout: 15_000 });
  await expect(b.getByTestId('chat-conversation').getByText(reconnecting)).toBeVisible({ timeout: 15_000 });
  const during = `During the gap, from Tom ${stamp}`;
  await send(a, during);
  const refused = message(a, during);
  await expect(refused).toHaveAttribute('data-state', 'failed');
  await expect(refused.getByRole('alert')).toContainText('You are offline: the message was not sent.');

  // Back on the same port and data (the start takes several seconds). Each page comes back by
  // itself — reconnecting (with a new signing key it refreshes its token first), or reloading
  // after more than 6 reconnections, which a person repeats if it found the server still down.
  await server.start();
  await backOnline(a, '/chat/daniel.kim');
  await backOnline(b, '/chat/tom.baker');
  const reloads = { tom: aReloads(), daniel: bReloads() };
  test.info().annotations.push({ type: 'reloads during the restart', description: JSON.stringify(reloads) });

  // The refused draft is still there once, failed — after a reload too — and goes out once when
  // it is sent again (the same msgId: never stored or shown twice).
  await expect(refused).toHaveCount(1);
  await expect(refused).toHaveAttribute('data-state', 'failed');
  await expect(refused.getByRole('button', { name: 'Send again' })).toBeVisible();
  await sendAgainUntilDelivered(refused);
  await expect(message(b, during)).toBeVisible({ timeout: 15_000 });

  const after = `After the restart, from Daniel ${stamp}`;
  await deliver(b, after);
  await expect(message(a, after)).toBeVisible();

  const all = [...before, during, after];
  await expectEachOnce(a, all);
  await expectEachOnce(b, all);

  // The server holds each message once: a fresh load of both conversations shows the same.
  await a.reload();
  await b.reload();
  await expect(message(a, after)).toBeVisible();
  await expect(message(b, after)).toBeVisible();
  await expectEachOnce(a, all);
  await expectEachOnce(b, all);

  await Promise.all([aContext.close(), bContext.close()]);
});
