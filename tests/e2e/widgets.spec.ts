import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Locator, type Page } from '@playwright/test';

/**
 * The six widgets of the script tag, each alone on a partner's page: their React-free first
 * views (elements/script/lite.ts), the React widgets that take over on the reader's intent, and
 * how both stand on pages whose root styles differ (docs/embedding.md, "Facades", "Fonts").
 * The pages are served by the test on another loopback name and port: another site.
 */
const widgets = [
  { name: 'profile-card', html: '<fanstage-profile-card user="lucy.rivers"></fanstage-profile-card>', shows: 'article' },
  { name: 'feed', html: '<fanstage-feed creator="lucy.rivers"></fanstage-feed>', shows: 'article[data-post-id]' },
  { name: 'tip-button', html: '<fanstage-tip-button creator="lucy.rivers"></fanstage-tip-button>', shows: 'button[aria-haspopup="dialog"]' },
  { name: 'call', html: '<fanstage-call with="lucy.rivers"></fanstage-call>', shows: 'button[data-testid="call-button"]' },
  { name: 'chat', html: '<fanstage-chat with="lucy.rivers"></fanstage-chat>', shows: 'button' },
  { name: 'wallet', html: '<fanstage-wallet></fanstage-wallet>', shows: 'button' },
] as const;

type Widget = (typeof widgets)[number];

/** Host pages whose root styles must not reach the widgets. */
const hostStyles = {
  plain: '',
  // The root size of many WordPress and Bootstrap 3 themes.
  'small root': 'html { font-size: 62.5% }',
  'tight lines, content boxes': 'body { line-height: 1 } * { box-sizing: content-box } img { max-width: 100%; height: auto; display: block }',
} as const;

type HostStyle = keyof typeof hostStyles;

function page(platform: string, widget: Widget, style: HostStyle, eager = false): string {
  // An eager widget far below the first screen.
  const body = eager ? `<div style="height: 3000px"></div>${widget.html.replace('>', ' eager>')}` : widget.html;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>A partner</title>
    <link rel="icon" href="data:," />
    <style>${hostStyles[style]} main { width: min(640px, 100% - 32px); margin: 16px auto; }</style>
    <script src="${platform}/embed/fanstage.js" async></script>
  </head>
  <body>
    <main><h1>A partner</h1>${body}</main>
  </body>
</html>`;
}

let site: Server;
let partner: string;

test.beforeAll(async ({ baseURL }) => {
  site = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const widget = widgets.find((w) => w.name === url.searchParams.get('widget'));
    const style = (url.searchParams.get('style') ?? 'plain') as HostStyle;
    if (!widget || !(style in hostStyles)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    response.end(page(baseURL!, widget, style, url.searchParams.has('eager')));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  partner = `http://localhost:${(site.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
});

const open = (target: Page, widget: Widget, style: HostStyle = 'plain') => target.goto(`${partner}/?widget=${widget.name}&style=${encodeURIComponent(style)}`);
const element = (target: Page, widget: Widget) => target.locator(`fanstage-${widget.name}`);

/** The first view, filled in from the API, its pictures decoded. */
async function firstView(target: Page, widget: Widget): Promise<Locator> {
  const host = element(target, widget);
  await expect(host.locator(`[data-fs-lite] ${widget.shows}`).first()).toBeVisible();
  if (widget.name === 'tip-button') await expect(host.locator('[data-fs-name]')).toHaveText(/Lucy/);
  if (widget.name === 'chat') await expect(host.locator('[data-fs-lite] button')).toHaveText(/Lucy/);
  await imagesDecoded(host);
  return host;
}

/** The React widget in the first view's place, its pictures decoded. */
async function takenOver(target: Page, widget: Widget): Promise<Locator> {
  const host = element(target, widget);
  await host.hover();
  await expect(host.locator('[data-fs-lite]')).toHaveCount(0);
  await expect(host.locator(widget.shows).first()).toBeVisible();
  // Away again: a hover style is no part of the size.
  await target.mouse.move(0, 0);
  await imagesDecoded(host);
  return host;
}

async function imagesDecoded(host: Locator): Promise<void> {
  await expect
    .poll(() => host.evaluate((el) => [...(el.shadowRoot?.querySelectorAll('img') ?? [])].every((img) => img.complete)))
    .toBe(true);
}

interface Box {
  what: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The element's box and the boxes of the first 40 elements of its shadow tree, relative to the
 * element (a feed's first posts; the whole of the other widgets). A feed's own height is left out:
 * it grows with the posts it has drawn.
 */
function boxes(host: Locator, widget: Widget): Promise<Box[]> {
  return host.evaluate(
    (el, name) => {
      const origin = el.getBoundingClientRect();
      const box = (what: string, rect: DOMRect) => ({ what, x: rect.x - origin.x, y: rect.y - origin.y, width: rect.width, height: rect.height });
      const inside = [...(el.shadowRoot?.querySelectorAll('*') ?? [])].filter((node) => !['STYLE', 'svg', 'path', 'title'].includes(node.nodeName) && node.getClientRects().length > 0).slice(0, 40);
      const own = box('element', origin);
      if (name === 'feed') own.height = 0;
      return [own, ...inside.map((node) => box(`${node.nodeName.toLowerCase()}.${[...node.classList].join('.')}`, node.getBoundingClientRect()))];
    },
    widget.name as string,
  );
}

function expectSameBoxes(actual: Box[], expected: Box[], label: string): void {
  expect(actual.map((b) => b.what), `${label}: the same elements`).toEqual(expected.map((b) => b.what));
  actual.forEach((box, index) => {
    const want = expected[index]!;
    for (const key of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(box[key] - want[key]), `${label}: ${box.what} ${key} ${box[key]} against ${want[key]}`).toBeLessThanOrEqual(1);
  });
}

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/** The files an element's first view needs (its chunk and what it imports), from the build's manifest. */
function firstViewFiles(widget: Widget): Set<string> {
  const manifest = JSON.parse(readFileSync('dist/embed/.vite/manifest.json', 'utf8')) as Record<string, ManifestChunk>;
  const files = new Set<string>(['fanstage.js']);
  const add = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const next of chunk.imports ?? []) add(next);
  };
  add(`elements/script/${widget.name}.ts`);
  return files;
}

