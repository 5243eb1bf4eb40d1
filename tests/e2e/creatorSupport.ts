import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { MediaView, Offer, Post } from '../../lib/contract';
import { agreeToTerms } from './support';
import { jpeg, logIn, mailedPath, testPassword } from './postsSupport';

/**
 * Creators of a journey's own. The seeded creators are shared by every journey of a run, and
 * with two workers by two journeys at the same moment: a journey that asserts what a creator
 * earned, who follows her, what her notifications or chats hold, or that changes her prices,
 * offers or posts, makes a creator of its own here instead, through the API, the way a new
 * account becomes one on the site (sign-up, the mailed link, the partner form, the sandbox
 * identity check, the administrator's approval). A second or two, no screen.
 */

interface Envelope<T> {
  statusCode: number;
  statusText?: string;
  body: T;
}

/** The seeded administrator (docs/development.md), who approves partner applications. */
const admin = { email: 'fanstage.admin@example.com', password: 'fanstage-demo' };

export interface FreshCreator {
  id: number;
  username: string;
  displayName: string;
  email: string;
  /** An access token of a login of its own (the token in the body, no cookie). */
  token: string;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function bodyOf<T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  const envelope = (await response.json()) as Envelope<T>;
  expect(envelope.statusCode, `${response.url()}: ${JSON.stringify(envelope)}`).toBeGreaterThan(0);
  return envelope.body;
}

async function tokenOf(request: APIRequestContext, email: string, password: string): Promise<string> {
  return (await bodyOf<{ accessToken: string }>(await request.post('/papi/login', { data: { email, password, tokenInBody: true } }))).accessToken;
}

/**
 * Six characters no other creator of the run has, so display names stay unique and none is
 * part of another (lists of creators are found by name), yet short: a name as long as a seeded
 * one, which the screens are laid out for.
 */
function uniqueSuffix(): string {
  const time = Date.now().toString(36).slice(-2);
  const random = Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
  return `${time}${random}`;
}

export interface CreatorOptions {
  /** Her first name; the display name is this and a suffix of the run, e.g. `Ana k3x9a0`. */
  name?: string;
  /** A second name between the first and the suffix: a long one tries the layouts a long name meets. */
  surname?: string;
  /** 2, a woman, as the seeded creators but one are (the timeline's quick post box is theirs); 1 a man. */
  gender?: 1 | 2;
  messagePrice?: number;
  callPrice?: number;
  /** A profile picture, as most creators have. */
  avatar?: boolean;
  /** Origins allowed to embed her widgets. */
  embedOrigins?: string[];
}

/**
 * A new approved partner and seller, made through the API with `request` (whose cookies it
 * leaves alone: every login here answers its token in the body). Log a page in as her with
 * `logInCreator`.
 */
