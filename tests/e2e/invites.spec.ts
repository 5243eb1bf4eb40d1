import { expect, test, type APIRequestContext } from '@playwright/test';
import { formatMoney } from '../../lib/ui/shared/money';
import { agreeToTerms, apiProfile, expectNoSeriousA11yViolations, viewports } from './support';
import { signUpVerifiedFan, testPassword } from './postsSupport';
import { accessToken, creditPackages, giftCatalogue, payOnCardPage, testCards } from './moneySupport';
import { logInCreator, signUpCreator } from './creatorSupport';

interface Envelope<T> {
  statusCode: number;
  body: T;
}

interface Invite {
  code: string;
  link: string;
  invitedBy: { username: string; displayName: string } | null;
}

/**
 * An access token of a demo account: the test password the run's global setup gives the seeded
 * creators (globalSetup.ts), or its demo password. No reset mail is asked for here: the server
 * allows only a few an hour per account.
 */
async function demoToken(request: APIRequestContext, email: string): Promise<string> {
  for (const password of [testPassword, 'fanstage-demo']) {
    const login = (await (await request.post('/papi/login', { data: { email, password, tokenInBody: true } })).json()) as Envelope<{ accessToken: string }> & { statusText?: string };
    if (login.statusCode === 2) return login.body.accessToken;
    expect(login.statusText).toBe('invalid-credentials');
  }
  throw new Error(`${email} takes neither the demo nor the test password`);
}

async function inviteOf(request: APIRequestContext, token: string): Promise<Invite> {
  const answer = (await (await request.get('/api/users/invite', { headers: { authorization: `Bearer ${token}` } })).json()) as Envelope<Invite>;
  expect(answer.statusCode).toBe(2);
  return answer.body;
}

