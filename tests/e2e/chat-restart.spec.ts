import { expect, test, type Locator, type Page } from '@playwright/test';
import { viewports } from './support';
import { logInDemoCreator } from './postsSupport';
import { ServerProcess } from './serverProcess';

/**
 * Done when the server goes away mid-conversation for longer than the site keeps reconnecting:
 * it is stopped and, once both pages have used up their 6 reconnections (SPEC §4) and wait for
 * it, started again on the same port and data. The pages come back by themselves — each reloads
 * exactly once, when the server answers again — and the test only watches: it never navigates,
 * and sends each message once. Every message — sent before, refused during the gap and sent
 * again after the reload (the draft survives it), or sent after — shows exactly once on both
 * sides, and again after a reload (the server stored each once).
 *
 * This test runs a server of its own: the shared one of playwright.config.ts must stay up.
 */
const port = Number(process.env.E2E_PORT ?? 8181) + 202;
const server = new ServerProcess(port, `.tmp/e2e-restart-${port}`);

test.beforeAll(async () => {
  // The first start seeds the demo content.
  test.setTimeout(150_000);
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

/** The page's loads from now on, however they came; the test itself never navigates until the end. */
function countLoads(page: Page): () => number {
  let loads = 0;
  page.on('load', () => (loads += 1));
  return () => loads;
}

/**
 * Resolves once the page has asked in vain whether the server is back: what the site does after
 * its last reconnection, instead of reloading onto the browser's error page (socket.ts).
 */
function waitingForServer(page: Page): Promise<unknown> {
  return page.waitForEvent('requestfailed', { predicate: (request) => new URL(request.url()).pathname === '/papi/settings', timeout: 40_000 });
}

/**
 * Resolves when one of the page's websockets, opened from now on, gets the server's `hello`: the
 * connection is then open (the DOM shows no sign of it on a fresh page, only of reconnecting).
 */
function helloFrom(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) => {
      ws.on('framereceived', (frame) => {
        if (String(frame.payload).includes('"type":"hello"')) resolve();
      });
    });
  });
}

async function expectLive(page: Page): Promise<void> {
  const conversation = page.getByTestId('chat-conversation');
  await expect(conversation).toBeVisible({ timeout: 30_000 });
  await expect(conversation.getByText(reconnecting)).toBeHidden({ timeout: 15_000 });
}

/** Each text once on the page, none doubled. */
async function expectEachOnce(page: Page, texts: string[]): Promise<void> {
  for (const text of texts) await expect(message(page, text), text).toHaveCount(1);
}

test('the server restarts during a conversation: both pages reload once by themselves when it is back, nothing is lost or doubled', async ({ browser }) => {
  test.setTimeout(180_000);
  // Two demo fans: messages between people who sell nothing are free, so the test is about delivery alone.
  const aContext = await browser.newContext({ baseURL: server.baseUrl, viewport: viewports.web });
  const bContext = await browser.newContext({ baseURL: server.baseUrl, viewport: viewports.phone });
  const a = await aContext.newPage();
  const b = await bContext.newPage();
  await logInDemoCreator(a, 'tom.baker');
  await logInDemoCreator(b, 'daniel.kim');

  const [aOpen, bOpen] = [helloFrom(a), helloFrom(b)];
  await a.goto('/chat/daniel.kim');
  await b.goto('/chat/tom.baker');
  await expectLive(a);
  await expectLive(b);
  await Promise.all([aOpen, bOpen]);
  const aLoads = countLoads(a);
  const bLoads = countLoads(b);

  const stamp = Date.now();
  const before = [`Before the restart, from Tom ${stamp}`, `Before the restart, from Daniel ${stamp}`];
  await send(a, before[0]!);
  await expect(message(b, before[0]!)).toBeVisible();
  await send(b, before[1]!);
  await expect(message(a, before[1]!)).toBeVisible();

  // The server goes away: both pages notice and keep trying (SPEC §8 trying-to-reconnect), and
  // a message tried meanwhile is refused as offline, nothing queued.
  const aWaiting = waitingForServer(a);
  const bWaiting = waitingForServer(b);
  await server.stop();
  await expect(a.getByTestId('chat-conversation').getByText(reconnecting)).toBeVisible({ timeout: 15_000 });
  await expect(b.getByTestId('chat-conversation').getByText(reconnecting)).toBeVisible({ timeout: 15_000 });
  const during = `During the gap, from Tom ${stamp}`;
  await send(a, during);
  const refused = message(a, during);
  await expect(refused).toHaveAttribute('data-state', 'failed');
  await expect(refused.getByRole('alert')).toContainText('You are offline: the message was not sent.');

  // More than 6 reconnections (2 s apart) have failed on both pages: they now wait for the
  // server, still on the conversation and still saying so, instead of reloading into nothing.
  await Promise.all([aWaiting, bWaiting]);
  await expect(a.getByTestId('chat-conversation').getByText(reconnecting)).toBeVisible();
  await expect(b.getByTestId('chat-conversation').getByText(reconnecting)).toBeVisible();
  expect(a.url()).toBe(`${server.baseUrl}/chat/daniel.kim`);
  expect(b.url()).toBe(`${server.baseUrl}/chat/tom.baker`);
  expect([aLoads(), bLoads()]).toEqual([0, 0]);

  // Back on the same port and data (the start takes several seconds): each page reloads once
  // and is live again, with nobody touching it.
  const aConnected = helloFrom(a);
  const bConnected = helloFrom(b);
  await server.start();
  await expect.poll(() => [aLoads(), bLoads()], { timeout: 30_000 }).toEqual([1, 1]);
  await expectLive(a);
  await expectLive(b);
  await Promise.all([aConnected, bConnected]);

  // The refused draft is still there once, failed, after the reload, and goes out once when it
  // is sent again (the same msgId: never stored or shown twice).
  await expect(refused).toHaveCount(1);
  await expect(refused).toHaveAttribute('data-state', 'failed');
  await refused.getByRole('button', { name: 'Send again' }).click();
  await expect(refused).toHaveAttribute('data-state', /^(sent|read)$/);
  await expect(message(b, during)).toBeVisible({ timeout: 15_000 });

  const after = `After the restart, from Daniel ${stamp}`;
  await send(b, after);
  await expect(message(b, after)).toHaveAttribute('data-state', /^(sent|read)$/);
  await expect(message(a, after)).toBeVisible();

  const all = [...before, during, after];
  await expectEachOnce(a, all);
  await expectEachOnce(b, all);
  // No page reloaded a second time while all that went on.
  expect([aLoads(), bLoads()]).toEqual([1, 1]);

  // The server holds each message once: a fresh load of both conversations shows the same.
  await a.reload();
  await b.reload();
  await expect(message(a, after)).toBeVisible();
  await expect(message(b, after)).toBeVisible();
  await expectEachOnce(a, all);
  await expectEachOnce(b, all);

  await Promise.all([aContext.close(), bContext.close()]);
});
