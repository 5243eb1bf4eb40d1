import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { agreeToTerms, expectNoSeriousA11yViolations, viewports } from './support';

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  template: string;
}

/** The newest outbox entry to `to` (a mail, or a sandbox SMS) that `matches`, read from the development outbox API. */
async function outboxEntry(request: APIRequestContext, to: string, matches: (mail: OutboxMail) => boolean): Promise<OutboxMail> {
  let found: OutboxMail | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/dev/mail.json?to=${encodeURIComponent(to)}`);
      const { mails } = (await response.json()) as { mails: OutboxMail[] };
      found = mails.find(matches);
      return found !== undefined;
    })
    .toBe(true);
  return found!;
}

/** The `preference` cookie's value as the browser holds it. */
async function preferenceCookie(page: Page): Promise<string | undefined> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'preference');
  return cookie === undefined ? undefined : decodeURIComponent(cookie.value);
}

test.describe('managing an account on the reference site', () => {
  test('a new member writes to support, changes cookie choices, verifies a phone, downloads the data, changes the password and deletes the account', async ({ page, request }) => {
    await page.setViewportSize(viewports.web);
    const run = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const email = `leaving${run}@example.com`;
    const password = 'first secret passphrase';
    const nextPassword = 'second secret passphrase';
    // A number of this run only, so the per-number SMS limit never carries over between runs.
    const phone = `+4206${run.slice(-8)}`;

    // A freshly signed-up member; the browser holds the session cookie from the login.
    await agreeToTerms(page);
    const signup = await page.request.post('/papi/signup', { data: { email, password } });
    expect(((await signup.json()) as { statusCode: number }).statusCode).toBe(1);
    const login = await page.request.post('/papi/login', { data: { email, password } });
    expect(((await login.json()) as { statusCode: number }).statusCode).toBe(2);

    // 1. The contact form reaches support's outbox.
    await page.goto('/contact');
    const contact = page.getByTestId('contact-page');
    await contact.getByLabel('Your name').fill('Leaving Member');
    await contact.getByLabel('Topic').selectOption({ label: 'Privacy and my data' });
    const subject = `Before I go ${run}`;
    await contact.getByLabel('Subject').fill(subject);
    await contact.getByLabel('Message').fill('Please tell me what you keep about me after I delete my account.');
    await contact.getByRole('button', { name: 'Send message' }).click();
    await expect(contact.getByText('Thank you, your message was sent.')).toBeVisible();
    // Looked for among the support address's mails: other journeys fill the outbox meanwhile.
    const supportAddress = ((await (await request.get('/papi/settings')).json()) as { body: { operator: { email: string } } }).body.operator.email;
    const support = await outboxEntry(request, supportAddress, (mail) => mail.template === 'contact' && mail.subject.includes(subject));
    expect(support.text).toContain('Please tell me what you keep about me');
    expect(support.text).toContain(email);

    // 2. Cookie preferences reopen from the footer, and the change outlives a reload.
    const footer = page.locator('footer');
    await footer.getByRole('button', { name: 'Cookie preferences' }).click();
    let preferences = page.getByRole('dialog', { name: 'Cookie preferences' });
    await expect(preferences).toBeVisible();
    await expect(preferences.getByRole('checkbox', { name: /Necessary/ })).toBeDisabled();
    await expect(preferences.getByRole('checkbox', { name: /Statistics/ })).not.toBeChecked();
    await preferences.getByRole('checkbox', { name: /Statistics/ }).check();
    await preferences.getByRole('checkbox', { name: /Marketing/ }).check();
    await preferences.getByRole('button', { name: 'Save my choice' }).click();
    await expect(preferences).toBeHidden();
    expect(await preferenceCookie(page)).toBe('preferences=1,statistics=1,marketing=1');
    await page.reload();
    await footer.getByRole('button', { name: 'Cookie preferences' }).click();
    preferences = page.getByRole('dialog', { name: 'Cookie preferences' });
    await expect(preferences.getByRole('checkbox', { name: /Statistics/ })).toBeChecked();
    await expect(preferences.getByRole('checkbox', { name: /Marketing/ })).toBeChecked();
    await preferences.getByRole('checkbox', { name: /Marketing/ }).uncheck();
    await preferences.getByRole('button', { name: 'Save my choice' }).click();
    await expect(preferences).toBeHidden();
    expect(await preferenceCookie(page)).toBe('preferences=1,statistics=1,marketing=0');

    // 3. Settings lead to Manage account.
    await page.goto('/settings');
    await page.getByRole('link', { name: 'Manage account' }).click();
    await expect(page).toHaveURL(/\/settings\/account$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Manage account' })).toBeVisible();
    await expect(page.getByTestId('account-email')).toContainText(email);
    await expectNoSeriousA11yViolations(page);

    // 4. The phone is proven with the sandbox SMS code; a wrong code is explained first.
    const phoneForm = page.getByRole('form', { name: 'Phone number' });
    await expect(page.getByTestId('account-phone')).toHaveText('Phone number not verified');
    await phoneForm.getByLabel('Phone number').fill('601 234');
    await phoneForm.getByRole('button', { name: 'Send code' }).click();
    await expect(phoneForm.getByText('Enter the number with its country code', { exact: false }).first()).toBeVisible();
    await phoneForm.getByLabel('Phone number').fill(`${phone.slice(0, 4)} ${phone.slice(4, 7)} ${phone.slice(7)}`);
    await phoneForm.getByRole('button', { name: 'Send code' }).click();
    await expect(phoneForm.getByText(`We sent a code to ${phone}.`)).toBeVisible();
    const sms = await outboxEntry(request, phone, (mail) => mail.template === 'sms');
    const code = /\b(\d{6})\b/.exec(sms.text)![1]!;
    await phoneForm.getByLabel('Code from the SMS').fill(code === '000000' ? '111111' : '000000');
    await phoneForm.getByRole('button', { name: 'Verify' }).click();
    await expect(phoneForm.getByRole('alert')).toHaveText('That code is not right. Check the SMS and try again.');
    await phoneForm.getByLabel('Code from the SMS').fill(code);
    await phoneForm.getByRole('button', { name: 'Verify' }).click();
    await expect(phoneForm.getByText('Your phone number is verified.')).toBeVisible();
    await expect(page.getByTestId('account-phone')).toHaveText('Phone number verified');

    // 5. My data downloads as a JSON file holding this account.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download my data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^fanstage-.+\.json$/);
    const data = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
      format: string;
      profile: { email: string; username: string; phoneVerified: boolean; phone: string };
      posts: unknown[];
      messagesSent: unknown[];
      transactions: unknown[];
    };
    expect(data.format).toBe('fanstage-account-export');
    expect(data.profile).toMatchObject({ email, phoneVerified: true, phone });
    expect(data.posts).toEqual([]);
    expect(data.messagesSent).toEqual([]);
    const username = data.profile.username;
    expect((await (await request.get(`/papi/users/${username}`)).json()).statusCode).toBe(2);

    // 6. The password changes with the current one.
    const passwordForm = page.getByRole('form', { name: 'Password' });
    await passwordForm.getByLabel('Current password').fill(password);
    await passwordForm.getByLabel('New password', { exact: true }).fill(nextPassword);
    await passwordForm.getByLabel('Repeat the new password').fill(nextPassword);
    await passwordForm.getByRole('button', { name: 'Change password' }).click();
    await expect(passwordForm.getByText('Your password was changed.', { exact: false })).toBeVisible();

    // 7. Deleting needs the survey's reason, then the account is gone and the page signed out.
    const deleteForm = page.getByRole('form', { name: 'Delete account' });
    await deleteForm.getByLabel('Current password').fill(nextPassword);
    await deleteForm.getByRole('button', { name: 'Delete my account' }).click();
    await expect(deleteForm.getByText('Please choose a reason.')).toBeVisible();
    await deleteForm.getByRole('radio', { name: 'Privacy concerns' }).check();
    await deleteForm.getByLabel('Anything else you want to tell us? (optional)').fill('Just cleaning up.');
    await deleteForm.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL(/\/$/);
    // The browser's session is over: its refresh cookie gets no new token.
    const refresh = (await (await page.request.get('/papi/login/refresh')).json()) as { statusCode: number };
    expect(refresh.statusCode).toBe(-1);

    const refused = await request.post('/papi/login', { data: { email, password: nextPassword } });
    expect(((await refused.json()) as { statusCode: number }).statusCode).toBe(-1);
    const gone = (await (await request.get(`/papi/users/${username}`)).json()) as { statusCode: number; statusText: string };
    expect(gone).toMatchObject({ statusCode: -1, statusText: 'user-not-found' });
  });
});
