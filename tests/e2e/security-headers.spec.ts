import { expect, test, type Page } from '@playwright/test';
import { agreeToTerms } from './support';
import { logInDemoCreator } from './postsSupport';

/**
 * Every Content Security Policy refusal a page meets: the console's reports (which also name
 * frame-ancestors refusals) and the `securitypolicyviolation` events the document fires.
 */
function collectViolations(page: Page): string[] {
  const found: string[] = [];
  page.on('console', (message) => {
    if (/content security policy/i.test(message.text())) found.push(`${page.url()}: ${message.text()}`);
  });
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`Content Security Policy violation: ${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
  return found;
}

/** Goes to `url` and lets its lazy chunks, pictures and requests finish. */
async function visit(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForLoadState('networkidle');
}

test.describe('the platform under its Content Security Policy', () => {
  test('a visitor walking the main routes and the partner demo meets no refusal', async ({ page }) => {
    const violations = collectViolations(page);
    await agreeToTerms(page);
    for (const url of ['/', '/lucy.rivers', '/discover', '/who-to-follow', '/sign-up', '/search-hashtags/travel', '/404']) await visit(page, url);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    // A post opened from the profile: its pictures come from the platform's media.
    await visit(page, '/lucy.rivers');
    const firstPost = page.locator('a[href^="/post/"]').first();
    if ((await firstPost.count()) > 0) {
      await firstPost.click();
      await page.waitForLoadState('networkidle');
    }
    // The demo plays a partner page: its loader snippet (allowed by hash) brings the widgets,
    // whose styles live in their shadow roots.
    await visit(page, '/demo/');
    await expect(page.locator('fanstage-profile-card').first()).toBeVisible();
    await expect.poll(() => page.locator('fanstage-profile-card').first().evaluate((el) => el.shadowRoot?.querySelector('style') !== null)).toBe(true);
    await visit(page, '/demo/react.html');
    await visit(page, '/embed/login?origin=http%3A%2F%2Flocalhost%3A1');
    expect(violations).toEqual([]);
  });

  test('a signed-in creator walking her screens, the chat\'s websocket included, meets no refusal', async ({ page }) => {
    const violations = collectViolations(page);
    await logInDemoCreator(page, 'lucy.rivers');
    for (const url of ['/timeline', '/notifications', '/chat-list', '/chat/marek.novak', '/settings', '/settings/wallet', '/settings/earnings', '/settings/edit-profile', '/new-post']) {
      await visit(page, url);
    }
    await visit(page, '/chat/marek.novak');
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
    expect(violations).toEqual([]);
  });

  test('no other page can frame the site or the sign-in popup', async ({ page, baseURL }) => {
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (/frame-ancestors/.test(message.text())) refusals.push(message.text());
    });
    // A page of another origin (about:blank here) framing the platform.
    await page.setContent(`<iframe title="site" src="${baseURL}/lucy.rivers"></iframe><iframe title="popup" src="${baseURL}/embed/login"></iframe>`);
    await expect.poll(() => refusals.length).toBe(2);
    for (const frame of page.frames().slice(1)) expect(await frame.locator('#root').count()).toBe(0);
  });
});
