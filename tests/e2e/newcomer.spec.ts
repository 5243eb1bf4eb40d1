import { expect, test } from '@playwright/test';
import { agreeToTerms, viewports } from './support';
import { logIn, signUpVerifiedFan } from './postsSupport';

/*
 * What a new user trips over in their first minutes (issue 20): each test is one defect as the
 * user met it, at the screen where it showed.
 */

test('one language for the account and the interface: Edit profile has one picker, and another device follows it', async ({ page, browser }) => {
  await page.setViewportSize(viewports.phone);
  const email = await signUpVerifiedFan(page, 'lang');
  await page.goto('/settings/edit-profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Edit profile' })).toBeVisible();
  // One Language select on the page: the footer's, which is the account's too.
  await expect(page.getByRole('combobox', { name: 'Language' })).toHaveCount(1);
  const saved = page.waitForResponse((response) => response.url().endsWith('/api/users/me') && response.request().method() === 'PUT');
  await page.getByRole('combobox', { name: 'Language' }).selectOption('cs');
  expect((await saved).ok()).toBe(true);
  await expect(page.locator('html')).toHaveAttribute('lang', 'cs');
  await expect(page.getByRole('heading', { level: 1, name: 'Upravit profil' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Jazyk' })).toHaveValue('cs');

  // A browser that never chose a language speaks the account's once signed in.
  const other = await browser.newContext({ locale: 'en-US' });
  try {
    const phone = await other.newPage();
    await agreeToTerms(phone);
    await logIn(phone, email);
    await phone.goto('/settings/edit-profile');
    await expect(phone.getByRole('heading', { level: 1, name: 'Upravit profil' })).toBeVisible();
    await expect(phone.locator('html')).toHaveAttribute('lang', 'cs');
  } finally {
    await other.close();
  }
});
