import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { fanPriceCents, formatPrice } from '../../lib/sdk/rules/price';
import { formatMoney } from '../../lib/ui/shared/money';
import { apiProfile, expectNoSeriousA11yViolations, viewports } from './support';
import { signUpVerifiedFan } from './postsSupport';
import { accessToken, balanceOf, creditPackages, ensureOffer, giftCatalogue, mediaAs, payOnCardPage, postLockedPhoto, priceSalt, testCards } from './moneySupport';
import { demoPageOf, logInCreator, postThroughApi, signUpCreator } from './creatorSupport';

/*
 * The creator is one of the test's own (creatorSupport.ts), so what she earns is hers alone to
 * count, whatever runs beside the test. She is a partner, so she has the earnings widget, and
 * the partner demo (`/demo/`) plays her own site: its tip button is hers (demoPageOf).
 */
/** Her monthly offer; the top price step, so one journey earns her more than the smallest payout. */
const offerName = 'Darkroom diary';
const offerPriceCents = 1920;
/** The price step of the photo she locks for the journey. */
const photoPriceCents = 320;
/** The English message of the error catalogue (SPEC §8) for a declined card, as the site shows it. */
const declinedMessage = (JSON.parse(readFileSync(new URL('../../lib/i18n/locales/en.json', import.meta.url), 'utf8')) as { errors: { 'payment-declined': string } }).errors['payment-declined'];

