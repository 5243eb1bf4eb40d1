import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import type { Post, PublicProfile, Settings } from '../../lib/contract';
import { DiscoverTabs } from '../../lib/contract/constants';
import { agreeToTerms, apiCreators, apiProfile, expectNoSeriousA11yViolations, viewports } from './support';
import { logInDemoCreator, signUpVerifiedFan } from './postsSupport';
import { payOnCardPage, priceSalt, testCards } from './moneySupport';
import { fanPriceCents, formatPrice } from '../../lib/sdk/rules/price';
import { formatMoney } from '../../lib/ui/shared/money';

type Envelope<T> = { statusCode: number; statusText?: string; body: T };

/**
 * SPEC §2's routes as the SPEC writes them, one entry per screen; `{…}` parts are filled with
 * demo ids below. `login` is the SPEC's marker: those are walked signed in.
 */
const specRoutes: readonly { route: string; login?: true }[] = [
  { route: '/' },
  { route: '/timeline', login: true },
  { route: '/discover' },
  ...DiscoverTabs.map((tab) => ({ route: `/discover?tab=${tab}` })),
  { route: '/discover/{info}' },
  { route: '/search-hashtags/{hashtag}' },
  { route: '/feed/unlocked-posts' },
  { route: '/feed/scheduled-posts' },
  { route: '/feed/tour-timeline' },
  { route: '/feed/hashtag-timeline/{hashtag}' },
  { route: '/post/{postid}' },
  { route: '/post/{postid}/comments' },
  { route: '/post/{postid}/{commentid}' },
  { route: '/post/{postid}/full-screen-media' },
  { route: '/post/{postid}/{mediaid}/full-screen-media' },
  { route: '/who-to-follow', login: true },
  { route: '/new-post', login: true },
  { route: '/update-post/{postid}', login: true },
  { route: '/chat-list', login: true },
  { route: '/chat/{user}', login: true },
  { route: '/notifications', login: true },
  ...['all', 'follow', 'subscriptions', 'replies'].map((tab) => ({ route: `/notifications?tab=${tab}`, login: true as const })),
  { route: '/settings', login: true },
  { route: '/settings/main', login: true },
  { route: '/settings/edit-profile', login: true },
  { route: '/settings/upload-avatar', login: true },
  { route: '/settings/subscription/subscribing', login: true },
  { route: '/settings/subscription/subscribers', login: true },
  { route: '/videocall/{callid}', login: true },
  { route: '/partner-registration', login: true },
  { route: '/verify-request', login: true },
  // The report form names what is reported in its query: here another creator's profile.
  { route: '/abuse-form?type=user&id={otherid}', login: true },
  { route: '/sign-up' },
  { route: '/sign-up/forgotpassword' },
  { route: '/reset-password/{hash}' },
  { route: '/action/{hash}' },
  { route: '/gopay-return?id=1' },
  { route: '/tour-partners' },
  { route: '/tour-faq' },
  { route: '/contact' },
  { route: '/terms' },
  { route: '/terms-for-ag', login: true },
  { route: '/terms2257' },
  { route: '/privacy' },
  { route: '/cookie-policy' },
  { route: '/offline' },
  { route: '/{username}' },
  { route: '/{userid}' },
];


