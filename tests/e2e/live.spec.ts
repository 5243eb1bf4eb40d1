import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { Account } from '../../lib/contract';
import { fanPriceCents, formatPrice } from '../../lib/sdk/rules/price';
import { formatMoney } from '../../lib/ui/shared/money';
import { apiProfile, viewports } from './support';
import { signUpVerifiedFan } from './postsSupport';
import { accessToken, creditPackages, payOnCardPage, priceSalt, testCards } from './moneySupport';
import { logInCreator, postThroughApi, signUpCreator } from './creatorSupport';

const photoPriceCents = 320;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function bodyOf<T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  const envelope = (await response.json()) as { statusCode: number; body: T };
  expect(envelope.statusCode, JSON.stringify(envelope)).toBeGreaterThan(0);
  return envelope.body;
}

/** Credits from the wallet in settings with the sandbox's test card, as a fan buys them. */
async function buyCredits(fan: Page, token: string, needed: number): Promise<void> {
  const pkg = (await creditPackages(fan.request, token)).filter((p) => p.cValue >= needed).sort((a, b) => a.cValue - b.cValue)[0]!;
  await fan.goto('/settings/wallet');
  const topUp = fan.getByRole('region', { name: 'Buy credits' });
  await topUp.getByRole('radio', { name: new RegExp(`^${formatMoney(pkg.cValue).replace(/[.$]/g, '\\$&')} in credits`) }).check();
  await topUp.getByRole('radio', { name: 'A new card' }).check();
  await topUp.getByRole('button', { name: `Pay ${formatMoney(pkg.gValue)}` }).click();
  await payOnCardPage(fan, testCards.pays, formatMoney(pkg.gValue));
  await expect(fan.getByTestId('payment-outcome')).toHaveAttribute('data-outcome', 'paid');
}

test('live: a followed creator’s post comes in behind the pill, an unlock in one tab opens the media in the other, the author sees who liked, and the quick hover opens at 1280 px', async ({ browser }) => {
  test.setTimeout(180_000);
  const creatorContext = await browser.newContext({ viewport: viewports.web });
  const fanContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const creator = await creatorContext.newPage();
  const fan = await fanContext.newPage();

  // A creator of the test's own: the posts that come in on the fan's timeline are hers alone.
  // Her client posts through the API, from another place than the fan's browser.
  const made = await signUpCreator(creator.request, { name: 'Mia', avatar: true });
  const creatorName = made.username;
  await logInCreator(creator, made);
  const creatorToken = await accessToken(creator.request, made.email);
  await postThroughApi(creator.request, creatorToken, 'Test roll from last week, more soon');
  const fanEmail = await signUpVerifiedFan(fan, 'livefan');
  const fanToken = await accessToken(fan.request, fanEmail);
  const me = await bodyOf<Account>(await fan.request.get('/api/users/me', { headers: bearer(fanToken) }));
  const mia = await apiProfile(fan.request, creatorName);
  await bodyOf(await fan.request.post('/api/users/follow', { headers: bearer(fanToken), data: { id: mia.id } }));

  // 1. The fan has her timeline open; the creator posts from elsewhere; the pill says so.
  await fan.goto('/timeline');
  const timeline = fan.getByRole('feed', { name: 'Timeline' });
  await expect(timeline.getByRole('article').first()).toBeVisible();
  // She has read down the page a little when the post arrives.
  await fan.mouse.wheel(0, 600);
  const stamp = Date.now();
  const text = `Fresh from the studio ${stamp}`;
  const fresh = await postThroughApi(creator.request, creatorToken, text);
  const pill = fan.getByRole('button', { name: 'Load 1 new post' });
  await expect(pill).toBeVisible();
  await expect(timeline.getByText(text)).toHaveCount(0);
  await pill.click();
  const first = timeline.getByRole('article').first();
  await expect(first).toHaveAttribute('data-post-id', String(fresh.id));
  await expect(first).toContainText(text);
  await expect(pill).toBeHidden();
  // Back up to the top of the timeline, where the new post is.
  await expect(first).toBeInViewport();

  // 2. The quick profile hover on the author's name, on the web layout.
  const name = first.getByRole('heading').getByRole('link');
  await name.hover();
  const card = fan.getByRole('group', { name: `Profile of ${creatorName}` });
  await expect(card).toBeVisible();
  await expect(card.getByRole('button', { name: /^Following/ })).toBeVisible();
  await fan.mouse.move(1200, 880);
  await expect(card).toBeHidden();

  // 3. She likes it; the author opens who liked it from the count.
  await first.getByRole('button', { name: 'Like' }).click();
  await expect(first.getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'true');
  await creator.goto(`/post/${fresh.id}`);
  const own = creator.locator(`article[data-post-id="${fresh.id}"]`);
  await own.getByRole('button', { name: '1 like' }).click();
  const likers = creator.getByRole('dialog', { name: 'Liked by' });
  await expect(likers.getByRole('listitem')).toHaveCount(1);
  await expect(likers.getByRole('listitem').first()).toContainText(`@${me.username}`);
  await expect(likers.getByRole('button', { name: /^Follow/ })).toBeVisible();
  await likers.getByRole('button', { name: 'Close' }).click();

  // 4. A locked photo, open in two tabs of hers; she unlocks it in the first, the second shows it open.
  const salt = await priceSalt(fan.request);
  await buyCredits(fan, fanToken, fanPriceCents(photoPriceCents, salt));
  const locked = await postThroughApi(creator.request, creatorToken, `Behind the curtain ${stamp}`, photoPriceCents);
  const tabB = await fanContext.newPage();
  await tabB.goto(`/post/${locked.id}`);
  const cardB = tabB.locator(`article[data-post-id="${locked.id}"]`);
  await expect(cardB.locator('figure[data-locked]').first()).toBeVisible();

  await fan.goto(`/post/${locked.id}`);
  const cardA = fan.locator(`article[data-post-id="${locked.id}"]`);
  const price = formatPrice(photoPriceCents, salt);
  await cardA.getByRole('button', { name: `Unlock for ${price}` }).first().click();
  await fan.getByRole('alertdialog', { name: 'Adult content' }).getByRole('button', { name: `I agree, unlock for ${price}` }).click();
  await expect(fan.getByText('Unlocked. Enjoy!')).toBeVisible();

  // Tab B was not touched: the socket brought the key.
  await expect(cardB.locator('figure').first()).not.toHaveAttribute('data-locked');
  await expect(cardB.locator('figure').first().locator('img')).toHaveAttribute('src', /[?&]k=/);

  // The author sees what it earned.
  await creator.goto(`/post/${locked.id}`);
  await creator.locator(`article[data-post-id="${locked.id}"]`).getByRole('button', { name: 'Media earnings' }).click();
  await expect(creator.getByRole('dialog', { name: 'What your media earned' })).toContainText(`Earned $${(photoPriceCents / 100).toFixed(2)}`);

  await creatorContext.close();
  await fanContext.close();
});
