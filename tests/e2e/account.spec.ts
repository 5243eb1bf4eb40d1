import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { TERMS_VERSION } from '../../lib/contract';
import { agreeToTerms, expectNoSeriousA11yViolations, viewports } from './support';

interface OutboxMail {
  to: string;
  template: string;
  links: string[];
}

/** The newest mail of a template to an address, from the development outbox (docs/auth.md). */
async function newestMail(request: APIRequestContext, to: string, template: string): Promise<OutboxMail> {
  let found: OutboxMail | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/dev/mail.json?to=${encodeURIComponent(to)}`);
      const { mails } = (await response.json()) as { mails: OutboxMail[] };
      found = mails.find((mail) => mail.template === template);
      return found !== undefined;
    })
    .toBe(true);
  return found!;
}

/** The site path of the mail's link that starts with `prefix` (`/action/`, `/reset-password/`). */
function linkPath(mail: OutboxMail, prefix: string): string {
  const link = mail.links.map((href) => new URL(href)).find((url) => url.pathname.startsWith(prefix));
  expect(link, `a ${prefix} link in ${JSON.stringify(mail.links)}`).toBeDefined();
  return link!.pathname;
}

/** E-mails are unique per run and test: the server's data folder is fresh per run anyway. */
function uniqueEmail(label: string): string {
  return `${label}${Date.now()}${Math.floor(Math.random() * 1000)}@example.com`;
}

async function loginThroughPrompt(page: Page, email: string, password: string): Promise<void> {
  const prompt = page.getByRole('dialog', { name: 'Log in or sign up to continue' });
  await expect(prompt).toBeVisible();
  await expect(prompt.getByLabel('E-mail')).toBeFocused();
  await prompt.getByLabel('E-mail').fill(email);
  await prompt.getByLabel('Password', { exact: true }).fill(password);
  await prompt.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(prompt).toBeHidden();
}

test.describe('accounts on the reference site', () => {
  test('a visitor agrees, signs up, verifies the e-mail, logs out and in, switches language and logs out', async ({ page, context, request }) => {
    await page.setViewportSize(viewports.web);
    const email = uniqueEmail('fan');
    const password = 'correct horse battery staple';
    // A visitor's pages never ask for a refresh they cannot get (nor log its 401 as an error).
    const refreshes: string[] = [];
    const consoleErrors: string[] = [];
    page.on('request', (sent) => {
      if (new URL(sent.url()).pathname === '/papi/login/refresh') refreshes.push(sent.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    const marker = async () => (await context.cookies()).find((cookie) => cookie.name === 'fs_session')?.value;

    // The page is blurred and inert behind the age-and-terms agreement.
    await page.goto('/');
    const gate = page.getByRole('dialog', { name: 'Are you 18 or older?' });
    await expect(gate).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(refreshes).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await expect(gate.getByRole('button', { name: 'I am 18+ and agree to all' })).toBeFocused();
    // Blurred by the gate's backdrop, the size of the screen.
    const blur = await gate.evaluate((dialog) => getComputedStyle(dialog, '::backdrop').backdropFilter);
    expect(blur).toContain('blur');
    expect(await page.getByTestId('side-nav').evaluate((nav) => getComputedStyle(nav.parentElement!).userSelect)).toBe('none');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect(gate).toBeVisible();

    await gate.getByRole('button', { name: 'Show advanced cookie settings' }).click();
    await expect(gate.getByRole('checkbox', { name: /Necessary/ })).toBeChecked();
    await expect(gate.getByRole('checkbox', { name: /Necessary/ })).toBeDisabled();
    // Consent is opted into: only the preferences start ticked.
    await expect(gate.getByRole('checkbox', { name: /Preferences/ })).toBeChecked();
    await expect(gate.getByRole('checkbox', { name: /Statistics/ })).not.toBeChecked();
    await expect(gate.getByRole('checkbox', { name: /Marketing/ })).not.toBeChecked();
    await gate.getByRole('checkbox', { name: /Statistics/ }).check();
    await gate.getByRole('button', { name: 'I am 18+, agree and save my choice' }).click();
    await expect(gate).toBeHidden();
    const cookies = Object.fromEntries((await context.cookies()).map((cookie) => [cookie.name, cookie.value]));
    expect(cookies['accept_18']).toBe(TERMS_VERSION);
    expect(decodeURIComponent(cookies['preference'] ?? '')).toBe('preferences=1,statistics=1,marketing=0');
    await page.reload();
    await expect(page.getByTestId('creator-grid')).toBeVisible();
    await expect(gate).toBeHidden();

    // Sign-up logs in at once and asks for the verification.
    await page.goto('/sign-up');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('checkbox', { name: /18 or older/ }).check();
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Fanstage!' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Verify your e-mail' })).toBeVisible();
    const nav = page.getByTestId('side-nav');
    const profileTab = nav.getByRole('link', { name: 'Profile' });
    await expect(profileTab).toHaveAttribute('href', /^\/fan\d+$/);

    // The link of the verification mail confirms the address.
    const verification = await newestMail(request, email, 'verify-email');
    await page.goto(linkPath(verification, '/action/'));
    await expect(page.getByText('Your e-mail address is verified. Thank you!')).toBeVisible();
    await page.goto('/sign-up');
    await expect(page.getByRole('heading', { level: 1, name: 'You are logged in' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Verify your e-mail' })).toBeHidden();
    // Used once, the link is spent.
    await page.goto(linkPath(verification, '/action/'));
    await expect(page.getByRole('alert')).toHaveText('This link has expired or has already been used.');

    // Logging out asks first, then the page starts afresh as a visitor's.
    await nav.getByRole('button', { name: 'Log out' }).click();
    const confirm = page.getByRole('dialog', { name: 'Do you really want to log out?' });
    await confirm.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL('/');
    await expect(nav.getByRole('button', { name: 'Profile' })).toBeVisible();

    // Logging in through the prompt; the tabs lead on afterwards.
    await nav.getByRole('button', { name: 'Profile' }).click();
    await loginThroughPrompt(page, email, password);
    await expect(profileTab).toHaveAttribute('href', /^\/fan\d+$/);

    // Czech is saved with the account as well, and a reload keeps the session (refresh cookie).
    const saved = page.waitForResponse((response) => response.url().endsWith('/api/users/me') && response.request().method() === 'PUT');
    await page.getByRole('combobox', { name: 'Language' }).selectOption('cs');
    expect((await saved).ok()).toBe(true);
    await page.reload();
    await expect(nav.getByRole('link', { name: 'Profil' })).toHaveAttribute('href', /^\/fan\d+$/);
    expect(await marker()).toBe('1');
    // A browser that signed in before the session marker existed holds the refresh cookie
    // alone: it stays signed in, and its refresh brings the marker.
    await context.clearCookies({ name: 'fs_session' });
    await page.reload();
    await expect(nav.getByRole('link', { name: 'Profil' })).toHaveAttribute('href', /^\/fan\d+$/);
    expect(await marker()).toBe('1');

    // Logging out in Czech: staying is possible, confirming ends the session for good.
    await nav.getByRole('button', { name: 'Odhlásit se' }).click();
    const confirmCs = page.getByRole('dialog', { name: 'Opravdu se chcete odhlásit?' });
    await confirmCs.getByRole('button', { name: 'Zůstat přihlášen' }).click();
    await expect(confirmCs).toBeHidden();
    await expect(nav.getByRole('button', { name: 'Odhlásit se' })).toBeFocused();
    await nav.getByRole('button', { name: 'Odhlásit se' }).click();
    await confirmCs.getByRole('button', { name: 'Odhlásit se' }).click();
    await expect(page).toHaveURL('/');
    // Logging out loads the public page afresh; reloading before that load ends would cut it off.
    await page.waitForLoadState('load');
    await expect(nav.getByRole('button', { name: 'Profil' })).toBeVisible();
    expect(await marker()).toBe('0');
    const refreshesBefore = refreshes.length;
    const errorsBefore = consoleErrors.length;
    await page.reload();
    await expect(nav.getByRole('button', { name: 'Profil' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    // Signed out, the visitor's page is quiet again.
    expect(refreshes.slice(refreshesBefore)).toEqual([]);
    expect(consoleErrors.slice(errorsBefore)).toEqual([]);
  });

  test('a reset mail sets a new password that then logs in', async ({ page, request }) => {
    await agreeToTerms(page);
    await page.setViewportSize(viewports.phone);
    const email = uniqueEmail('reset');
    const signup = await request.post('/papi/signup', { data: { email, password: 'the first password' } });
    expect(((await signup.json()) as { statusCode: number }).statusCode).toBe(1);

    await page.goto('/sign-up/forgotpassword');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect(page.getByText(/Check your inbox/)).toBeVisible();

    const mail = await newestMail(request, email, 'reset-password');
    await page.goto(linkPath(mail, '/reset-password/'));
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Save the password' }).click();
    await expect(page.getByText('Your new password is saved. You can log in with it now.')).toBeVisible();

    await page.getByRole('button', { name: 'Log in with the new password' }).click();
    await loginThroughPrompt(page, email, 'a brand new passphrase');
    await expect(page.getByTestId('bottom-nav').getByRole('link', { name: 'Profile' })).toHaveAttribute('href', /^\/reset\d+$/);

    const old = await request.post('/papi/login', { data: { email, password: 'the first password' } });
    expect(old.status()).toBe(401);
  });

  test('a fan who agreed to older terms is asked again: declining leads to managing the account, agreeing stamps the new version', async ({ page, context, baseURL }) => {
    await page.setViewportSize(viewports.web);
    const email = uniqueEmail('terms');
    const password = 'correct horse battery staple';
    expect((await (await page.request.post('/papi/signup', { data: { email, password } })).json()).statusCode).toBe(1);
    expect((await (await page.request.post('/papi/login', { data: { email, password } })).json()).statusCode).toBe(2);
    await context.addCookies([{ name: 'accept_18', value: '20200101', url: baseURL! }]);

    await page.goto('/');
    const question = page.getByRole('dialog', { name: 'Our terms have changed' });
    await expect(question).toBeVisible();
    // No first-visit gate and no blur for a known adult.
    await expect(page.getByTestId('age-gate')).toHaveCount(0);
    await question.getByRole('button', { name: 'Not now, go to settings' }).click();
    // SPEC §2: declining goes to Settings > ManageAccount, where the account can be closed.
    await expect(page).toHaveURL('/settings/account');
    await expect(question).toBeHidden();

    await page.reload();
    await expect(question).toBeVisible();
    await question.getByRole('button', { name: 'Agree to the new terms' }).click();
    await expect(question).toBeHidden();
    const consent = (await context.cookies()).find((cookie) => cookie.name === 'accept_18');
    expect(consent?.value).toBe(TERMS_VERSION);
    await page.reload();
    await expect(question).toBeHidden();
  });

  test('a visitor opening a login-only route lands on the public page', async ({ page }) => {
    await agreeToTerms(page);
    await page.goto('/notifications');
    await expect(page).toHaveURL('/');
    await expect(page.getByTestId('creator-grid')).toBeVisible();
  });

  test('the account screens pass an automated accessibility check', async ({ page }) => {
    await agreeToTerms(page);
    for (const path of ['/sign-up', '/sign-up/forgotpassword', '/reset-password/not-a-real-link']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    }
  });
});
