import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { Balance, CreditPackage, Gift, MediaView, Offer, Post } from '../../lib/contract';
import { jpeg, testPassword } from './postsSupport';

/** The sandbox processor's test cards (its card page lists them). */
export const testCards = {
  pays: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
} as const;

interface Envelope<T> {
  statusCode: number;
  statusText?: string;
  body: T;
}

async function bodyOf<T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  const envelope = (await response.json()) as Envelope<T>;
  expect(envelope.statusCode, JSON.stringify(envelope)).toBeGreaterThan(0);
  return envelope.body;
}

/**
 * An access token for the API checks, from a login of its own (the token in the body, no
 * cookie): the money is read the way any client reads it, not through the page.
 */
export async function accessToken(request: APIRequestContext, email: string): Promise<string> {
  const login = await request.post('/papi/login', { data: { email, password: testPassword, tokenInBody: true } });
  const envelope = (await login.json()) as Envelope<{ accessToken: string }>;
  expect(envelope.statusCode).toBe(2);
  return envelope.body.accessToken;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** `GET /api/payments/balance` as the token's owner. */
export async function balanceOf(request: APIRequestContext, token: string): Promise<Balance> {
  return bodyOf<Balance>(await request.get('/api/payments/balance', { headers: bearer(token) }));
}

export async function creditPackages(request: APIRequestContext, token: string): Promise<CreditPackage[]> {
  return bodyOf<CreditPackage[]>(await request.get('/api/payments/packages', { headers: bearer(token) }));
}

/** The platform's price multiplier (`salt` in /papi/settings). */
export async function priceSalt(request: APIRequestContext): Promise<number> {
  return (await bodyOf<{ salt: number }>(await request.get('/papi/settings'))).salt;
}

export async function giftCatalogue(request: APIRequestContext): Promise<Gift[]> {
  return bodyOf<Gift[]>(await request.get('/papi/gifts'));
}

/**
 * The creator's active offer called `name`, made through the API with her token when she has
 * none yet (a repeated run finds the one it made before).
 */
export async function ensureOffer(request: APIRequestContext, token: string, userId: number, name: string, priceCents: number): Promise<Offer> {
  const offers = await bodyOf<Offer[]>(await request.get(`/api/subscription/offer?userId=${userId}`, { headers: bearer(token) }));
  const existing = offers.find((offer) => offer.name === name && offer.offerStatus === 'active' && offer.priceCents === priceCents);
  if (existing) return existing;
  return bodyOf<Offer>(await request.post('/api/subscription/offer', { headers: bearer(token), data: { name, priceCents } }));
}

/**
 * Pays on the sandbox processor's card page (served by the platform as a real processor
 * serves its own), with one of its test cards. The page answers by sending the browser on.
 */
export async function payOnCardPage(page: Page, card: string, amount: string): Promise<void> {
  await expect(page).toHaveURL(/\/papi\/payments\/sandbox\/checkout\//);
  await expect(page.getByRole('heading', { name: 'Pay with a test card' })).toBeVisible();
  await expect(page.getByText(amount, { exact: true })).toBeVisible();
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM/YY)').fill(`12/${(new Date().getUTCFullYear() + 3) % 100}`);
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByLabel('Name on card').fill('Pat Fan');
  await page.getByRole('button', { name: `Pay ${amount}` }).click();
}

/**
 * The creator posts a photo locked at `priceLabel` (the price step as the selector shows it)
 * from the side navigation's add-post button, as creators on a wide screen do; answers its id.
 */
export async function postLockedPhoto(creator: Page, caption: string, priceLabel: string): Promise<number> {
  await creator.goto('/timeline');
  const chooser = creator.waitForEvent('filechooser');
  await creator.getByRole('button', { name: 'New post' }).click();
  await (await chooser).setFiles({ name: 'contact-sheet.jpg', mimeType: 'image/jpeg', buffer: await jpeg(1200, 800, { r: 150, g: 90, b: 60 }) });
  await expect(creator).toHaveURL('/new-post');
  await creator.getByLabel('Caption').fill(caption);
  await creator.getByRole('group', { name: 'Price to unlock' }).getByRole('radio', { name: priceLabel, exact: true }).check();
  await creator.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(creator).toHaveURL('/timeline');
  const card = creator.getByRole('article').filter({ hasText: caption }).first();
  await expect(card).toBeVisible();
  const id = Number(await card.getAttribute('data-post-id'));
  expect(id).toBeGreaterThan(0);
  return id;
}

/** A post's first media as `token`'s owner sees it (with their unlock key, if they have one). */
export async function mediaAs(request: APIRequestContext, token: string, postId: number): Promise<MediaView> {
  const post = await bodyOf<Post>(await request.get(`/papi/posts/${postId}`, { headers: bearer(token) }));
  expect(post.media.length).toBeGreaterThan(0);
  return post.media[0]!;
}
