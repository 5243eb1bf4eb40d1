import { expect, test, type APIRequestContext, type Page, type Response } from '@playwright/test';
import type { PostList, PublicProfile } from '../../lib/contract';
import { agreeToTerms, apiProfile, expectNoSeriousA11yViolations, viewports } from './support';
import { signUpVerifiedFan } from './postsSupport';
import { logInCreator, signUpCreator } from './creatorSupport';

/** A list endpoint's body, so the tests follow the seed instead of copying it. */
async function apiList<T>(request: APIRequestContext, path: string): Promise<T[]> {
  const response = await request.get(path);
  expect(response.ok()).toBe(true);
  const envelope = (await response.json()) as { statusCode: number; body: T[] };
  expect(envelope.statusCode).toBe(2);
  return envelope.body;
}

/**
 * The page's next answer from `path` with exactly the query `query`: what the screen was given
 * to show. Other journeys of a run make creators (and one shows the verified badge) while this
 * one runs, so a list read by the test a moment before may already be another.
 */
function nextAnswer(page: Page, path: string, query: Record<string, string>): Promise<Response> {
  return page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname === path && JSON.stringify(Object.fromEntries([...url.searchParams].sort())) === JSON.stringify(Object.fromEntries(Object.entries(query).sort()));
  });
}

async function profilesOf(answer: Promise<Response>): Promise<PublicProfile[]> {
  const envelope = (await (await answer).json()) as { statusCode: number; body: PublicProfile[] };
  expect(envelope.statusCode).toBe(2);
  return envelope.body;
}