export async function signUpCreator(request: APIRequestContext, options: CreatorOptions = {}): Promise<FreshCreator> {
  const suffix = uniqueSuffix();
  const name = options.name ?? 'Creator';
  const email = `${name.toLowerCase()}.${suffix}@example.com`;
  const displayName = [name, options.surname, suffix].filter(Boolean).join(' ');

  await bodyOf(await request.post('/papi/signup', { data: { email, password: testPassword } }));
  const hash = (await mailedPath(request, email, '/action/')).slice('/action/'.length);
  await bodyOf(await request.post('/papi/action/jwt', { data: { hash } }));
  const token = await tokenOf(request, email, testPassword);
  const headers = bearer(token);

  // The partner form and the identity check at the sandbox provider, as the applicant's browser sends them.
  await bodyOf(await request.put('/api/partner', { headers, data: { name: 'Jana Nováková', street: 'Dlouhá 12', zip: '110 00', country: 'CZ', iban: 'CZ65 0800 0000 1920 0014 5399' } }));
  await bodyOf(await request.get('/api/partner/reg-done', { headers }));
  const { redirectUrl } = await bodyOf<{ redirectUrl: string }>(await request.get('/api/partner/start-id-check', { headers }));
  const picture = await jpeg(900, 600);
  const checked = await request.post(redirectUrl, {
    multipart: {
      front: { name: 'front.jpg', mimeType: 'image/jpeg', buffer: picture },
      back: { name: 'back.jpg', mimeType: 'image/jpeg', buffer: picture },
      selfie: { name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: picture },
      documentNumber: '100000001',
    },
    maxRedirects: 0,
  });
  expect(checked.status(), 'the sandbox sends the applicant back to the platform').toBe(303);

  const me = await bodyOf<{ id: number; username: string; approvedState: number }>(await request.get('/api/users/me', { headers }));
  expect(me.approvedState, 'identity verified, waiting for approval').toBe(110);
  const adminToken = await tokenOf(request, admin.email, admin.password);
  await bodyOf(await request.post(`/api/admin/partners/${me.id}/approve`, { headers: bearer(adminToken), data: {} }));

  const profile: Record<string, unknown> = { displayName, gender: options.gender ?? 2 };
  if (options.messagePrice !== undefined) profile.messagePrice = options.messagePrice;
  if (options.callPrice !== undefined) profile.callPrice = options.callPrice;
  if (options.embedOrigins !== undefined) profile.embedOrigins = options.embedOrigins;
  const account = await bodyOf<{ approvedState: number; isSeller: boolean }>(await request.put('/api/users/me', { headers, data: profile }));
  expect(account).toMatchObject({ approvedState: 120, isSeller: true });
  if (options.avatar) {
    await bodyOf(
      await request.post('/api/users/me/avatar', {
        headers,
        multipart: { file: { name: 'avatar.jpg', mimeType: 'image/jpeg', buffer: await jpeg(600, 600, { r: 200, g: 90, b: 120 }) } },
      }),
    );
  }
  return { id: me.id, username: me.username, displayName, email, token };
}

/** Logs `page` in as the creator (the refresh cookie lands in its context), past the age gate. */
export async function logInCreator(page: Page, creator: FreshCreator): Promise<void> {
  await agreeToTerms(page);
  await logIn(page, creator.email);
}

/** A monthly offer of hers, made through the API. */
export async function offerOf(request: APIRequestContext, creator: FreshCreator, name: string, priceCents: number): Promise<Offer> {
  return bodyOf<Offer>(await request.post('/api/subscription/offer', { headers: bearer(creator.token), data: { name, priceCents } }));
}

/**
 * A post of hers made through the API, as from a client of her own: the text alone, or with a
 * photo (`photoPrice` in stored cents; 0 is a free photo).
 */
export async function postThroughApi(request: APIRequestContext, token: string, text: string, photoPrice?: number): Promise<Post> {
  let mediaIds: number[] = [];
  if (photoPrice !== undefined) {
    const uploaded = await bodyOf<{ fileName: string }>(
      await request.post('/api/media/binary', {
        headers: bearer(token),
        multipart: { file: { name: 'studio.jpg', mimeType: 'image/jpeg', buffer: await jpeg(1200, 800, { r: 90, g: 60, b: 150 }) } },
      }),
    );
    const media = await bodyOf<MediaView[]>(await request.post('/api/media', { headers: bearer(token), data: { fileNames: [uploaded.fileName], price: photoPrice, purpose: 'post', mediaType: 'image' } }));
    mediaIds = media.map((m) => m.mediaId);
  }
  return bodyOf<Post>(await request.post('/api/posts', { headers: bearer(token), data: { text, ...(mediaIds.length > 0 ? { mediaIds, price: photoPrice } : {}) } }));
}

/**
 * The partner demo (`/demo/`, Lucy Rivers's site) as `creator` would put it up: her name in the
 * widgets' attributes in place of Lucy's, the rest of the page as it is served, from whichever
 * origin it is opened. The page is the server's own (a response made up by the test would come
 * from no address, and the browser would refuse it the loopback platform); the names are
 * changed as the parser inserts the elements, before any script of the page runs.
 */
export async function demoPageOf(page: Page, creator: FreshCreator): Promise<void> {
  await page.addInitScript((username) => {
    if (!location.pathname.startsWith('/demo/')) return;
    const rename = (element: Element) => {
      for (const name of ['creator', 'user', 'with']) if (element.getAttribute(name) === 'lucy.rivers') element.setAttribute(name, username);
    };
    new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) if (node instanceof Element && node.localName.startsWith('fanstage-')) rename(node);
    }).observe(document, { childList: true, subtree: true });
  }, creator.username);
}
