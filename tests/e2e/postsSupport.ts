import { expect, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import type { Post } from '../../lib/contract';
import { agreeToTerms } from './support';

export const testPassword = 'correct horse battery staple';

/** The newest link in the development outbox for `email` whose path starts with `prefix`. */
export async function mailedPath(request: APIRequestContext, email: string, prefix: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(async () => {
      const { mails } = (await (await request.get(`/dev/mail.json?to=${encodeURIComponent(email)}`)).json()) as { mails: { links: string[] }[] };
      found = mails
        .flatMap((mail) => mail.links)
        .map((href) => new URL(href).pathname)
        .find((path) => path.startsWith(prefix));
      return found !== undefined;
    })
    .toBe(true);
  return found!;
}

/**
 * The seeded creators the journeys may sign in as. The demo seed's password is the development
 * server's; the journeys use the test password instead, which the run's global setup gives each
 * of them before any journey starts (globalSetup.ts), the way a creator would: a password reset.
 */
export const demoCreatorNames = ['lucy.rivers', 'marek.novak', 'sofia.bloom', 'ava.sterling', 'tereza.kralova', 'mia.chen', 'nina.vega', 'emma.hart'] as const;

/**
 * Gives the account the test password through the reset mail: asks for a reset, follows the
 * mailed link's token and sets the password. The reset ends the account's sessions, and the
 * server allows only a few reset mails an account an hour: done once a run, before the journeys.
 */
export async function giveTestPassword(request: APIRequestContext, email: string): Promise<void> {
  const asked = await request.post('/papi/login/reset', { data: { email } });
  expect(asked.ok()).toBe(true);
  const path = await mailedPath(request, email, '/reset-password/');
  const hash = decodeURIComponent(path.slice('/reset-password/'.length));
  const reset = await request.post('/papi/login/reset', { data: { hash, password: testPassword } });
  expect(((await reset.json()) as { statusCode: number }).statusCode).toBe(1);
}

/**
 * Logs a seeded person in with the test password. On the shared server the global setup gave
 * it already; on a server of a test's own (serverProcess.ts), started after the setup, the
 * first login gives it through the reset mail (giveTestPassword).
 */
export async function logInDemoCreator(page: Page, username: string): Promise<string> {
  const email = `${username}@example.com`;
  await agreeToTerms(page);
  const known = await page.request.post('/papi/login', { data: { email, password: testPassword } });
  if (((await known.json()) as { statusCode: number }).statusCode === 2) return email;
  await giveTestPassword(page.request, email);
  await logIn(page, email);
  return email;
}

/** Logs in through the API: the refresh cookie lands in the page's context and the site resumes it. */
export async function logIn(page: Page, email: string): Promise<void> {
  const response = await page.request.post('/papi/login', { data: { email, password: testPassword } });
  expect(((await response.json()) as { statusCode: number }).statusCode).toBe(2);
}

/** A fresh fan with a verified e-mail address, logged in in `page`'s context. */
export async function signUpVerifiedFan(page: Page, name: string): Promise<string> {
  const email = `${name}${Date.now()}${Math.floor(Math.random() * 1000)}@example.com`;
  await agreeToTerms(page);
  const signup = await page.request.post('/papi/signup', { data: { email, password: testPassword } });
  expect(((await signup.json()) as { statusCode: number }).statusCode).toBe(1);
  await logIn(page, email);
  const action = await mailedPath(page.request, email, '/action/');
  await page.goto(action);
  await expect(page.getByText('Your e-mail address is verified. Thank you!')).toBeVisible();
  return email;
}

/** A photo of the given size, made in the test process. */
export function jpeg(width: number, height: number, color = { r: 40, g: 120, b: 200 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .composite([{ input: { create: { width: Math.floor(width / 2), height: Math.floor(height / 2), channels: 3, background: { r: 250, g: 200, b: 40 } } }, left: 10, top: 10 }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** A post as the public API answers it (the viewer is whoever `request` is logged in as, if anyone). */
export async function apiPost(request: APIRequestContext, id: number) {
  const response = await request.get(`/papi/posts/${id}`);
  return { status: response.status(), envelope: (await response.json()) as { statusCode: number; statusText?: string; body?: Post } };
}
