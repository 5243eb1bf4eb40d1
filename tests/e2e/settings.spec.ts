import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { formatCount } from '../../lib/sdk';
import type { Account } from '../../lib/contract';
import { agreeToTerms, apiProfile, expectNoSeriousA11yViolations, viewports } from './support';
import { signUpCreator } from './creatorSupport';

interface Envelope<T> {
  statusCode: number;
  body: T;
}

/**
 * A verified account made through the API as a fan makes one (sign-up, the mailed link), then
 * logged in through `page.request`: the refresh cookie lands in the page's browser context, so
 * the site resumes the session on its next load exactly as after a login.
 */
async function signedUpAndLoggedIn(page: Page): Promise<Account> {
  const email = `settings${Date.now()}${Math.floor(Math.random() * 1000)}@example.com`;
  const password = 'correct horse battery staple';
  await agreeToTerms(page);
  const signup = await page.request.post('/papi/signup', { data: { email, password } });
  expect(((await signup.json()) as Envelope<unknown>).statusCode).toBe(1);

  let hash: string | undefined;
  await expect
    .poll(async () => {
      const response = await page.request.get(`/dev/mail.json?to=${encodeURIComponent(email)}`);
      const { mails } = (await response.json()) as { mails: { template: string; links: string[] }[] };
      const link = mails.flatMap((mail) => mail.links).map((href) => new URL(href).pathname).find((path) => path.startsWith('/action/'));
      hash = link?.slice('/action/'.length);
      return hash !== undefined;
    })
    .toBe(true);
  const verified = await page.request.post('/papi/action/jwt', { data: { hash } });
  expect(((await verified.json()) as Envelope<unknown>).statusCode).toBe(2);

  const login = await page.request.post('/papi/login', { data: { email, password } });
  const { accessToken } = ((await login.json()) as Envelope<{ accessToken: string }>).body;
  const me = await page.request.get('/api/users/me', { headers: { Authorization: `Bearer ${accessToken}` } });
  return ((await me.json()) as Envelope<Account>).body;
}

async function followersShown(page: Page): Promise<string | null> {
  return page.locator('[data-stat="followers"]').textContent();
}

