import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { TERMS_VERSION, type PublicProfile } from '../../lib/contract';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const axePath = path.join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js');

export const viewports = {
  phone: { width: 375, height: 740 },
  tablet: { width: 870, height: 1000 },
  web: { width: 1280, height: 860 },
} as const;

/**
 * Agrees to the age-and-terms gate the way the site does, through the API: `page.request`
 * shares the browser context's cookies, so the page loads without the gate.
 */
export async function agreeToTerms(page: Page): Promise<void> {
  const response = await page.request.post('/papi/users/cookie', { data: { name: 'accept', value: TERMS_VERSION } });
  expect(response.ok()).toBe(true);
}

/** A profile as the API answers it, so the tests follow the seed instead of copying it. */
export async function apiProfile(request: APIRequestContext, username: string): Promise<PublicProfile> {
  const response = await request.get(`/papi/users/${username}`);
  expect(response.ok()).toBe(true);
  const envelope = (await response.json()) as { statusCode: number; body: PublicProfile };
  expect(envelope.statusCode).toBe(2);
  return envelope.body;
}

export async function apiCreators(request: APIRequestContext, limit: number): Promise<PublicProfile[]> {
  const response = await request.get(`/papi/who-to-follow?limit=${limit}`);
  const envelope = (await response.json()) as { statusCode: number; body: PublicProfile[] };
  expect(envelope.statusCode).toBe(2);
  return envelope.body;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** Runs axe-core in the page and fails on serious or critical violations, listing them. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  // Evaluated rather than added as a <script>: the pages' Content Security Policy refuses
  // inline scripts, and evaluate runs outside it (as a browser extension's checker would).
  await page.evaluate(readFileSync(axePath, 'utf8'));
  // What is still fading in (a dialog's opening) is measured once it has: axe reads the colours
  // of a moment, and mid-fade they are paler than anything the reader is left with.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
}

/**
 * Clicks a control of a popup that closes its own window (Allow, Cancel, Confirm, Pay) and waits
 * until the window is gone. The window may close before the click hears back from it, which
 * Playwright reports as a closed target: that is the click landing, and the close it caused is
 * what this waits for (a click that did not land closes nothing, and the wait fails).
 */
export async function clickClosingItsWindow(window: Page, control: Locator, options: { timeout?: number } = {}): Promise<void> {
  const closed = window.waitForEvent('close', options);
  await control.click(options).catch((error: unknown) => {
    if (!window.isClosed()) throw error;
  });
  await closed;
}
