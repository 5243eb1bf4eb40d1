import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { fanPriceCents, formatPrice } from '../../lib/sdk/rules/price';
import { formatMoney } from '../../lib/ui/shared/money';
import { apiProfile, viewports } from './support';
import { jpeg, signUpVerifiedFan } from './postsSupport';
import { payOnCardPage, priceSalt, testCards } from './moneySupport';
import { logInCreator, offerOf, signUpCreator } from './creatorSupport';

const axeSource = readFileSync(fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url)), 'utf8');

/**
 * axe-core over the screen's own content (`main`), failing on serious or critical violations:
 * the side column around it is checked by the tests of its own features.
 */
async function expectScreenAccessible(page: Page): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Element, options: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document.querySelector('main')!, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

/**
 * The creator is one of the test's own (creatorSupport.ts) with the two offers a seeded creator
 * has (sofia.bloom's): her offers, subscribers and followers are hers alone, whatever runs beside.
 */
const seededOffers = [
  { name: 'Monthly', priceCents: 640 },
  { name: 'Inner circle', priceCents: 1600 },
];

test('a creator makes and archives offers in settings, a fan subscribes by card from her profile, and her mass message with a priced photo reaches her followers', async ({ browser }) => {
  test.setTimeout(150_000);
  const stamp = Date.now().toString(36);
  const offerName = `Backstage ${stamp}`;
  const creatorContext = await browser.newContext({ viewport: viewports.web });
  const fanContext = await browser.newContext({ viewport: viewports.phone });
  const creator = await creatorContext.newPage();
  const fan = await fanContext.newPage();
  const own = await signUpCreator(creator.request, { name: 'Sofie' });
  for (const offer of seededOffers) await offerOf(creator.request, own, offer.name, offer.priceCents);
  const creatorName = own.username;
  await logInCreator(creator, own);
  const salt = await priceSalt(creator.request);
  const sofia = await apiProfile(fan.request, creatorName);

  // 1. Settings › Subscription offers: a new offer at a post-media price step; the seeded dearer one is archived.
  await creator.goto('/settings');
  await creator.getByRole('link', { name: 'Subscription offers' }).click();
  await expect(creator).toHaveURL('/settings/offers');
  const form = creator.getByRole('form', { name: 'New offer' });
  await form.getByRole('textbox', { name: 'Name' }).fill(offerName);
  await form.getByRole('combobox', { name: 'Price a month' }).selectOption('1280');
  await form.getByRole('button', { name: 'Create offer' }).click();
  await expect(creator.getByText('The offer was created.')).toBeVisible();
  const made = creator.getByRole('listitem', { name: offerName });
  await expect(made).toContainText(`Fans pay ${formatPrice(1280, salt)} a month`);
  const innerCircle = creator.getByRole('listitem', { name: 'Inner circle' });
  await expect(innerCircle.getByText('Offered', { exact: true })).toBeVisible();
  await innerCircle.getByRole('button', { name: 'Archive Inner circle' }).click();
  await expect(creator.getByText('Inner circle is archived.')).toBeVisible();
  await expect(innerCircle.getByText('Archived', { exact: true })).toBeVisible();
  await expectScreenAccessible(creator);

  // 2. A new fan follows her and subscribes to the new offer from her profile, by card.
  await signUpVerifiedFan(fan, 'subfan');
  await fan.goto(`/${creatorName}`);
  await fan.getByTestId('profile-actions').getByRole('button', { name: /^Follow/ }).click();
  const subscribe = fan.getByRole('button', { name: `Subscribe · from ${formatPrice(640, salt)} a month` });
  await expect(subscribe).toBeVisible();
  await subscribe.click();
  const purchase = fan.getByRole('dialog', { name: `Subscribe to ${sofia.displayName}` });
  // The archived offer is not for sale any more.
  await expect(purchase.getByRole('radio', { name: /^Inner circle/ })).toHaveCount(0);
  await purchase.getByRole('radio', { name: new RegExp(`^${offerName}`) }).check();
  await purchase.getByRole('radio', { name: 'A new card' }).check();
  await purchase.getByRole('button', { name: `Subscribe for ${formatPrice(1280, salt)} a month` }).click();
  await payOnCardPage(fan, testCards.pays, formatMoney(fanPriceCents(1280, salt)));
  await expect(fan.getByText('Payment received. Your subscription is active.')).toBeVisible({ timeout: 20_000 });
  await fan.getByRole('link', { name: 'Back to where you were' }).click();
  await expect(fan).toHaveURL(`/${creatorName}`);
  await expect(fan.getByRole('button', { name: 'Subscribed' })).toBeVisible();

  // The creator's offer counts the subscriber.
  await creator.reload();
  await expect(creator.getByRole('listitem', { name: offerName })).toContainText('1 subscriber');

  // 3. Settings › Mass messages: a priced photo to the followers, and the list says how many got it.
  await creator.goto('/settings');
  await creator.getByRole('link', { name: 'Mass messages' }).click();
  const composer = creator.getByRole('form', { name: 'New mass message' });
  const followers = composer.getByRole('radio', { name: /^Followers \(\d+\)$/ });
  await expect(followers).toBeChecked();
  const reach = Number(/\((\d+)\)/.exec((await followers.locator('..').textContent()) ?? '')?.[1]);
  expect(reach).toBeGreaterThanOrEqual(1);
  await composer.getByRole('textbox', { name: 'Message' }).fill(`Studio day ${stamp}`);
  await composer.getByRole('combobox', { name: 'Price of the photo or video' }).selectOption('320');
  const chooser = creator.waitForEvent('filechooser');
  await composer.getByRole('button', { name: 'Attach a photo or video' }).click();
  await (await chooser).setFiles({ name: 'studio.jpg', mimeType: 'image/jpeg', buffer: await jpeg(1200, 900, { r: 170, g: 80, b: 140 }) });
  await expect(composer.getByTestId('mass-attachment')).toContainText(`studio.jpg · ${formatPrice(320, salt)}`, { timeout: 30_000 });
  await composer.getByRole('button', { name: 'Send to all' }).click();
  await expect(composer.getByRole('status')).toHaveText(reach === 1 ? 'Sent to 1 person.' : `Sent to ${reach} people.`);
  const sent = creator.getByRole('region', { name: 'Sent mass messages' }).getByTestId('mass-sent-item').filter({ hasText: `Studio day ${stamp}` });
  await expect(sent).toContainText(`Photo · ${formatPrice(320, salt)}`);
  await expect(sent).toContainText(reach === 1 ? 'Got it: 1 person' : `Got it: ${reach} people`);
  await expect(sent).toContainText('Unlocked: 0');
  await expectScreenAccessible(creator);

  // The fan has it in her chat with the creator, locked at its price.
  await fan.goto(`/chat/${creatorName}`);
  await expect(fan.getByText(`Studio day ${stamp}`).filter({ visible: true }).first()).toBeVisible();

  await creatorContext.close();
  await fanContext.close();
});
