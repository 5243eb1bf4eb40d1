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
 * Logs a seeded creator in. The demo seed gives its people no password (nobody should be able
 * to log in to a fresh installation with a published one), so the test does what the creator
 * would: asks for a password reset, follows the mailed link's token, and sets a password.
 */
export async function logInDemoCreator(page: Page, username: string): Promise<string> {
  const email = `${username}@example.com`;
  await agreeToTerms(page);
  // Set once per run: a later journey signs in with the password an earlier one set, and asks
  // for none of the few reset mails the server allows an account an hour.
  const known = await page.request.post('/papi/login', { data: { email, password: testPassword } });
  if (((await known.json()) as { statusCode: number }).statusCode === 2) return email;
  const asked = await page.request.post('/papi/login/reset', { data: { email } });
  expect(asked.ok()).toBe(true);
  const path = await mailedPath(page.request, email, '/reset-password/');
  const hash = decodeURIComponent(path.slice('/reset-password/'.length));
  const reset = await page.request.post('/papi/login/reset', { data: { hash, password: testPassword } });
  expect(((await reset.json()) as { statusCode: number }).statusCode).toBe(1);
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
