import { expect, test } from '@playwright/test';
import { agreeToTerms, viewports } from './support';
import { logIn, signUpVerifiedFan, testPassword } from './postsSupport';
import { logInCreator, signUpCreator } from './creatorSupport';
import { accessToken, creditPackages, payOnCardPage, testCards } from './moneySupport';
import { formatMoney } from '../../lib/ui/shared/money';

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

test('a creator opening a chat with a fan is no profile visit; the fan opening her profile is one she is told of', async ({ page, browser }) => {
  const creator = await signUpCreator(page.request);
  const fanEmail = await signUpVerifiedFan(page, 'visited');
  const fanToken = await accessToken(page.request, fanEmail);
  const fan = (await (await page.request.get('/api/users/me', { headers: { authorization: `Bearer ${fanToken}` } })).json()) as { body: { id: number; username: string } };
  const visitsOf = async (token: string) => {
    const answer = await page.request.get('/api/2/notifications?types=profileVisit', { headers: { authorization: `Bearer ${token}` } });
    return ((await answer.json()) as { body: { notifications: { fromUser: { id: number } | null }[] } }).body.notifications.map((n) => n.fromUser?.id);
  };

  // She opens the chat with him: her page reads his profile, which is no visit.
  const herContext = await browser.newContext();
  try {
    const her = await herContext.newPage();
    await logInCreator(her, creator);
    const read = her.waitForResponse((r) => r.url().endsWith(`/api/users/${fan.body.username}`) && r.ok());
    await her.goto(`/chat/${fan.body.username}`);
    await read;
    await expect(her.getByRole('textbox', { name: 'Message' })).toBeVisible();
  } finally {
    await herContext.close();
  }
  // He opens her profile: a visit, told to her once the page's socket sends it.
  await page.goto(`/${creator.username}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(creator.displayName);
  await expect.poll(() => visitsOf(creator.token)).toEqual([fan.body.id]);
  expect(await visitsOf(fanToken)).toEqual([]);
});

test('a device logged out because the password was changed elsewhere says why', async ({ page }) => {
  await page.setViewportSize(viewports.phone);
  const email = await signUpVerifiedFan(page, 'pwchange');
  // The page's socket is open (its hello arrived) before the change, so the logout reaches it. The
  // frame is awaited from the socket's creation: by the time the page has loaded it may be in.
  const hello = page.waitForEvent('websocket', (ws) => ws.url().includes('/ws/')).then((ws) => ws.waitForEvent('framereceived'));
  await page.goto('/timeline');
  await hello;
  // The password is changed from another device (a login of its own).
  const token = await accessToken(page.request, email);
  const changed = await page.request.put('/api/users/me', { headers: { authorization: `Bearer ${token}` }, data: { currentPassword: testPassword, newPassword: 'another correct horse battery' } });
  expect(((await changed.json()) as { statusCode: number }).statusCode).toBeGreaterThan(0);
  const notice = page.getByTestId('session-ended');
  await expect(notice).toHaveText(/You were logged out: the password of this account was changed on another device\./);
  await expect(page).toHaveURL('/');
  await notice.getByRole('button', { name: 'Close' }).click();
  await expect(notice).toBeHidden();
});

test('the wallet history shows beside the credits bought what the card was charged', async ({ page }) => {
  await page.setViewportSize(viewports.phone);
  const email = await signUpVerifiedFan(page, 'wallet');
  const token = await accessToken(page.request, email);
  const pkg = (await creditPackages(page.request, token)).sort((a, b) => a.cValue - b.cValue)[0]!;
  await page.goto('/settings/wallet');
  const topUp = page.getByRole('region', { name: 'Buy credits' });
  await topUp.getByRole('radio', { name: new RegExp(`^${formatMoney(pkg.cValue).replace(/[.$]/g, '\\$&')} in credits`) }).check();
  await topUp.getByRole('radio', { name: 'A new card' }).check();
  await topUp.getByRole('button', { name: `Pay ${formatMoney(pkg.gValue)}` }).click();
  await payOnCardPage(page, testCards.pays, formatMoney(pkg.gValue));
  await expect(page.getByTestId('payment-outcome')).toHaveAttribute('data-outcome', 'paid');
  await page.goto('/settings/wallet');
  const line = page.getByRole('listitem').filter({ hasText: 'Credits bought' }).first();
  await expect(line).toContainText(`+${formatMoney(pkg.cValue)}`);
  await expect(line).toContainText(`${formatMoney(pkg.gValue)} charged to your card`);
});
