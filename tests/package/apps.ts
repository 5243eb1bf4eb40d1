import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumArgs, headlessChromium } from '../e2e/browsers';

/**
 * What the package test needs around its scratch apps: a static server for a built app (on
 * `localhost`, another origin than the platform's `127.0.0.1`), `next start` as a process, and
 * a Chromium page that keeps every error the page reports.
 */

const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** Serves `root` (index.html for `/`) and the given pages by path, on a port of its own. */
export async function serveStatic(root: string, pages: Record<string, string> = {}): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    const page = pages[pathname];
    if (page !== undefined) {
      response.writeHead(200, { 'content-type': types['.html']! });
      response.end(page);
      return;
    }
    const file = path.join(root, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(root)) {
      response.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (body) => {
        response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
        response.end(body);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** `next start` of a built app, resolved once it answers; `stop` ends it. */
export async function startNext(dir: string, nextBin: string, port: number): Promise<{ url: string; stop: () => Promise<void>; output: () => string }> {
  const child: ChildProcess = spawn(process.execPath, [nextBin, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
  });
  const chunks: string[] = [];
  child.stdout!.on('data', (data: Buffer) => chunks.push(data.toString()));
  child.stderr!.on('data', (data: Buffer) => chunks.push(data.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited:\n${chunks.join('')}`);
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`next start did not answer on ${url}:\n${chunks.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    output: () => chunks.join(''),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: headlessChromium, args: chromiumArgs });
}

/**
 * A page that records what it reports as wrong: uncaught errors (a failed hydration among them)
 * and console errors. A resource the browser could not load is left out (the card's avatar
 * comes from the media store); a request the browser refused for CORS reports itself apart.
 */
export async function watchedPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(`console: ${message.text()}`);
  });
  return { page, errors };
}