test.describe('discover and search', () => {
  test.beforeEach(async ({ page }) => {
    await agreeToTerms(page);
  });

  test('Discover tabs list the seeded creators at every layout, and the filter narrows them', async ({ page, request }) => {
    const lucy = await apiProfile(request, 'lucy.rivers');
    const verified = await apiList<PublicProfile>(request, '/papi/discover/search?tab=hasBadge&limit=30');
    expect(verified.map((p) => p.username)).toContain('lucy.rivers');

    for (const viewport of [viewports.phone, viewports.tablet, viewports.web]) {
      await page.setViewportSize(viewport);
      await page.goto('/discover');
      const sections = page.getByRole('navigation', { name: 'Discover sections' });
      await expect(sections.getByRole('link', { name: 'Active users' })).toHaveAttribute('aria-current', 'page');
      await expect(page.getByTestId('discover-users').getByRole('article').first()).toBeVisible();

      const verifiedAnswer = nextAnswer(page, '/papi/discover/search', { tab: 'hasBadge', limit: '30' });
      await sections.getByRole('link', { name: 'Verified' }).click();
      await expect(page).toHaveURL('/discover?tab=hasBadge');
      const shown = await profilesOf(verifiedAnswer);
      expect(shown.map((p) => p.username)).toContain('lucy.rivers');
      const list = page.getByTestId('discover-users');
      await expect(list.getByRole('article')).toHaveCount(shown.length);
      await expect(list.getByRole('article', { name: lucy.displayName })).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    }

    // "Show all" opens the section on its own page (/discover/{info}).
    const allAnswer = nextAnswer(page, '/papi/discover/search', { tab: 'hasBadge', limit: '30' });
    await page.getByRole('link', { name: 'Show all: Verified' }).click();
    await expect(page).toHaveURL('/discover/hasBadge');
    await expect(page.getByRole('heading', { level: 1, name: 'Verified' })).toBeVisible();
    const all = await profilesOf(allAnswer);
    expect(all.map((p) => p.username)).toContain('lucy.rivers');
    await expect(page.getByTestId('discover-users').getByRole('article')).toHaveCount(all.length);

    // Men among the verified creators: a filter the person set, and only that, is sent.
    await page.getByRole('button', { name: 'Filters' }).click();
    const form = page.getByRole('form', { name: 'Filter creators' });
    await form.getByLabel('Show').selectOption({ label: 'Men' });
    const searched = page.waitForRequest((r) => r.url().includes('/papi/discover/search') && r.url().includes('gender=2'));
    await form.getByRole('button', { name: 'Apply' }).click();
    const sent = new URL((await searched).url());
    expect(Object.fromEntries(sent.searchParams)).toEqual({ tab: 'hasBadge', gender: '2', limit: '30' });
    const men = await profilesOf((await searched).response().then((response) => response!));
    expect(men.every((p) => p.hasBadge)).toBe(true);
    await expect(page.getByTestId('discover-users').getByRole('article')).toHaveCount(men.length);
  });

  test('the quick search finds a seeded creator, Down moves into the results, and Enter opens the Discover search', async ({ page, request }) => {
    const lucy = await apiProfile(request, 'lucy.rivers');
    await page.setViewportSize(viewports.web);
    await page.goto('/discover');
    const box = page.getByRole('searchbox', { name: 'Search creators and hashtags' });
    await box.fill('lucy');
    const results = page.getByRole('list', { name: 'Search results' });
    const result = results.getByRole('link', { name: new RegExp(lucy.displayName) });
    await expect(result).toHaveAttribute('href', '/lucy.rivers');
    expect(await results.getByRole('listitem').count()).toBeLessThanOrEqual(8);
    await box.press('ArrowDown');
    await expect(results.getByRole('link').first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(box).toBeFocused();

    await box.press('Enter');
    await expect(page).toHaveURL('/discover?q=lucy');
    await expect(page.getByRole('banner')).toContainText('lucy');
    await expect(page.getByTestId('discover-users').getByRole('article', { name: lucy.displayName })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Escape empties the box.
    await box.fill('lucy');
    await box.press('Escape');
    await expect(box).toHaveValue('');
  });

  test('a hashtag from the search opens /search-hashtags/<tag> with its posts', async ({ page, request }) => {
    test.setTimeout(60_000);
    const posts = await apiList<PostList[number]>(request, '/papi/posts/hashtag/sunset');
    expect(posts.length).toBeGreaterThan(0);
    await page.setViewportSize(viewports.tablet);
    await page.goto('/discover?q=sunset');
    await page.getByRole('region', { name: 'Hashtags' }).getByRole('link', { name: /#sunset/ }).click();
    await expect(page).toHaveURL('/search-hashtags/sunset');
    await expect(page.getByRole('heading', { level: 1, name: '#sunset' })).toBeVisible();
    const first = posts[0]!;
    // The feed loads its page and then each post's card: on a busy machine that takes a while.
    await expect(page.locator('main').getByRole('article').filter({ hasText: first.text.slice(0, 30) }).first()).toBeVisible({ timeout: 20_000 });
    await expectNoSeriousA11yViolations(page);

    // The quick search's hashtags tab leads there too.
    await page.goto('/discover');
    const box = page.getByRole('searchbox', { name: 'Search creators and hashtags' });
    await box.fill('sunse');
    await page.getByRole('button', { name: 'Hashtags' }).click();
    await expect(page.getByRole('button', { name: 'Hashtags' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('list', { name: 'Search results' }).getByRole('link', { name: /#sunset/ }).click();
    await expect(page).toHaveURL('/search-hashtags/sunset');
  });

  test('a creator sees a new follower on the Notifications badge, and opening the screen lists it and clears the badge', async ({ browser }) => {
    test.setTimeout(120_000);
    const creatorContext = await browser.newContext({ viewport: viewports.web });
    const fanContext = await browser.newContext({ viewport: viewports.phone });
    const creator = await creatorContext.newPage();
    const fan = await fanContext.newPage();
    // A creator of the test's own: her notifications are hers alone, whatever runs beside.
    const own = await signUpCreator(creator.request, { name: 'Ava' });
    await logInCreator(creator, own);
    await signUpVerifiedFan(fan, 'notificationsfan');

    // The fan finds creators on /who-to-follow and follows one from her profile.
    await fan.goto('/who-to-follow');
    await expect(fan.getByRole('heading', { level: 1, name: 'Who to follow' })).toBeVisible();
    await expect(fan.getByTestId('who-to-follow').getByRole('article').first()).toBeVisible();
    await fan.goto(`/${own.username}`);
    await fan.getByTestId('profile-actions').getByRole('button', { pressed: false }).first().click();
    await expect(fan.getByTestId('profile-actions').getByRole('button', { pressed: true })).toBeVisible();

    await creator.goto('/discover');
    const tab = creator.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: /Notifications/ }).first();
    await expect(tab).toContainText(/\d+ unread notifications?/);
    await tab.click();
    await expect(creator).toHaveURL('/notifications');
    const today = creator.getByRole('region', { name: 'Today' });
    await expect(today.getByRole('link', { name: /started following you/ })).toBeVisible();
    // Opening the screen marked everything read: the badge is gone.
    await expect(creator.getByTestId('notifications-badge')).toHaveCount(0);
    await expectNoSeriousA11yViolations(creator);

    await creator.getByRole('tab', { name: 'Follows' }).click();
    await expect(creator.getByRole('link', { name: /started following you/ })).toBeVisible();
    await creator.getByRole('tab', { name: 'Replies' }).click();
    await expect(creator.getByText('No notifications here yet.')).toBeVisible();

    await creatorContext.close();
    await fanContext.close();
  });
});
