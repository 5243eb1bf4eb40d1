import { expect, test } from '@playwright/test';
import { agreeToTerms, apiProfile, expectNoSeriousA11yViolations, viewports } from './support';

/**
 * People search as people type it: a first name, a surname without its accents or with them, a
 * typo, capitals. Each finds the seeded creator in the quick search's results and, after Enter,
 * among the people on the results page, which keeps the query in the box.
 */
const searches = [
  { q: 'emma', username: 'emma.hart' },
  { q: 'kralova', username: 'tereza.kralova' },
  { q: 'Králová', username: 'tereza.kralova' },
  { q: 'lucy rivres', username: 'lucy.rivers' },
  { q: 'LUCY', username: 'lucy.rivers' },
];

test.describe('people search', () => {
  test.beforeEach(async ({ page }) => {
    await agreeToTerms(page);
  });

  for (const viewport of [viewports.phone, viewports.web]) {
    test(`finds creators by name, without accents and with a typo, in the quick search and on the results page at ${viewport.width} px`, async ({ page, request }) => {
      test.setTimeout(90_000);
      await page.setViewportSize(viewport);
      await page.goto('/discover');
      for (const { q, username } of searches) {
        const creator = await apiProfile(request, username);
        const box = page.getByRole('searchbox', { name: 'Search creators and hashtags' });
        await box.fill(q);
        const results = page.getByRole('list', { name: 'Search results' });
        await expect(results.getByRole('link', { name: new RegExp(creator.displayName) }), q).toHaveAttribute('href', `/${username}`);

        await box.press('Enter');
        await expect(page).toHaveURL(`/discover?q=${encodeURIComponent(q)}`);
        await expect(box, 'the results page keeps the query').toHaveValue(q);
        const sections = page.getByRole('navigation', { name: 'Discover sections' });
        await expect(sections.getByRole('link', { name: 'All results' })).toHaveAttribute('aria-current', 'page');
        const people = page.getByRole('region', { name: 'People' });
        await expect(people.getByTestId('discover-users').getByRole('article', { name: creator.displayName }), q).toBeVisible();
        // People come before hashtags and posts.
        const order = await page.locator('main section h2').allTextContents();
        expect(order[0]).toBe('People');
        if (q === 'kralova') await expectNoSeriousA11yViolations(page);
      }
    });
  }

  test('the tabs filter the same results: Verified keeps verified creators, New posts the posts', async ({ page, request }) => {
    const lucy = await apiProfile(request, 'lucy.rivers');
    await page.setViewportSize(viewports.tablet);
    await page.goto('/discover?q=lucy');
    const sections = page.getByRole('navigation', { name: 'Discover sections' });
    await expect(page.getByRole('region', { name: 'People' }).getByRole('article', { name: lucy.displayName })).toBeVisible();

    const verified = page.waitForResponse((r) => new URL(r.url()).pathname === '/papi/discover/search' && new URL(r.url()).searchParams.get('tab') === 'hasBadge');
    await sections.getByRole('link', { name: 'Verified' }).click();
    await expect(page).toHaveURL('/discover?q=lucy&tab=hasBadge');
    const shown = ((await (await verified).json()) as { body: { hasBadge: boolean; username: string }[] }).body;
    expect(shown.map((p) => p.username)).toContain('lucy.rivers');
    expect(shown.every((p) => p.hasBadge)).toBe(true);
    await expect(page.getByTestId('discover-users').getByRole('article')).toHaveCount(shown.length);
    await expect(page.getByRole('searchbox', { name: 'Search creators and hashtags' })).toHaveValue('lucy');

    await sections.getByRole('link', { name: 'New posts' }).click();
    await expect(page).toHaveURL('/discover?q=lucy&tab=newposts');
    await expect(page.getByRole('region', { name: 'Posts' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'People' })).toHaveCount(0);
  });
});
