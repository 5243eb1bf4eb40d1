import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { agreeToTerms, expectNoSeriousA11yViolations, viewports } from './support';

interface Envelope<T> {
  statusCode: number;
  body: T;
}

/** The seeded administrator (docs/development.md). */
const admin = { email: 'fanstage.admin@example.com', password: 'fanstage-demo' };

/** The path of the newest mailed `/action/` link to `to`, from the development outbox. */
async function actionLink(request: APIRequestContext, to: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/dev/mail.json?to=${encodeURIComponent(to)}`);
      const { mails } = (await response.json()) as { mails: { template: string; links: string[] }[] };
      found = mails
        .filter((mail) => mail.template === 'verify-email')
        .flatMap((mail) => mail.links)
        .map((href) => new URL(href).pathname)
        .find((path) => path.startsWith('/action/'));
      return found !== undefined;
    })
    .toBe(true);
  return found!;
}

function picture(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 900, height: 600, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
}

/** The account as the API answers it, with a token of a login of its own. */
async function meOf(page: Page, email: string, password: string): Promise<{ id: number; username: string; approvedState: number; isSeller: boolean; messagePrice: number }> {
  const login = await page.request.post('/papi/login', { data: { email, password } });
  const { accessToken } = ((await login.json()) as Envelope<{ accessToken: string }>).body;
  const me = await page.request.get('/api/users/me', { headers: { Authorization: `Bearer ${accessToken}` } });
  return ((await me.json()) as Envelope<{ id: number; username: string; approvedState: number; isSeller: boolean; messagePrice: number }>).body;
}

test('a new account applies as a partner, passes the identity check, is approved by an administrator and sets a message price', async ({ browser }) => {
  test.setTimeout(120_000);
  const applicantContext = await browser.newContext({ viewport: viewports.web });
  const adminContext = await browser.newContext({ viewport: viewports.web });
  const page = await applicantContext.newPage();
  const moderator = await adminContext.newPage();

  // Sign up on the site and verify the e-mail with the mailed link.
  const email = `partner${Date.now()}${Math.floor(Math.random() * 1000)}@example.com`;
  const password = 'correct horse battery staple';
  await agreeToTerms(page);
  await page.goto('/sign-up');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('checkbox', { name: /18 or older/ }).check();
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Verify your e-mail' })).toBeVisible();
  await page.goto(await actionLink(page.request, email));
  await expect(page.getByText('Your e-mail address is verified. Thank you!')).toBeVisible();
  const { username } = await meOf(page, email, password);

  // A fan has no administration: the address is as unknown as any other.
  await page.goto('/admin');
  await expect(page.getByTestId('not-found')).toBeVisible();

  // The partner form: the browser checks it first, then it is saved and the registration finished.
  await page.goto('/partner-registration');
  await expect(page.getByRole('heading', { level: 1, name: 'Partner registration' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Your details' });
  await form.getByLabel('Full name or company name').fill('Jana Nováková');
  await form.getByLabel('Street and number').fill('Dlouhá 12');
  await form.getByLabel('Postal code').fill('110 00');
  await form.getByLabel('Country').fill('CZ');
  await form.getByLabel('IBAN').fill('CZ65 0800 0000 1920 0014 5390');
  await form.getByRole('button', { name: 'Save and continue' }).click();
  await expect(form.getByLabel('IBAN')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('Enter a valid IBAN.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await form.getByLabel('IBAN').fill('CZ65 0800 0000 1920 0014 5399');
  await form.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page.getByRole('heading', { name: 'Verify your identity' })).toBeVisible();
  expect((await meOf(page, email, password)).approvedState).toBe(101);

  // The identity provider's page (the sandbox), left for in the same tab, and back.
  await page.getByRole('button', { name: 'Start the identity check' }).click();
  await expect(page).toHaveURL(/\/papi\/identity\/sandbox\/check\//);
  await page.getByLabel('Front of the ID').setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: await picture('#3366aa') });
  await page.getByLabel('Back of the ID').setInputFiles({ name: 'back.jpg', mimeType: 'image/jpeg', buffer: await picture('#884422') });
  await page.getByLabel('Selfie').setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: await picture('#228844') });
  await page.getByLabel('Document number').fill('100000001');
  await page.getByRole('button', { name: 'Send for verification' }).click();
  await expect(page).toHaveURL(/\/verify-request\?check=/);
  await expect(page.getByText('Your identity is verified. Our team will now approve your application.')).toBeVisible();
  await page.getByRole('link', { name: 'Back to the partner registration' }).click();
  await expect(page.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible();

  // The administrator's queue: the documents, then approval.
  await agreeToTerms(moderator);
  const login = await moderator.request.post('/papi/login', { data: admin });
  expect(((await login.json()) as Envelope<unknown>).statusCode).toBe(2);
  await moderator.goto('/admin');
  await expect(moderator.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
  const application = moderator.getByRole('article', { name: new RegExp(`@${username}`) });
  await expect(application).toBeVisible();
  await expect(application.getByText('Identity verified')).toBeVisible();
  const front = application.getByRole('img', { name: /^Front of the ID of / });
  await expect.poll(() => front.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expectNoSeriousA11yViolations(moderator);
  await application.getByRole('button', { name: 'Approve' }).click();
  await expect(moderator.getByText(/is now a partner\./)).toBeVisible();
  await expect(application).toBeHidden();

  // The applicant's open page follows over the socket, without a reload.
  await expect(page.getByRole('heading', { name: 'You are a partner' })).toBeVisible();
  await page.getByRole('button', { name: 'Show the badge' }).click();
  await expect(page.getByText('Your profile shows the verified badge.').first()).toBeVisible();

  await page.goto('/notifications');
  await expect(page.getByText('You are now a partner')).toBeVisible();

  // A seller now: the message price can be set.
  await page.goto('/settings/edit-profile');
  const price = page.getByLabel('Price of a chat message');
  await expect(price).toBeVisible();
  const option = await price.locator('option').nth(2).getAttribute('value');
  await price.selectOption(option!);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Your profile is saved.')).toBeVisible();
  const me = await meOf(page, email, password);
  expect(me).toMatchObject({ approvedState: 120, isSeller: true });
  expect(me.messagePrice).toBeGreaterThan(0);

  await applicantContext.close();
  await adminContext.close();
});
