import { expect, test } from '@playwright/test';
import { formatCount } from '../../lib/sdk';
import { apiProfile, expectNoSeriousA11yViolations } from './support';

test.describe('the partner demo', () => {
  test('the script tag renders both creators’ cards inside their shadow roots, once loaded', async ({ page, request }) => {
    const lucy = await apiProfile(request, 'lucy.rivers');
    const marek = await apiProfile(request, 'marek.novak');
    const embedRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/embed/')) embedRequests.push(new URL(r.url()).pathname);
    });

    await page.goto('/demo/');

    const lucyCard = page.locator('fanstage-profile-card[user="lucy.rivers"]');
    const marekCard = page.locator('fanstage-profile-card[user="marek.novak"]');
    // Playwright's CSS locators pierce open shadow roots; check the content really is in one.
    await expect(lucyCard.getByRole('heading', { name: lucy.displayName })).toBeVisible();
    await expect(marekCard.getByRole('heading', { name: marek.displayName })).toBeVisible();
    for (const card of [lucyCard, marekCard]) {
      expect(await card.evaluate((el) => el.shadowRoot !== null && el.shadowRoot.querySelector('article') !== null)).toBe(true);
      expect(await card.evaluate((el) => el.querySelector('article'))).toBeNull();
    }

    await expect(lucyCard.locator('[data-stat="followers"]')).toHaveText(`${formatCount(lucy.followersCount)} followers`);
    const avatar = lucyCard.getByRole('img', { name: `${lucy.displayName}'s avatar` });
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    // Marek's card speaks Czech through its language attribute.
    await expect(marekCard.locator('[data-stat="followers"]')).toContainText('sledující');

    // The card links to the profile on the platform.
    await expect(lucyCard.getByRole('link', { name: new RegExp(lucy.displayName) })).toHaveAttribute('href', /\/lucy\.rivers$/);

    // The themed card takes the page's --fs-* values; the default one keeps the defaults.
    const surface = (card: typeof lucyCard) => card.evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector('article')!).backgroundColor);
    expect(await surface(marekCard)).toBe('rgb(18, 48, 43)');
    expect(await surface(lucyCard)).toBe('rgb(255, 255, 255)');
    const nameColour = await marekCard.evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector('h2, h1, h3')!).color);
    expect(nameColour).toBe('rgb(241, 245, 244)');

    // Two cards, one chunk: the loader fetched the card's chunk once, and every other piece once too.
    expect(embedRequests.filter((path) => /^\/embed\/assets\/profile-card-[\w-]+\.js$/.test(path))).toHaveLength(1);
    expect(embedRequests.length).toBe(new Set(embedRequests).size);
    // The React card, and window.Fanstage with it, come with the reader's intent: the pointer over the card.
    await lucyCard.hover();
    await expect(lucyCard.locator('[data-fs-lite]')).toHaveCount(0);
    await expect(lucyCard.getByRole('heading', { name: lucy.displayName })).toBeVisible();
    await expect(lucyCard.locator('[data-stat="followers"]')).toHaveText(`${formatCount(lucy.followersCount)} followers`);
    const global = await page.evaluate(() => {
      const fanstage = (window as unknown as { Fanstage?: { version: string; loaded: boolean } }).Fanstage;
      return { loaded: fanstage?.loaded, version: fanstage?.version };
    });
    expect(global.loaded).toBe(true);
    expect(global.version).toMatch(/^\d+\.\d+\.\d+/);

    await expectNoSeriousA11yViolations(page);
  });

  test('the feed element shows the creator’s posts, locked pictures blurred', async ({ page, request }) => {
    const response = await request.get('/papi/2/posts?username=lucy.rivers');
    const posts = ((await response.json()) as { body: { id: number; media: { mediaPrice: number; mediaHash: string }[] }[] }).body;
    expect(posts.length).toBeGreaterThan(0);
    await page.goto('/demo/');
    const feed = page.locator('fanstage-feed[creator="lucy.rivers"]');
    await expect(feed.locator('article[data-post-id]').first()).toBeVisible();
    expect(await feed.evaluate((el) => el.shadowRoot?.querySelector('article[data-post-id]') !== null)).toBe(true);
    // The feed is windowed: posts render as they scroll into view, newest first.
    for (const post of posts) {
      const card = feed.locator(`article[data-post-id="${post.id}"]`);
      await expect
        .poll(async () => {
          const count = await card.count();
          if (count === 0) await page.mouse.wheel(0, 300);
          return count;
        })
        .toBe(1);
      // A visitor gets the blurred preview of a priced picture, never its original.
      for (const media of post.media) {
        const sources = await card.locator('img').evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).currentSrc || (img as HTMLImageElement).src));
        const own = sources.filter((src) => src.includes(media.mediaHash));
        expect(own.length).toBeGreaterThan(0);
        if (media.mediaPrice > 0) for (const src of own) expect(src).toContain('t=blur');
      }
    }
    expect(posts.some((post) => post.media.some((m) => m.mediaPrice > 0))).toBe(true);
  });

  test('the React page renders the cards through the npm package', async ({ page, request }) => {
    const lucy = await apiProfile(request, 'lucy.rivers');
    const marek = await apiProfile(request, 'marek.novak');
    await page.goto('/demo/react.html');

    await expect(page.getByRole('heading', { level: 1, name: 'Creators we love' })).toBeVisible();
    const lucyCard = page.getByRole('article', { name: lucy.displayName });
    await expect(lucyCard.getByRole('heading', { name: lucy.displayName })).toBeVisible();
    await expect(page.getByRole('article', { name: marek.displayName })).toBeVisible();
    await expect(lucyCard.locator('[data-stat="posts"]')).toHaveText(`${formatCount(lucy.postsCount)} posts`);

    // The partner's language switch reaches the components.
    await page.getByRole('combobox', { name: 'Language' }).selectOption('cs');
    await expect(lucyCard.locator('[data-stat="posts"]')).toHaveText(`${formatCount(lucy.postsCount)} příspěvků`);
    await expect(page.getByRole('heading', { level: 1, name: 'Tvůrci, které milujeme' })).toBeVisible();
  });
});