async function demoIds(page: Page) {
  const lucy = await apiProfile(page.request, 'lucy.rivers');
  const posts = ((await (await page.request.get('/papi/2/posts?username=lucy.rivers')).json()) as Envelope<Post[]>).body;
  const withMedia = posts.find((post) => post.media.length > 0 && post.media.every((m) => !(m.mediaPrice > 0)));
  expect(withMedia, 'a free demo post with media').toBeDefined();
  let commented: { postId: number; commentId: number } | undefined;
  for (const post of posts) {
    const answer = (await (await page.request.get(`/papi/posts/${post.id}/comments?limit=30`)).json()) as Envelope<{ id: number }[] | { comments: { id: number }[] }>;
    const comments = Array.isArray(answer.body) ? answer.body : answer.body.comments;
    if (comments.length > 0) {
      commented = { postId: post.id, commentId: comments[0]!.id };
      break;
    }
  }
  expect(commented, 'a demo post with a comment').toBeDefined();
  const other = (await apiCreators(page.request, 15)).find((creator: PublicProfile) => creator.username !== 'lucy.rivers');
  const hashtag = /#([\p{L}\d_.]+)/u.exec(posts.map((post) => post.text ?? '').join(' '))?.[1] ?? 'art';
  return {
    username: lucy.username,
    userid: String(lucy.id),
    postid: String(withMedia!.id),
    mediaid: String(withMedia!.media[0]!.mediaId),
    commentid: String(commented!.commentId),
    commentPost: String(commented!.postId),
    user: other!.username,
    otherid: String(other!.id),
    hashtag,
    info: 'activeusers',
    callid: '1',
    hash: 'not-a-real-link-0123456789abcdef',
  };
}

function fill(route: string, ids: Record<string, string>): string {
  // A comment thread is opened on the post the comment belongs to.
  const withPost = route === '/post/{postid}/{commentid}' ? route.replace('{postid}', ids.commentPost!) : route;
  return withPost.replace(/\{(\w+)\}/g, (whole, name: string) => ids[name] ?? whole);
}

/** Opens `path` and waits until the screen has settled: its code loaded and its first data in. */
async function openScreen(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('#main')).not.toContainText('Loading…', { timeout: 15_000 });
  await page.waitForLoadState('networkidle');
}

/** Tabs of the walk: each settles (networkidle, half a second of quiet) while the others load. */
const walkTabs = 3;

/**
 * Walks `routes` in `walkTabs` tabs of `page`'s context at once, `page` one of them: each tab
 * takes the next route when it is done with its own, and `check` looks at each route in the tab
 * that opened it, exactly as one tab walking them all would. The tabs share the context's
 * cookies: the visitor's agreement, or the creator's session.
 */
async function walkInTabs<T>(page: Page, routes: readonly T[], check: (tab: Page, route: T) => Promise<void>): Promise<void> {
  const context: BrowserContext = page.context();
  const others = await Promise.all(Array.from({ length: walkTabs - 1 }, () => context.newPage()));
  const queue = [...routes];
  try {
    await Promise.all(
      [page, ...others].map(async (tab) => {
        for (let route = queue.shift(); route !== undefined; route = queue.shift()) await check(tab, route);
      }),
    );
  } finally {
    await Promise.all(others.map((tab) => tab.close()));
  }
}

