import { expect, test } from '@playwright/test';
import { agreeToTerms, apiCreators, viewports } from './support';

test.describe('signing in with an external account', () => {
  test('a visitor signs in through the sandbox provider from the login dialog and lands signed in where she started', async ({ page, context, request }) => {
    await page.setViewportSize(viewports.web);
    await agreeToTerms(page);
    const [creator] = await apiCreators(request, 1);
    expect(creator).toBeDefined();
    const start = `/${creator!.username}`;
    const username = `olga_${Date.now().toString(36)}`;

    await page.goto(start);
    await expect(page.getByRole('heading', { level: 1, name: creator!.displayName })).toBeVisible();
    // The page is interactive once its scripts settled (the prompt is a chunk of its own).
    await page.waitForLoadState('networkidle');
    const nav = page.getByTestId('side-nav');
    await nav.getByRole('group', { name: 'Your account' }).getByRole('button', { name: 'Log in' }).click();
    const prompt = page.getByRole('dialog');
    await expect(prompt).toBeVisible();
    await prompt.getByRole('link', { name: 'Continue with Sandbox' }).click();

    // The provider's consent page: a test identity, then Approve.
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in with the sandbox account' })).toBeVisible();
    await expect(page.getByLabel('Account id')).not.toHaveValue('');
    await page.getByLabel('Name').fill('Olga Oauth');
    await page.getByRole('button', { name: 'Approve' }).click();

    // New here: a username and the 18+ agreement, as at sign-up.
    await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible();
    await page.getByLabel('Username').fill(username);
    await page.getByRole('button', { name: 'Create the account' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please correct the marked fields.');
    await expect(page.getByRole('checkbox', { name: /18 or older/ })).toBeFocused();
    await page.getByRole('checkbox', { name: /18 or older/ }).check();
    await page.getByRole('button', { name: 'Create the account' }).click();

    // Back on the page she started from, signed in.
    await expect(page).toHaveURL(start);
    await expect(page.getByRole('heading', { level: 1, name: creator!.displayName })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', `/${username}`);
    const cookies = Object.fromEntries((await context.cookies()).map((cookie) => [cookie.name, cookie.value]));
    expect(cookies['fs_session']).toBe('1');
  });

  test('a visitor who denies at the provider is back where she started, with the login dialog saying so', async ({ page, request }) => {
    await page.setViewportSize(viewports.web);
    await agreeToTerms(page);
    const [creator] = await apiCreators(request, 1);
    const start = `/${creator!.username}`;

    await page.goto(start);
    await page.waitForLoadState('networkidle');
    await page.getByTestId('side-nav').getByRole('group', { name: 'Your account' }).getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Continue with Sandbox' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in with the sandbox account' })).toBeVisible();
    await page.getByRole('button', { name: 'Deny' }).click();

    const prompt = page.getByRole('dialog', { name: 'Log in or sign up to continue' });
    await expect(prompt).toBeVisible();
    await expect(prompt.getByRole('alert')).toHaveText('You did not allow the sign-in.');
    // The address is the page's own again, and nobody is signed in.
    await expect(page).toHaveURL(start);
    await expect(page.getByTestId('side-nav').getByRole('button', { name: 'Profile' })).toBeVisible();
  });
});