/** The profile's followers stat as the English resources word it (`followers_one`, `followers_other`). */
function followersText(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'follower' : 'followers'}`;
}

test.describe('settings and relations on the reference site', () => {
  test('a user edits the profile and sees it on their profile page', async ({ page }) => {
    await page.setViewportSize(viewports.web);
    const account = await signedUpAndLoggedIn(page);

    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(page.getByTestId('settings-email')).toContainText(account.email);
    await expect(page.getByTestId('settings-email')).toContainText('Verified');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('link', { name: 'Edit profile' }).click();
    await expect(page).toHaveURL('/settings/edit-profile');
    await expect(page.getByRole('banner')).toContainText('Edit profile');
    const name = page.getByLabel('Display name');
    await expect(name).toHaveValue(account.displayName);
    await name.fill('Settings Tester');
    await page.getByLabel('About you').fill('I test the settings.');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByText('Your profile is saved.')).toBeVisible();

    await page.goto(`/${account.username}`);
    const card = page.getByRole('article', { name: 'Settings Tester' });
    await expect(card.getByRole('heading', { level: 1, name: 'Settings Tester' })).toBeVisible();
    await expect(card).toContainText('I test the settings.');
    // The own profile has no follow button and no relation menu.
    await expect(page.getByTestId('profile-actions')).toHaveCount(0);
  });

  test('a user uploads an avatar that then loads in all its sizes', async ({ page }) => {
    await page.setViewportSize(viewports.phone);
    const account = await signedUpAndLoggedIn(page);
    const picture = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 30, g: 120, b: 200 } } }).png().toBuffer();

    await page.goto('/settings/upload-avatar');
    await expect(page.getByRole('heading', { level: 1, name: 'Profile picture' })).toBeVisible();
    await page.getByLabel('Choose a picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: picture });
    const preview = page.getByRole('img', { name: 'Preview of your new profile picture' });
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(640);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Your new profile picture is saved.')).toBeVisible();
    const current = page.getByRole('img', { name: 'Your current profile picture' });
    await expect(current).toHaveAttribute('src', /\.webp\?t=500$/);

    const mediaHash = (await apiProfile(page.request, account.username)).avatarMedia?.mediaHash;
    expect(mediaHash).toBeTruthy();
    await page.goto(`/${account.username}`);
    const avatar = page.getByRole('img', { name: `${account.displayName}'s avatar` });
    await expect(avatar).toHaveAttribute('src', new RegExp(`${mediaHash}\\.webp\\?t=120$`));
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(120);
    const src = (await avatar.getAttribute('src'))!;
    for (const size of [60, 120, 500]) {
      const response = await page.request.get(src.replace(/t=120$/, `t=${size}`));
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toBe('image/webp');
      expect((await sharp(await response.body()).metadata()).width).toBe(size);
    }
  });

  test('a user follows, unfollows after confirming, blocks and unblocks a creator', async ({ page, request }) => {
    await page.setViewportSize(viewports.tablet);
    // A creator of the test's own: the follower count it checks is hers alone to change.
    const creator = await signUpCreator(request, { name: 'Hana' });
    await signedUpAndLoggedIn(page);
    const before = (await apiProfile(page.request, creator.username)).followersCount;
    expect(before).toBe(0);

    await page.goto(`/${creator.username}`);
    const actions = page.getByTestId('profile-actions');
    const follow = actions.getByRole('button', { name: /^Follow / });
    await expect(follow).toHaveAttribute('aria-pressed', 'false');
    expect(await followersShown(page)).toBe(followersText(before));
    await follow.click();
    const following = actions.getByRole('button', { pressed: true });
    await expect(following).toContainText('Now following');
    await expect.poll(() => followersShown(page)).toBe(followersText(before + 1));
    await expectNoSeriousA11yViolations(page);

    await page.reload();
    await expect(following).toContainText('Following');
    await expect(following).not.toContainText('Now');
    await expect.poll(() => followersShown(page)).toBe(followersText(before + 1));
    expect((await apiProfile(page.request, creator.username)).followersCount).toBe(before + 1);

    // Unfollowing asks first; Cancel keeps the follow.
    await following.click();
    const confirm = page.getByRole('dialog', { name: /^Unfollow / });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(following).toHaveAttribute('aria-pressed', 'true');
    await following.click();
    await confirm.getByRole('button', { name: 'Unfollow' }).click();
    await expect(actions.getByRole('button', { name: /^Follow / })).toHaveAttribute('aria-pressed', 'false');
    await expect.poll(() => followersShown(page)).toBe(followersText(before));

    // Blocking asks too, and ends the follow.
    await actions.getByRole('button', { name: /^Follow / }).click();
    await expect(following).toContainText('Now following');
    await actions.getByRole('button', { name: 'More actions' }).click();
    await actions.getByRole('button', { name: 'Block', exact: true }).click();
    const blockConfirm = page.getByRole('dialog', { name: /^Block / });
    await expect(blockConfirm).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await blockConfirm.getByRole('button', { name: 'Block', exact: true }).click();
    await expect(blockConfirm).toBeHidden();
    await expect(actions.getByRole('button', { name: /^Follow|^Following|^Now following/ })).toHaveCount(0);
    expect((await apiProfile(page.request, creator.username)).followersCount).toBe(before);

    await page.reload();
    await actions.getByRole('button', { name: 'More actions' }).click();
    await actions.getByRole('button', { name: 'Unblock', exact: true }).click();
    await expect(actions.getByRole('button', { name: /^Follow / })).toHaveAttribute('aria-pressed', 'false');
    await actions.getByRole('button', { name: 'More actions' }).click();
    await expect(actions.getByRole('button', { name: 'Block', exact: true })).toBeVisible();
  });

  test('a visitor who clicks Follow is asked to log in', async ({ page }) => {
    await agreeToTerms(page);
    await page.goto('/lucy.rivers');
    await page.getByTestId('profile-actions').getByRole('button', { name: /^Follow / }).click();
    await expect(page.getByRole('dialog', { name: 'Log in or sign up to continue' })).toBeVisible();
  });

  test('a visitor opening /settings/edit-profile lands on the public page', async ({ page }) => {
    await agreeToTerms(page);
    await page.goto('/settings/edit-profile');
    await expect(page).toHaveURL('/');
  });
});