/** Buys the package from the wallet in settings with a new card; the card page comes next. */
async function startTopUp(fan: Page, credits: number, price: number) {
  await fan.goto('/settings/wallet');
  const topUp = fan.getByRole('region', { name: 'Buy credits' });
  await topUp.getByRole('radio', { name: new RegExp(`^${escapeRegExp(formatMoney(credits))} in credits`) }).check();
  await topUp.getByRole('radio', { name: 'A new card' }).check();
  await topUp.getByRole('button', { name: `Pay ${formatMoney(price)}` }).click();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test('a fan tops up, unlocks a photo, tips on the partner page and subscribes; the creator sees her earnings rise and asks for a payout; a declined card moves no money', async ({ browser }) => {
  test.setTimeout(240_000);
  const creatorContext = await browser.newContext({ viewport: viewports.web });
  const fanContext = await browser.newContext({ viewport: viewports.phone });
  const creator = await creatorContext.newPage();
  const fan = await fanContext.newPage();

  // The two people, and tokens of their own for reading the money through the API.
  const made = await signUpCreator(creator.request, { name: 'Lena' });
  const creatorName = made.username;
  await logInCreator(creator, made);
  const fanEmail = await signUpVerifiedFan(fan, 'moneyfan');
  const creatorToken = await accessToken(creator.request, made.email);
  const fanToken = await accessToken(fan.request, fanEmail);
  const her = await apiProfile(fan.request, creatorName);
  const salt = await priceSalt(fan.request);
  const offer = await ensureOffer(creator.request, creatorToken, her.id, offerName, offerPriceCents);
  const gift = (await giftCatalogue(fan.request)).reduce((cheapest, g) => (g.gValue < cheapest.gValue ? g : cheapest));

  // She posts a new locked photo for the fan to unlock (a fresh one each run).
  const stamp = Date.now();
  const unlockPostId = await postLockedPhoto(creator, `Contact sheet from Lisbon ${stamp}`, formatPrice(photoPriceCents, salt));
  const unlockMedia = await mediaAs(fan.request, fanToken, unlockPostId);
  expect(unlockMedia.mediaPrice).toBe(photoPriceCents);
  expect(unlockMedia.mediaUnlockHash).toBeNull();

  const creatorStart = await balanceOf(creator.request, creatorToken);

  // Enough credits for the unlock, the tip and a month of the offer: the smallest package that covers them.
  const needed = fanPriceCents(unlockMedia.mediaPrice, salt) + gift.gValue + fanPriceCents(offer.priceCents, salt);
  const pkg = (await creditPackages(fan.request, fanToken)).filter((p) => p.cValue >= needed).sort((a, b) => a.cValue - b.cValue)[0]!;
  expect(pkg).toBeDefined();

  // 1. The fan buys credits with the test card: the card page, then back on /gopay-return.
  const fanStart = await balanceOf(fan.request, fanToken);
  expect(fanStart.gBalance).toBe(0);
  await startTopUp(fan, pkg.cValue, pkg.gValue);
  await payOnCardPage(fan, testCards.pays, formatMoney(pkg.gValue));
  await expect(fan).toHaveURL(/\/gopay-return\?/);
  const outcome = fan.getByTestId('payment-outcome');
  await expect(outcome).toHaveAttribute('data-outcome', 'paid');
  await expect(outcome).toContainText(formatMoney(pkg.cValue));
  await expect.poll(async () => (await balanceOf(fan.request, fanToken)).gBalance).toBe(pkg.cValue);
  await expect(fan.getByTestId('gopay-balance')).toHaveText(formatMoney(pkg.cValue));

  // 2. A declined card: the spec's message, and not a cent moves.
  await startTopUp(fan, pkg.cValue, pkg.gValue);
  await payOnCardPage(fan, testCards.declined, formatMoney(pkg.gValue));
  await expect(fan).toHaveURL(/\/gopay-return\?/);
  await expect(outcome).toHaveAttribute('data-outcome', 'payment-declined');
  await expect(outcome).toHaveRole('alert');
  await expect(outcome).toHaveText(declinedMessage);
  expect((await balanceOf(fan.request, fanToken)).gBalance).toBe(pkg.cValue);

  // 3. The fan unlocks the locked photo from its post: the adult-content agreement first, then the original.
  let fanBefore = (await balanceOf(fan.request, fanToken)).gBalance;
  let creatorBefore = (await balanceOf(creator.request, creatorToken)).cBalance;
  await fan.goto(`/post/${unlockPostId}`);
  const unlockCard = fan.locator(`article[data-post-id="${unlockPostId}"]`);
  await expect(unlockCard.locator('figure[data-locked]').first()).toBeVisible();
  const unlockPrice = formatPrice(unlockMedia.mediaPrice, salt);
  await unlockCard.getByRole('button', { name: `Unlock for ${unlockPrice}` }).first().click();
  const agreement = fan.getByRole('alertdialog', { name: 'Adult content' });
  await expect(agreement.getByTestId('unlock-price')).toHaveText(unlockPrice);
  await agreement.getByRole('button', { name: `I agree, unlock for ${unlockPrice}` }).click();
  await expect(fan.getByText('Unlocked. Enjoy!')).toBeVisible();
  // After the unlock animation the popup gives way to the media by itself.
  await expect(fan.getByRole('dialog', { name: 'Unlock media' })).toBeHidden();
  // The card now shows the original: no lock, the picture asked for with the fan's key, and it loads.
  const unlockedImage = unlockCard.locator('figure').first().locator('img');
  await expect(unlockCard.locator('figure').first()).not.toHaveAttribute('data-locked');
  await expect(unlockedImage).toHaveAttribute('src', /[?&]k=/);
  await expect(unlockedImage).not.toHaveAttribute('src', /[?&]t=blur\b/);
  await expect.poll(() => unlockedImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const unlocked = await mediaAs(fan.request, fanToken, unlockPostId);
  expect(unlocked.mediaUnlockHash).not.toBeNull();
  const original = `/media/${unlocked.mediaHash}.${unlocked.format}`;
  expect((await fan.request.get(original)).status()).toBe(403);
  expect((await fan.request.get(`${original}?k=${encodeURIComponent(unlocked.mediaUnlockHash!)}`)).status()).toBe(200);
  // The fan paid the fan price, the creator earned her price; the difference is the platform's fee.
  expect((await balanceOf(fan.request, fanToken)).gBalance).toBe(fanBefore - fanPriceCents(unlockMedia.mediaPrice, salt));
  expect((await balanceOf(creator.request, creatorToken)).cBalance).toBe(creatorBefore + unlockMedia.mediaPrice);

  // 4. On the creator's own site, the fan tips her from the tip-button element.
  fanBefore = (await balanceOf(fan.request, fanToken)).gBalance;
  creatorBefore = (await balanceOf(creator.request, creatorToken)).cBalance;
  await demoPageOf(fan, made);
  await fan.goto('/demo/');
  const tipButton = fan.locator(`fanstage-tip-button[creator="${creatorName}"]`);
  const wallet = fan.locator('fanstage-wallet');
  // The widgets keep their own session: the fan signs in through the platform's popup, which
  // finds her signed in on the platform and closes by itself.
  const popupOpened = fan.waitForEvent('popup');
  await tipButton.getByRole('button', { name: `Send a tip to ${her.displayName}` }).click();
  const popup = await popupOpened;
  if (!popup.isClosed()) await popup.waitForEvent('close');
  const tipDialog = tipButton.getByRole('dialog', { name: `Send ${her.displayName} a tip` });
  await expect(tipDialog).toBeVisible();
  await expect(tipDialog).toContainText(`Your balance: ${formatMoney(fanBefore)}`);
  await tipDialog.getByRole('radio', { name: new RegExp(`^${escapeRegExp(gift.name)}`) }).click();
  await tipDialog.getByRole('button', { name: `Send ${gift.name} for ${formatMoney(gift.gValue)}` }).click();
  await expect(tipButton.getByRole('status').filter({ hasText: 'Gift sent. Thank you!' })).toBeVisible();
  await expect(tipDialog).toBeHidden();
  // The wallet element on the same page shares the session and shows what is left.
  await expect(wallet).toContainText(`Your balance: ${formatMoney(fanBefore - gift.gValue)}`);
  expect((await balanceOf(fan.request, fanToken)).gBalance).toBe(fanBefore - gift.gValue);
  expect((await balanceOf(creator.request, creatorToken)).cBalance).toBe(creatorBefore + gift.cValue);

  // The creator has the site open, her earnings in the side column, as the fan subscribes. It is
  // opened just before: the page also reads the balance once a minute by itself, and the rise
  // checked below is then the subscription's alone.
  fanBefore = (await balanceOf(fan.request, fanToken)).gBalance;
  creatorBefore = (await balanceOf(creator.request, creatorToken)).cBalance;
  await creator.goto('/timeline');
  const widget = creator.getByRole('complementary', { name: 'Earnings' }).getByRole('region', { name: 'Your earnings' });
  await expect(widget).toBeVisible();
  await expect(widget).toContainText(formatMoney(creatorBefore));

  // 5. Back on the site, the fan subscribes to the creator's offer from another locked photo, with credits
  // (posted from her own client meanwhile, her newest).
  await postThroughApi(creator.request, creatorToken, `Darkroom prints ${stamp}`, photoPriceCents);
  await fan.goto(`/${creatorName}`);
  const lockedTile = fan.getByTestId('profile-posts').getByRole('link', { name: /\(locked\)$/ }).first();
  await expect(lockedTile).toBeVisible();
  await lockedTile.click();
  await expect(fan).toHaveURL(/\/post\/\d+$/);
  const subscribePostId = Number(new URL(fan.url()).pathname.replace('/post/', ''));
  const subscribeMedia = await mediaAs(fan.request, fanToken, subscribePostId);
  expect(subscribeMedia.mediaUnlockHash).toBeNull();
  const subscribeCard = fan.locator(`article[data-post-id="${subscribePostId}"]`);
  await subscribeCard.getByRole('button', { name: `Unlock for ${formatPrice(subscribeMedia.mediaPrice, salt)}` }).first().click();
  await fan.getByRole('dialog', { name: 'Unlock media' }).getByRole('button', { name: 'Subscribe' }).click();
  const purchase = fan.getByRole('dialog', { name: `Subscribe to ${her.displayName}` });
  const offerPrice = formatPrice(offer.priceCents, salt);
  await purchase.getByRole('radio', { name: new RegExp(`^${escapeRegExp(offerName)}`) }).check();
  await purchase.getByRole('radio', { name: /^Credits/ }).check();
  await purchase.getByRole('button', { name: `Subscribe for ${offerPrice} a month` }).click();
  await expect(purchase.getByRole('status')).toHaveText("You are subscribed. The creator's posts are unlocked for you.");
  expect((await balanceOf(fan.request, fanToken)).gBalance).toBe(fanBefore - fanPriceCents(offer.priceCents, salt));
  expect((await balanceOf(creator.request, creatorToken)).cBalance).toBe(creatorBefore + offer.priceCents);
  // The subscription opens her priced photos to the fan, this one included.
  await expect(subscribeCard.locator('figure').first()).not.toHaveAttribute('data-locked');
  expect((await mediaAs(fan.request, fanToken, subscribePostId)).mediaUnlockHash).not.toBeNull();

  // 6. The creator opens her earnings: the widget beside the page shows the rise, highlighted.
  const creatorNow = await balanceOf(creator.request, creatorToken);
  expect(creatorNow.cBalance - creatorStart.cBalance).toBe(unlockMedia.mediaPrice + gift.cValue + offer.priceCents);
  await creator.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Profile' }).first().click();
  await creator.getByRole('link', { name: 'Settings' }).click();
  await creator.getByRole('link', { name: /^Earnings/ }).click();
  await expect(creator).toHaveURL('/settings/earnings');
  await expect(widget.getByRole('status')).toHaveText(`New earnings: +${formatMoney(offer.priceCents)}`);
  await expect(widget).toHaveAttribute('data-rising', 'true');
  await expect(widget).toContainText(formatMoney(creatorNow.cBalance));
  await expect(creator.getByTestId('earnings-available')).toHaveText(formatMoney(creatorNow.cBalance));
  // Her first earnings ever bring the first-earnings popup, once: dismissed, the server remembers it.
  const firstEarnings = creator.getByRole('dialog', { name: 'You have earned your first money!' });
  expect(creatorStart.firstEarningsSeen).toBe(false);
  await expect(firstEarnings).toContainText(formatMoney(creatorNow.cBalance));
  await firstEarnings.getByRole('button', { name: 'Got it' }).click();
  await expect(firstEarnings).toBeHidden();
  await expect.poll(async () => (await balanceOf(creator.request, creatorToken)).firstEarningsSeen).toBe(true);

  // 7. She asks for all of it by PayPal; it waits for the platform to pay it, out of her balance.
  const payout = creator.getByRole('form', { name: 'Request a payout' });
  await payout.getByLabel('Amount in dollars').fill((creatorNow.cBalance / 100).toFixed(2));
  await payout.getByRole('radio', { name: 'PayPal' }).check();
  // The minimum is shown before asking; the PayPal address is asked for and kept.
  await expect(payout.getByText('The smallest payout is $20.00.')).toBeVisible();
  await payout.getByRole('textbox', { name: 'PayPal e-mail' }).fill(made.email);
  await payout.getByRole('button', { name: 'Request payout' }).click();
  await expect(payout.getByRole('status')).toHaveText(`Payout of ${formatMoney(creatorNow.cBalance)} requested.`);
  const afterPayout = await balanceOf(creator.request, creatorToken);
  expect(afterPayout.cBalance).toBe(0);
  expect(afterPayout.cPayout).toBe(creatorNow.cPayout + creatorNow.cBalance);
  await expect(creator.getByTestId('payouts').getByRole('listitem').first()).toContainText(formatMoney(creatorNow.cBalance));
  await expect(widget).toContainText(`${formatMoney(afterPayout.cPayout)} requested for payout`);

  await creatorContext.close();
  await fanContext.close();
});

test('on the partner page a fan without credits buys them inside the tip: a declined card in the card window moves nothing, the test card pays, and the tip goes through', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: viewports.tablet });
  const fan = await context.newPage();
  const made = await signUpCreator(fan.request, { name: 'Lena' });
  const creatorName = made.username;
  const fanEmail = await signUpVerifiedFan(fan, 'tipfan');
  const fanToken = await accessToken(fan.request, fanEmail);
  const her = await apiProfile(fan.request, creatorName);
  const gift = (await giftCatalogue(fan.request)).reduce((cheapest, g) => (g.gValue < cheapest.gValue ? g : cheapest));
  const pkg = (await creditPackages(fan.request, fanToken)).filter((p) => p.cValue >= gift.gValue).sort((a, b) => a.cValue - b.cValue)[0]!;
  expect(pkg).toBeDefined();
  expect((await balanceOf(fan.request, fanToken)).gBalance).toBe(0);

  await demoPageOf(fan, made);
  await fan.goto('/demo/');
  const tipButton = fan.locator(`fanstage-tip-button[creator="${creatorName}"]`);
  const signIn = fan.waitForEvent('popup');
  await tipButton.getByRole('button', { name: `Send a tip to ${her.displayName}` }).click();
  const signInPopup = await signIn;
  if (!signInPopup.isClosed()) await signInPopup.waitForEvent('close');
  const tipDialog = tipButton.getByRole('dialog', { name: `Send ${her.displayName} a tip` });
  await tipDialog.getByRole('radio', { name: new RegExp(`^${escapeRegExp(gift.name)}`) }).click();
  await tipDialog.getByRole('button', { name: `Send ${gift.name} for ${formatMoney(gift.gValue)}` }).click();

  // SPEC §8: short of credits, the purchase opens in place of the tip.
  await expect(tipDialog.getByRole('alert')).toHaveText('You need more credits for this gift. Buy credits, then send it.');
  const topUp = tipDialog.getByRole('region', { name: 'Buy credits' });
  await topUp.getByRole('radio', { name: new RegExp(`^${escapeRegExp(formatMoney(pkg.cValue))} in credits`) }).check();
  await topUp.getByRole('radio', { name: 'A new card' }).check();
  // The card page opens in a window of its own; the partner page stays where it is. A declined
  // card first: the window closes, the dialog says so, and nothing moved.
  const declinedWindowOpened = fan.waitForEvent('popup');
  await topUp.getByRole('button', { name: `Pay ${formatMoney(pkg.gValue)}` }).click();
  const declinedWindow = await declinedWindowOpened;
  await payOnCardPage(declinedWindow, testCards.declined, formatMoney(pkg.gValue));
  if (!declinedWindow.isClosed()) await declinedWindow.waitForEvent('close');
  await expect(topUp.getByRole('alert')).toHaveText(declinedMessage);
  expect((await balanceOf(fan.request, fanToken)).gBalance).toBe(0);

  const cardWindowOpened = fan.waitForEvent('popup');
  await topUp.getByRole('button', { name: `Pay ${formatMoney(pkg.gValue)}` }).click();
  const cardWindow = await cardWindowOpened;
  await expect(topUp.getByRole('status')).toHaveText('Finish the payment in the card window. This dialog updates by itself.');
  // The partner page with the tip's dialog open passes an automated accessibility check.
  await expectNoSeriousA11yViolations(fan);
  await payOnCardPage(cardWindow, testCards.pays, formatMoney(pkg.gValue));
  // Paid, the window closes and the dialog is back at the tip with the new balance.
  if (!cardWindow.isClosed()) await cardWindow.waitForEvent('close');
  expect(new URL(fan.url()).pathname).toBe('/demo/');
  await expect(tipDialog).toContainText(`Your balance: ${formatMoney(pkg.cValue)}`);
  expect((await balanceOf(fan.request, fanToken)).gBalance).toBe(pkg.cValue);

  await tipDialog.getByRole('button', { name: `Send ${gift.name} for ${formatMoney(gift.gValue)}` }).click();
  await expect(tipButton.getByRole('status').filter({ hasText: 'Gift sent. Thank you!' })).toBeVisible();
  await expect(fan.locator('fanstage-wallet')).toContainText(`Your balance: ${formatMoney(pkg.cValue - gift.gValue)}`);
  expect((await balanceOf(fan.request, fanToken)).gBalance).toBe(pkg.cValue - gift.gValue);
  await context.close();
});