test('a reader who never touches a widget fetches its first view and nothing more of the platform’s scripts, whatever the browser does when idle', async ({ page: target }) => {
  test.setTimeout(90_000);
  for (const widget of widgets) {
    const fetched: string[] = [];
    const listen = (request: { url(): string }) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/embed/')) fetched.push(path.slice('/embed/'.length));
    };
    target.on('request', listen);
    await open(target, widget);
    await firstView(target, widget);
    await target.waitForLoadState('networkidle');
    // Idle moments come and go (the old first views loaded their React widgets in one): still nothing.
    for (let i = 0; i < 3; i++) await target.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 2000 })));
    await target.waitForLoadState('networkidle');
    target.off('request', listen);
    const allowed = firstViewFiles(widget);
    expect(fetched.filter((file) => !allowed.has(file)), `<fanstage-${widget.name}>`).toEqual([]);
    expect(await element(target, widget).locator('[data-fs-lite]').count()).toBe(1);
    expect(await target.evaluate(() => (window as unknown as { Fanstage?: { loaded?: boolean } }).Fanstage?.loaded)).toBe(false);
  }
});

test('pointing at the tip button and clicking it at once opens the tip dialog: the click made before the dialog loaded is not lost', async ({ page: target }) => {
  await open(target, widgets[2]);
  const host = await firstView(target, widgets[2]);
  await host.getByRole('button', { name: 'Send a tip to Lucy Rivers' }).click();
  // A visitor is asked to sign in first, through the platform's popup; the tip dialog opens for a
  // fan. Either way one click did it.
  const popup = await target.waitForEvent('popup');
  expect(new URL(popup.url()).pathname).toBe('/embed/login');
  await expect(popup.getByRole('heading', { name: 'Sign in with Fanstage' })).toBeVisible();
  await popup.close();
  await expect(host.locator('[data-fs-lite]')).toHaveCount(0);
});

test('an eager widget loads its React widget when scrolled near, with nobody pointing at it', async ({ page: target }) => {
  const chat = widgets[4];
  const full: string[] = [];
  target.on('request', (request) => {
    if (/\/embed\/assets\/chat-full-[\w-]+\.js$/.test(request.url())) full.push(request.url());
  });
  await target.goto(`${partner}/?widget=chat&eager=1`);
  const host = await firstView(target, chat);
  await target.waitForLoadState('networkidle');
  expect(full).toEqual([]);
  await host.scrollIntoViewIfNeeded();
  await expect(host.locator('[data-fs-lite]')).toHaveCount(0);
  await expect(host.getByRole('button', { name: 'Sign in to chat with Lucy Rivers' })).toBeVisible();
  expect(full).toHaveLength(1);
});

for (const width of [375, 1280]) {
  test(`at ${width} px each first view has the box of its React widget, so nothing moves when it takes over`, async ({ page: target }) => {
    test.setTimeout(90_000);
    await target.setViewportSize({ width, height: 900 });
    for (const widget of widgets) {
      await open(target, widget);
      const host = await firstView(target, widget);
      const light = await boxes(host, widget);
      await host.screenshot({ path: `.tmp/widgets/${widget.name}-${width}-first-view.png` });
      await takenOver(target, widget);
      const full = await boxes(host, widget);
      await host.screenshot({ path: `.tmp/widgets/${widget.name}-${width}-react.png` });
      // The element, and its main control (the card, the first post, the button).
      const main = (list: Box[]) => list.filter((b) => b.what === 'element').concat(list.filter((b) => /^(article|button)/.test(b.what)).slice(0, 1));
      expectSameBoxes(main(full), main(light), `<fanstage-${widget.name}> at ${width} px`);
    }
  });
}

for (const style of ['small root', 'tight lines, content boxes'] as const) {
  test(`on a page with “${style}” the six widgets have the sizes they have on a plain page, first views and React widgets`, async ({ page: target }) => {
    test.setTimeout(120_000);
    await target.setViewportSize({ width: 1280, height: 900 });
    for (const widget of widgets) {
      const measured: Record<string, { light: Box[]; full: Box[] }> = {};
      for (const host of ['plain', style] as const) {
        await open(target, widget, host);
        const light = await boxes(await firstView(target, widget), widget);
        const full = await boxes(await takenOver(target, widget), widget);
        measured[host] = { light, full };
      }
      expectSameBoxes(measured[style]!.light, measured.plain!.light, `<fanstage-${widget.name}>'s first view on “${style}”`);
      expectSameBoxes(measured[style]!.full, measured.plain!.full, `<fanstage-${widget.name}> on “${style}”`);
    }
  });
}
