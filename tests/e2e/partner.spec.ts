import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { fanPriceCents, formatPrice } from '../../lib/sdk/rules/price';
import { formatMoney } from '../../lib/ui/shared/money';
import { agreeToTerms, apiProfile, expectNoSeriousA11yViolations, viewports } from './support';
import { creditPackages, payOnCardPage, postLockedPhoto, testCards } from './moneySupport';

interface Envelope<T> {
  statusCode: number;
  body: T;
}

/** The seeded administrator (docs/development.md). */
const admin = { email: 'fanstage.admin@example.com', password: 'fanstage-demo' };

/**
 * The new creator's prices, in stored cents: the top steps of the chat-message price, a month of
 * the offer and the locked picture, so what one invited fan spends reaches the smallest payout
 * ($20, `minimumPayoutCents` in the settings, a rule of the product and not configurable).
 */
const messagePrice = 128;
const offerPrice = 1920;
const picturePrice = 320;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The platform's settings that the money rules read. */
async function moneySettings(request: APIRequestContext): Promise<{ salt: number; affiliateSharePercent: number; minimumPayoutCents: number }> {
  return ((await (await request.get('/papi/settings')).json()) as Envelope<{ salt: number; affiliateSharePercent: number; minimumPayoutCents: number }>).body;
}

/** An access token of a login of its own, for the API reads beside the screens. */
async function tokenOf(request: APIRequestContext, email: string, password: string): Promise<string> {
  const login = (await (await request.post('/papi/login', { data: { email, password, tokenInBody: true } })).json()) as Envelope<{ accessToken: string }>;
  expect(login.statusCode).toBe(2);
  return login.body.accessToken;
}

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