test.describe('the information pages and the routes of SPEC §2', () => {
  test('every route of SPEC §2 renders its screen, none of them the not-found screen', async ({ page, browser }) => {
    test.setTimeout(300_000);
    await agreeToTerms(page);
    const ids = await demoIds(page);
    const notFound = page.getByTestId('not-found');

    // Visitors on the public routes.
    await walkInTabs(page, specRoutes.filter((r) => !r.login), async (tab, { route }) => {
      const path = fill(route, ids);
      await openScreen(tab, path);
      await expect(tab.getByTestId('not-found'), `${route} → ${path}`).toHaveCount(0);
      await expect(tab.getByText('Error loading APP! Try again later.'), path).toHaveCount(0);
    });
    // /404 is the not-found screen itself.
    await openScreen(page, '/404');
    await expect(notFound).toBeVisible();

    // Signed in as a demo creator: the login routes stay where they are and show their screen.
    await logInDemoCreator(page, 'lucy.rivers');
    await walkInTabs(page, specRoutes.filter((r) => r.login), async (tab, { route }) => {
      const path = fill(route, ids);
      await openScreen(tab, path);
      await expect(tab.getByTestId('not-found'), `${route} → ${path}`).toHaveCount(0);
      await expect(tab.getByText('Error loading APP! Try again later.'), path).toHaveCount(0);
      expect(new URL(tab.url()).pathname, `${route} kept its address`).not.toBe('/');
    });
    // A signed-in person on / is on the Timeline (SPEC §2).
    await openScreen(page, '/');
    await expect(page).toHaveURL(/\/timeline$/);

    // /settings/subscription/{type}/{id}: one subscription, as its fan and as its creator. The
    // demo content has none, so a new fan subscribes to her by card first.
    const fanContext = await browser.newContext();
    const fan = await fanContext.newPage();
    await agreeToTerms(fan);
    await signUpVerifiedFan(fan, 'walkfan');
    const salt = await priceSalt(fan.request);
    await fan.goto(`/${ids.username}`);
    // Her seeded Monthly offer; other journeys of a run may have added offers of their own.
    await fan.getByTestId('profile-actions').getByRole('button', { name: /^Subscribe · / }).click();
    const purchase = fan.getByRole('dialog', { name: /^Subscribe to / });
    await purchase.getByRole('radio', { name: /^Monthly/ }).first().check();
    await purchase.getByRole('radio', { name: 'A new card' }).check();
    await purchase.getByRole('button', { name: `Subscribe for ${formatPrice(640, salt)} a month` }).click();
    await payOnCardPage(fan, testCards.pays, formatMoney(fanPriceCents(640, salt)));
    await expect(fan.getByText('Payment received. Your subscription is active.')).toBeVisible({ timeout: 20_000 });
    await openScreen(fan, '/settings/subscription/subscribing');
    await fan.getByRole('main').getByRole('link', { name: /Lucy Rivers/ }).first().click();
    await expect(fan).toHaveURL(/\/settings\/subscription\/subscribing\/\d+$/);
    const subscriptionId = /(\d+)$/.exec(new URL(fan.url()).pathname)![1]!;
    await expect(fan.getByTestId('not-found')).toHaveCount(0);
    await fanContext.close();
    for (const path of [`/settings/subscription/subscribers/${subscriptionId}`]) {
      await openScreen(page, path);
      await expect(notFound, path).toHaveCount(0);
      await expect(page.getByText('Error loading APP! Try again later.'), path).toHaveCount(0);
    }
  });

  test('the footer and the menu lead to the legal pages, in English and Czech, naming the operator, at no cost to the first load', async ({ page }) => {
    // Some twenty screens opened, five of them at three widths: more than the default 30 s on a busy machine.
    test.setTimeout(60_000);
    await agreeToTerms(page);
    const settings = ((await (await page.request.get('/papi/settings')).json()) as Envelope<Settings>).body;
    const operator = settings.operator!;
    expect(operator.name).not.toBe('');
    const legalChunks: string[] = [];
    page.on('request', (sent) => {
      if (/\/assets\/(LegalPage|legalTexts|Contact)[.-]/.test(new URL(sent.url()).pathname)) legalChunks.push(new URL(sent.url()).pathname);
    });
    await page.setViewportSize(viewports.web);
    await openScreen(page, '/');
    expect(legalChunks, 'the first load fetches no legal page or text').toEqual([]);

    // The page's own footer; an article's footer (the legal page's operator box) is no contentinfo.
    const footer = page.getByRole('contentinfo');
    const pages = [
      { link: 'Terms', path: '/terms', title: 'Terms of Service' },
      { link: 'Privacy', path: '/privacy', title: 'Privacy policy' },
      { link: '2257 terms', path: '/terms2257', title: '18 U.S.C. 2257 compliance statement' },
      { link: 'Cookie policy', path: '/cookie-policy', title: 'Cookie policy' },
      { link: 'FAQ', path: '/tour-faq', title: null },
    ];
    for (const { link, path, title } of pages) {
      await footer.getByRole('link', { name: link, exact: true }).click();
      await expect(page).toHaveURL(path);
      if (title === null) continue;
      const article = page.getByTestId('legal-page');
      await expect(article.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page).toHaveTitle(`${title} · Fanstage`);
      // The operator and the support address come from the server's configuration.
      const address = article.locator('address');
      await expect(address).toContainText(operator.name);
      await expect(address.getByRole('link', { name: operator.email })).toHaveAttribute('href', `mailto:${operator.email}`);
      if (operator.address !== '') await expect(address).toContainText(operator.address);
    }
    expect(legalChunks.some((chunk) => chunk.includes('legalTexts.en'))).toBe(true);
    expect(legalChunks.some((chunk) => chunk.includes('legalTexts.cs')), 'the Czech texts wait until someone reads Czech').toBe(false);

    // The terms' sections are linked from their table of contents.
    await openScreen(page, '/terms');
    const terms = page.getByTestId('legal-page');
    await expect(terms.getByRole('heading', { level: 2 })).toHaveCount(14);
    await terms.getByRole('navigation', { name: 'Contents' }).getByRole('link', { name: 'Law and disputes' }).click();
    await expect(terms.getByRole('heading', { level: 2, name: '13. Law and disputes' })).toBeFocused();
    await expect(terms).toContainText('Effective from March 7, 2024');
    await expectNoSeriousA11yViolations(page);

    // In Czech: the page's own words, the Czech chunk loaded only now.
    await page.getByRole('combobox', { name: 'Language' }).selectOption('cs');
    await expect(terms.getByRole('heading', { level: 1, name: 'Podmínky užívání' })).toBeVisible();
    await expect(terms).toHaveAttribute('lang', 'cs');
    expect(legalChunks.some((chunk) => chunk.includes('legalTexts.cs'))).toBe(true);
    await footer.getByRole('link', { name: 'Soukromí', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Zásady ochrany osobních údajů' })).toBeVisible();
    await expect(page.getByTestId('legal-page').locator('address')).toContainText(operator.name);
    await page.getByRole('combobox', { name: 'Jazyk' }).selectOption('en');

    // Each page fits a phone, a tablet and a web window without sideways scrolling.
    for (const viewport of [viewports.phone, viewports.tablet, viewports.web]) {
      await page.setViewportSize(viewport);
      for (const path of ['/terms', '/terms2257', '/privacy', '/cookie-policy', '/contact']) {
        await openScreen(page, path);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${path} at ${viewport.width} px`).toBeLessThanOrEqual(0);
      }
    }

    // On a phone the menu lists Contact (the footer keeps it for phones, SPEC §2) and the legal pages.
    await page.setViewportSize(viewports.phone);
    await openScreen(page, '/');
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByTestId('hamburger-menu');
    for (const name of ['Terms', 'Privacy', '2257 terms', 'Cookie policy', 'Contact']) await expect(menu.getByRole('link', { name, exact: true }).first()).toBeVisible();
    await menu.getByRole('link', { name: 'Contact', exact: true }).first().click();
    await expect(page).toHaveURL('/contact');
    await expect(page.getByRole('heading', { level: 1, name: 'Contact us' })).toBeVisible();
  });

  test('the contact form sends a visitor’s message and a signed-in person’s to the support outbox', async ({ page }) => {
    await agreeToTerms(page);
    const support = ((await (await page.request.get('/papi/settings')).json()) as Envelope<Settings>).body.operator!.email;
    const outbox = async () =>
      ((await (await page.request.get(`/dev/mail.json?to=${encodeURIComponent(support)}`)).json()) as { mails: { subject: string; text: string }[] }).mails;
    // Other journeys write to support meanwhile: this test's messages are known by their
    // subjects, this run's own, and what the page sends is watched where it leaves the page.
    const stamp = Date.now().toString(36);
    const mailOf = async (subject: string) => (await outbox()).find((mail) => mail.subject === subject);
    const sent: string[] = [];
    page.on('request', (request) => {
      if (['/papi/contact', '/api/contact'].includes(new URL(request.url()).pathname)) sent.push(request.url());
    });

    await page.setViewportSize(viewports.phone);
    await openScreen(page, '/contact');
    const form = page.getByRole('form', { name: 'Contact us' });
    // Nothing filled in: every field says what it needs, and nothing is sent.
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByLabel('Your name')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByRole('combobox', { name: 'Topic' })).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByLabel('Message')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByLabel('Your name')).toBeFocused();
    expect(sent, 'nothing left the page').toEqual([]);

    await form.getByLabel('Your name').fill('Petra Visitor');
    await form.getByLabel('E-mail').fill('petra.visitor@example.com');
    await form.getByRole('combobox', { name: 'Topic' }).selectOption({ label: 'Payments and credits' });
    await form.getByLabel('Subject').fill(`Card payment question ${stamp}`);
    await form.getByLabel('Message').fill('Hello, which cards do you accept for buying credits?');
    await expect(form).toContainText('52 of 5000 characters');
    await expectNoSeriousA11yViolations(page);
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByRole('status')).toHaveText('Thank you, your message was sent. We will answer by e-mail.');
    await expect(form.getByLabel('Message')).toHaveValue('');
    const visitorSubject = `[Contact · payments] Card payment question ${stamp}`;
    await expect.poll(async () => (await mailOf(visitorSubject))?.subject).toBe(visitorSubject);
    const visitorMail = await mailOf(visitorSubject);
    expect(visitorMail!.text).toContain('From: Petra Visitor <petra.visitor@example.com>');
    expect(visitorMail!.text).toContain('Account: not signed in (visitor)');
    expect(visitorMail!.text).toContain('Hello, which cards do you accept for buying credits?');

    // Signed in: no address to type, the account's is used, and the message names the account.
    const email = await logInDemoCreator(page, 'lucy.rivers');
    await openScreen(page, '/contact');
    await expect(form.getByLabel('E-mail')).toHaveCount(0);
    await form.getByLabel('Your name').fill('Lucy Rivers');
    await form.getByRole('combobox', { name: 'Topic' }).selectOption('creators');
    await form.getByLabel('Subject').fill(`Payout timing ${stamp}`);
    await form.getByLabel('Message').fill('When does a payout I asked for today reach my account?');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByRole('status')).toContainText('your message was sent');
    const memberSubject = `[Contact · creators] Payout timing ${stamp}`;
    await expect.poll(async () => (await mailOf(memberSubject))?.subject).toBe(memberSubject);
    const memberMail = await mailOf(memberSubject);
    expect(memberMail!.text).toContain(`From: Lucy Rivers <${email}>`);
    expect(memberMail!.text).toContain('Account: @lucy.rivers');

    // The server's refusal is shown in words: past the limit, too many messages.
    await page.route('**/api/contact', (route) => route.fulfill({ status: 429, json: { statusCode: -1, statusText: 'too-many-requests' } }));
    await form.getByRole('combobox', { name: 'Topic' }).selectOption('creators');
    await form.getByLabel('Subject').fill('Another one');
    await form.getByLabel('Message').fill('One more question about payouts, please.');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByRole('alert')).toHaveText('Too many attempts. Please wait a while.');
    await expect(form.getByLabel('Message'), 'a refused message stays to be sent later').toHaveValue('One more question about payouts, please.');
  });

  test('with the forced login, visitors are asked to log in everywhere but the information pages', async ({ page }) => {
    await agreeToTerms(page);
    // The settings as a server with FORCE_LOGIN=true answers them.
    await page.route('**/papi/settings', async (route) => {
      const answer = (await (await route.fetch()).json()) as Envelope<Record<string, unknown>>;
      await route.fulfill({ json: { ...answer, body: { ...answer.body, forceLogin: true } } });
    });
    const prompt = page.getByTestId('login-prompt');
    for (const path of ['/terms', '/terms2257', '/privacy', '/cookie-policy', '/tour-faq', '/contact', '/sign-up']) {
      await openScreen(page, path);
      await expect(prompt, path).toBeHidden();
    }
    for (const path of ['/', '/discover', '/lucy.rivers']) {
      await openScreen(page, path);
      await expect(prompt, path).toBeVisible();
    }
    // Closing it lets the visitor glance at the page; the next page asks again.
    await page.keyboard.press('Escape');
    await expect(prompt).toBeHidden();
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy', exact: true }).click();
    await expect(page).toHaveURL('/privacy');
    await expect(prompt).toBeHidden();
    await page.goBack();
    await expect(page).toHaveURL('/lucy.rivers');
    await expect(prompt).toBeVisible();
  });
});