test.describe('invite links', () => {
  test('a visitor who opens an invite link is invited by name, and the account they sign up is the inviter’s invited one', async ({ page, request }) => {
    const lucy = await inviteOf(request, await demoToken(request, 'lucy.rivers@example.com'));
    expect(lucy.code).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);

    await page.setViewportSize(viewports.phone);
    await agreeToTerms(page);
    // Any case of the code works, and a shared link's utm code and a processor choice travel along.
    await page.goto(`/?aff=${lucy.code.toLowerCase()}&utm=1t2w&pgw=sandbox`);
    const prompt = page.getByTestId('invitation-prompt');
    await expect(prompt.getByRole('heading', { name: 'Lucy Rivers invites you to Fanstage' })).toBeVisible();
    await expect(prompt.getByText('@lucy.rivers')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The code waits in the affcode cookie for 31 days.
    const cookie = (await page.context().cookies()).find((c) => c.name === 'affcode');
    expect(cookie?.value).toBe(lucy.code);
    const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(30.9);
    expect(days).toBeLessThanOrEqual(31);

    // On /: utm became utm_medium and utm_campaign (utm_source left once the page loaded), pgw stays.
    await expect.poll(() => new URL(page.url()).searchParams.has('utm_source')).toBe(false);
    const query = new URL(page.url()).searchParams;
    expect([query.get('utm'), query.get('utm_medium'), query.get('utm_campaign'), query.get('pgw')]).toEqual([null, 'share', 'post', 'sandbox']);

    await prompt.getByRole('button', { name: 'Sign up' }).click();
    await expect(page).toHaveURL(/\/sign-up$/);
    await expect(prompt).toBeHidden();
    await expect(page.getByTestId('sign-up-invited-by')).toHaveText('Invited by Lucy Rivers');
    const email = `invited.${Date.now()}@example.com`;
    const password = 'an invited passphrase';
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('checkbox', { name: /18 or older/ }).check();
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Fanstage!' })).toBeVisible();

    // The server made the relation: the new account was invited by Lucy, and has its own link.
    const login = (await (await request.post('/papi/login', { data: { email, password, tokenInBody: true } })).json()) as Envelope<{ accessToken: string }>;
    const mine = await inviteOf(request, login.body.accessToken);
    expect(mine.invitedBy).toMatchObject({ username: 'lucy.rivers', displayName: 'Lucy Rivers' });
    expect(mine.code).not.toBe(lucy.code);

    await page.goto('/settings');
    const invite = page.getByTestId('settings-invite');
    await expect(invite.getByLabel('Your invite link')).toHaveValue(mine.link);
    await expect(invite.getByTestId('invited-by')).toHaveText('You joined through Lucy Rivers\'s invitation.');
  });

  test('an unknown code shows nothing and leaves no cookie; a member is never asked', async ({ page, request }) => {
    await agreeToTerms(page);
    await page.goto('/?aff=ZZZZZZZZ');
    await expect(page.getByTestId('creator-grid')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('invitation-prompt')).toBeHidden();
    expect((await page.context().cookies()).find((c) => c.name === 'affcode')).toBeUndefined();

    const lucy = await inviteOf(request, await demoToken(request, 'lucy.rivers@example.com'));
    const member = { email: `member.${Date.now()}@example.com`, password: 'a member passphrase' };
    expect(((await (await page.request.post('/papi/signup', { data: member })).json()) as Envelope<unknown>).statusCode).toBe(1);
    expect((await page.request.post('/papi/login', { data: member })).ok()).toBe(true);
    await page.goto(`/?aff=${lucy.code}`);
    await expect(page).toHaveURL(/\/timeline\?aff=/);
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('invitation-prompt')).toBeHidden();
  });

  test('the model program and the FAQ are pages of their own, in English and Czech, at every width', async ({ page }) => {
    await agreeToTerms(page);
    await page.setViewportSize(viewports.phone);
    await page.goto('/discover');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByTestId('hamburger-menu').getByRole('link', { name: 'Model program' }).first().click();
    await expect(page).toHaveURL(/\/tour-partners$/);
    for (const viewport of Object.values(viewports)) {
      await page.setViewportSize(viewport);
      await page.goto('/tour-partners');
      await expect(page.getByRole('heading', { level: 1, name: 'Earn with your fans on Fanstage' })).toBeVisible();
      await expect(page.getByText('Payouts go to PayPal or a card, from $20.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Sign up to start' }).first()).toHaveAttribute('href', '/sign-up');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      await page.goto('/tour-faq');
      const question = page.getByText('How do invites work?');
      await question.click();
      await expect(page.getByText(/earn 10 % of the platform's fee/)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    }
    await expectNoSeriousA11yViolations(page);
    await page.request.post('/papi/users/cookie', { data: { name: 'cookielang', value: 'cs' } });
    await page.goto('/tour-partners');
    await expect(page.getByRole('heading', { level: 1, name: 'Vydělávejte se svými fanoušky na Fanstage' })).toBeVisible();
    await page.goto('/tour-faq');
    await expect(page.getByRole('heading', { level: 1, name: 'Časté dotazy' })).toBeVisible();
  });

  test('without the model program its page leads to / and the menus leave it out', async ({ page }) => {
    await agreeToTerms(page);
    // The settings as a server with MODEL_PROGRAM=false answers them.
    await page.route('**/papi/settings', async (route) => {
      const answer = (await (await route.fetch()).json()) as Envelope<Record<string, unknown>>;
      await route.fulfill({ json: { ...answer, body: { ...answer.body, modelProgram: false } } });
    });
    await page.setViewportSize(viewports.phone);
    await page.goto('/tour-partners');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('creator-grid')).toBeVisible();
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByTestId('hamburger-menu');
    await expect(menu.getByRole('link', { name: 'FAQ' }).first()).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Model program' })).toHaveCount(0);
  });

  test('the inviter’s share of what the invited fan spends shows in the inviter’s earnings', async ({ browser, request }) => {
    // The inviter is a creator of the test's own: her earnings are hers alone, whatever runs beside.
    const inviter = await signUpCreator(request, { name: 'Vera' });
    const inviteCode = (await inviteOf(request, inviter.token)).code;
    const fanContext = await browser.newContext();
    const fan = await fanContext.newPage();
    await agreeToTerms(fan);
    await fan.goto(`/?aff=${inviteCode}`);
    await expect(fan.getByTestId('invitation-prompt')).toBeVisible();
    const email = await signUpVerifiedFan(fan, 'invitedfan');
    const token = await accessToken(request, email);
    const me = (await (await request.get('/api/users/me', { headers: { authorization: `Bearer ${token}` } })).json()) as Envelope<{ displayName: string }>;

    // The fan buys the first package with the test card, then tips another creator.
    const pkg = (await creditPackages(request, token))[0]!;
    await fan.goto('/settings/wallet');
    const topUp = fan.getByRole('region', { name: 'Buy credits' });
    await topUp.getByRole('radio', { name: 'A new card' }).check();
    await topUp.getByRole('button', { name: `Pay ${formatMoney(pkg.gValue)}` }).click();
    await payOnCardPage(fan, testCards.pays, formatMoney(pkg.gValue));
    await expect(fan.getByTestId('payment-outcome')).toHaveAttribute('data-outcome', 'paid');
    const gift = (await giftCatalogue(request)).filter((g) => g.gValue <= pkg.cValue && g.gValue - g.cValue >= 10).sort((a, b) => a.gValue - b.gValue)[0]!;
    const marek = await apiProfile(request, 'marek.novak');
    const tip = (await (await request.post('/api/users/tip', { headers: { authorization: `Bearer ${token}` }, data: { userId: marek.id, giftId: gift.id } })).json()) as Envelope<unknown>;
    expect(tip.statusCode).toBe(2);
    await fanContext.close();

    // Her earnings list the share, named after the fan who spent.
    const earnings = await browser.newPage();
    await logInCreator(earnings, inviter);
    await earnings.goto('/settings/earnings');
    await expect(earnings.getByTestId('earnings-lines').getByText(`Affiliate share · ${me.body.displayName}`)).toBeVisible();
    await earnings.close();
  });
});