test('a new account becomes a creator: it applies, passes the identity check and is approved; sets its prices, an offer and a locked picture; a fan it invited pays for all three, and its earnings, with the affiliate share, are paid out to PayPal', async ({
  browser,
}) => {
  test.setTimeout(300_000);
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
  const { salt, affiliateSharePercent, minimumPayoutCents } = await moneySettings(page.request);
  await page.goto('/settings/edit-profile');
  const price = page.getByLabel('Price of a chat message');
  await expect(price).toBeVisible();
  await price.selectOption(String(messagePrice));
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Your profile is saved.')).toBeVisible();
  const me = await meOf(page, email, password);
  expect(me).toMatchObject({ approvedState: 120, isSeller: true, messagePrice });

  // A subscription offer in Settings › Subscription offers.
  const offerName = 'Backstage with Jana';
  await page.goto('/settings');
  await page.getByRole('link', { name: 'Subscription offers' }).click();
  const offerForm = page.getByRole('form', { name: 'New offer' });
  await offerForm.getByRole('textbox', { name: 'Name' }).fill(offerName);
  await offerForm.getByRole('combobox', { name: 'Price a month' }).selectOption(String(offerPrice));
  await offerForm.getByRole('button', { name: 'Create offer' }).click();
  await expect(page.getByText('The offer was created.')).toBeVisible();
  await expect(page.getByRole('listitem', { name: offerName })).toContainText(`Fans pay ${formatPrice(offerPrice, salt)} a month`);

  // A locked picture from the post editor.
  const caption = `First set of the studio ${Date.now()}`;
  const postId = await postLockedPhoto(page, caption, formatPrice(picturePrice, salt));

  // The invite link from Settings, as the creator would share it.
  await page.goto('/settings');
  const inviteLink = await page.getByTestId('settings-invite').getByLabel('Your invite link').inputValue();
  expect(inviteLink).toMatch(/\?aff=[2-9A-HJKMNP-Z]{8}$/);
  const creator = await apiProfile(page.request, username);

  // A second new account arrives through the link and signs up from the invitation.
  const fanContext = await browser.newContext({ viewport: viewports.phone });
  const fan = await fanContext.newPage();
  await agreeToTerms(fan);
  await fan.goto(inviteLink);
  const prompt = fan.getByTestId('invitation-prompt');
  await expect(prompt.getByRole('heading', { name: `${creator.displayName} invites you to Fanstage` })).toBeVisible();
  await prompt.getByRole('button', { name: 'Sign up' }).click();
  await expect(fan.getByTestId('sign-up-invited-by')).toHaveText(`Invited by ${creator.displayName}`);
  const fanEmail = `invitedfan${Date.now()}${Math.floor(Math.random() * 1000)}@example.com`;
  await fan.getByLabel('E-mail').fill(fanEmail);
  await fan.getByLabel('Password', { exact: true }).fill(password);
  await fan.getByRole('checkbox', { name: /18 or older/ }).check();
  await fan.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(fan.getByRole('heading', { level: 1, name: 'Welcome to Fanstage!' })).toBeVisible();
  await fan.goto(await actionLink(fan.request, fanEmail));
  await expect(fan.getByText('Your e-mail address is verified. Thank you!')).toBeVisible();
  const fanName = (await meOf(fan, fanEmail, password)).username;
  const fanProfile = await apiProfile(fan.request, fanName);

  // Credits by card on the sandbox processor's page: the smallest package that pays for everything.
  const fanPays = { picture: fanPriceCents(picturePrice, salt), offer: fanPriceCents(offerPrice, salt), message: fanPriceCents(messagePrice, salt) };
  const fanToken = await tokenOf(fan.request, fanEmail, password);
  const pkg = (await creditPackages(fan.request, fanToken)).filter((p) => p.cValue >= fanPays.picture + fanPays.offer + fanPays.message).sort((a, b) => a.cValue - b.cValue)[0]!;
  expect(pkg).toBeDefined();
  await fan.goto('/settings/wallet');
  const topUp = fan.getByRole('region', { name: 'Buy credits' });
  await topUp.getByRole('radio', { name: new RegExp(`^${escapeRegExp(formatMoney(pkg.cValue))} in credits`) }).check();
  await topUp.getByRole('radio', { name: 'A new card' }).check();
  await topUp.getByRole('button', { name: `Pay ${formatMoney(pkg.gValue)}` }).click();
  await payOnCardPage(fan, testCards.pays, formatMoney(pkg.gValue));
  await expect(fan.getByTestId('payment-outcome')).toHaveAttribute('data-outcome', 'paid');

  // The locked picture, unlocked from the creator's profile (before subscribing: a subscription opens her pictures).
  await fan.goto(`/${username}`);
  await fan.getByTestId('profile-posts').getByRole('link', { name: /\(locked\)$/ }).first().click();
  await expect(fan).toHaveURL(`/post/${postId}`);
  const card = fan.locator(`article[data-post-id="${postId}"]`);
  const pictureLabel = formatPrice(picturePrice, salt);
  await card.getByRole('button', { name: `Unlock for ${pictureLabel}` }).first().click();
  await fan.getByRole('alertdialog', { name: 'Adult content' }).getByRole('button', { name: `I agree, unlock for ${pictureLabel}` }).click();
  await expect(fan.getByText('Unlocked. Enjoy!')).toBeVisible();
  await expect(card.locator('figure').first()).not.toHaveAttribute('data-locked');

  // Subscribes from the profile's Subscribe button, with credits.
  await fan.goto(`/${username}`);
  const offerLabel = formatPrice(offerPrice, salt);
  await fan.getByRole('button', { name: `Subscribe · ${offerLabel} a month` }).click();
  const purchase = fan.getByRole('dialog', { name: `Subscribe to ${creator.displayName}` });
  await purchase.getByRole('radio', { name: new RegExp(`^${escapeRegExp(offerName)}`) }).check();
  await purchase.getByRole('radio', { name: /^Credits/ }).check();
  await purchase.getByRole('button', { name: `Subscribe for ${offerLabel} a month` }).click();
  await expect(purchase.getByRole('status')).toHaveText("You are subscribed. The creator's posts are unlocked for you.");

  // A paid message in the chat: the header names the price.
  await fan.goto(`/chat/${username}`);
  await expect(fan.getByTestId('chat-price-badge').first()).toContainText(formatPrice(messagePrice, salt));
  const text = `Hello Jana, welcome to Fanstage ${Date.now()}`;
  const box = fan.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await fan.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(fan.getByTestId('chat-message').filter({ hasText: text })).toHaveAttribute('data-state', /sent|read/);
  // The fan paid the three fan prices, not a credit more.
  await expect
    .poll(async () => ((await (await fan.request.get('/api/payments/balance', { headers: { authorization: `Bearer ${fanToken}` } })).json()) as Envelope<{ gBalance: number }>).body.gBalance)
    .toBe(pkg.cValue - fanPays.picture - fanPays.offer - fanPays.message);
  await fanContext.close();

  // The creator's earnings: each price she set, and, the fan being hers, 10 % of the platform's fee on each.
  const share = (cents: number) => Math.floor(((fanPriceCents(cents, salt) - cents) * affiliateSharePercent) / 100);
  const earned = picturePrice + offerPrice + messagePrice;
  const shares = share(picturePrice) + share(offerPrice) + share(messagePrice);
  expect(shares).toBeGreaterThan(0);
  const total = earned + shares;
  expect(total).toBeGreaterThanOrEqual(minimumPayoutCents);
  await page.goto('/settings/earnings');
  await expect(page.getByTestId('earnings-available')).toHaveText(formatMoney(total));
  const firstEarnings = page.getByRole('dialog', { name: 'You have earned your first money!' });
  await expect(firstEarnings).toContainText(formatMoney(total));
  await firstEarnings.getByRole('button', { name: 'Got it' }).click();
  await expect(firstEarnings).toBeHidden();
  const lines = page.getByTestId('earnings-lines').getByRole('listitem');
  const fanShown = fanProfile.displayName.trim() || fanProfile.username;
  for (const [what, cents] of [
    ['Media unlocked', picturePrice],
    ['Subscription', offerPrice],
    ['Chat message', messagePrice],
  ] as const) {
    await expect(lines.filter({ hasText: `${what} · ${fanShown}` })).toContainText(`+${formatMoney(cents)}`);
  }
  const affiliateLines = lines.filter({ hasText: `Affiliate share · ${fanShown}` });
  await expect(affiliateLines).toHaveCount(3);
  expect((await affiliateLines.allTextContents()).map((line) => /\+\$(\d+\.\d\d)$/.exec(line.trim())?.[1]).sort()).toEqual(
    [share(picturePrice), share(offerPrice), share(messagePrice)].map((cents) => (cents / 100).toFixed(2)).sort(),
  );
  await expect(lines).toHaveCount(6);

  // She asks for all of it to a PayPal address; the minimum is shown first.
  const payout = page.getByRole('form', { name: 'Request a payout' });
  await payout.getByLabel('Amount in dollars').fill((total / 100).toFixed(2));
  await payout.getByRole('radio', { name: 'PayPal' }).check();
  await expect(payout.getByText(`The smallest payout is ${formatMoney(minimumPayoutCents)}.`)).toBeVisible();
  const paypal = `jana.${Date.now()}@example.com`;
  await payout.getByRole('textbox', { name: 'PayPal e-mail' }).fill(paypal);
  await payout.getByRole('button', { name: 'Request payout' }).click();
  await expect(payout.getByRole('status')).toHaveText(`Payout of ${formatMoney(total)} requested.`);
  const request = page.getByTestId('payouts').getByRole('listitem').first();
  await expect(request).toContainText(`to ${paypal}`);
  await expect(request).toContainText(formatMoney(total));
  await expect(request.getByText(/ · requested$/)).toBeVisible();
  await expect(page.getByTestId('earnings-available')).toHaveText(formatMoney(0));

  // The administrator pays it from the queue.
  await moderator.goto('/admin');
  const payouts = moderator.getByTestId('admin-payouts');
  await expect(payouts).toContainText(paypal);
  await payouts.getByRole('button', { name: `Mark paid: ${formatMoney(total)} to @${username}` }).click();
  await expect(payouts.getByRole('status')).toHaveText(`${formatMoney(total)} to @${username} is marked paid.`);

  // The creator's history says paid, and the ledger reconciles after all of it.
  await page.reload();
  await expect(request.getByText(/ · paid$/)).toBeVisible();
  await expect(page.getByTestId('earnings-requested')).toHaveText(formatMoney(0));
  const adminToken = await tokenOf(moderator.request, admin.email, admin.password);
  const reconciliation = (await (await moderator.request.get('/api/admin/ledger/reconciliation', { headers: { authorization: `Bearer ${adminToken}` } })).json()) as Envelope<{ ok: boolean }>;
  expect(reconciliation.body, JSON.stringify(reconciliation.body)).toMatchObject({ ok: true, total: 0, balanceMismatches: [], unbalancedTransfers: [], negativeAccounts: [], holdMismatches: [] });

  await applicantContext.close();
  await adminContext.close();
});
