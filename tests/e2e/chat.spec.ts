import { expect, test, type Locator, type Page } from '@playwright/test';
import { fanPriceCents, formatPrice } from '../../lib/sdk/rules/price';
import { formatMoney } from '../../lib/ui/shared/money';
import { apiProfile, viewports } from './support';
import { signUpVerifiedFan } from './postsSupport';
import { accessToken, balanceOf, creditPackages, payOnCardPage, priceSalt, testCards } from './moneySupport';
import { logInCreator, signUpCreator } from './creatorSupport';

/** The creator's message price: the 13-credit step of SPEC §9. */
const messagePrice = 13;

/** The conversation's messages on a page, and the one whose text is `text`. */
function messages(page: Page): Locator {
  return page.getByTestId('chat-message');
}
function message(page: Page, text: string): Locator {
  return messages(page).filter({ hasText: text });
}

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(box).toHaveValue('');
}

/** Buys the smallest credit package with the sandbox's test card, from the wallet in settings. */
async function buyCredits(fan: Page, token: string): Promise<number> {
  const pkg = (await creditPackages(fan.request, token)).sort((a, b) => a.cValue - b.cValue)[0]!;
  await fan.goto('/settings/wallet');
  const topUp = fan.getByRole('region', { name: 'Buy credits' });
  await topUp.getByRole('radio', { name: new RegExp(`^${formatMoney(pkg.cValue).replace(/[.$]/g, '\\$&')} in credits`) }).check();
  await topUp.getByRole('radio', { name: 'A new card' }).check();
  await topUp.getByRole('button', { name: `Pay ${formatMoney(pkg.gValue)}` }).click();
  await payOnCardPage(fan, testCards.pays, formatMoney(pkg.gValue));
  await expect(fan.getByTestId('payment-outcome')).toHaveAttribute('data-outcome', 'paid');
  await expect.poll(async () => (await balanceOf(fan.request, token)).gBalance).toBe(pkg.cValue);
  return pkg.cValue;
}

/**
 * A phone's chat header: the partner's name readable (not cut to a letter), the price and the
 * call button beside it, nothing overlapping and nothing past the right edge.
 */
async function expectPhoneChatHeaderFits(page: Page, name: string): Promise<void> {
  const header = page.getByRole('banner');
  await expect(header.getByText(name, { exact: true })).toBeVisible();
  const layout = await header.evaluate((element, partner) => {
    const title = [...element.querySelectorAll<HTMLElement>('div')].find((child) => child.textContent === partner)!;
    // What else the bar shows: its links, buttons, fields and the price, each a box of its own.
    const others = [...element.querySelectorAll<HTMLElement>('a, button, input, [data-testid="chat-price-badge"]')]
      .filter((child) => child.getClientRects().length > 0 && !child.closest('[data-testid="chat-price-badge"] button'))
      .map((child) => ({ what: child.getAttribute('aria-label') ?? child.textContent ?? child.tagName, box: child.getBoundingClientRect().toJSON() as DOMRect }));
    return {
      viewport: window.innerWidth,
      scrollWidth: document.documentElement.scrollWidth,
      title: { width: title.clientWidth, fullWidth: title.scrollWidth, box: title.getBoundingClientRect().toJSON() as DOMRect },
      others,
    };
  }, name);
  expect(layout.scrollWidth, 'no horizontal overflow').toBeLessThanOrEqual(layout.viewport);
  expect(layout.title.width, 'the name is shown whole').toBeGreaterThanOrEqual(layout.title.fullWidth);
  for (const other of layout.others) {
    const a = layout.title.box;
    const b = other.box;
    expect(b.right, `${other.what} ends inside the screen`).toBeLessThanOrEqual(layout.viewport);
    const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
    expect(apart, `the name and ${other.what} do not overlap`).toBe(true);
  }
}

test('a fan pays to message a creator, who sees it at once; reactions and read receipts show on both sides; a fan without credit is refused and not charged', async ({ browser }) => {
  test.setTimeout(180_000);
  const creatorContext = await browser.newContext({ viewport: viewports.web });
  const fanContext = await browser.newContext({ viewport: viewports.web });
  const brokeContext = await browser.newContext({ viewport: viewports.phone });
  const creator = await creatorContext.newPage();
  const fan = await fanContext.newPage();
  const broke = await brokeContext.newPage();

  // A creator of the test's own: the earnings it checks are hers alone, whatever runs beside it.
  const made = await signUpCreator(creator.request, { name: 'Ana' });
  const creatorName = made.username;
  await logInCreator(creator, made);
  const creatorToken = await accessToken(creator.request, made.email);
  // Her price for a message is the 13-credit step (what she earns; a fan pays it with the salt).
  const priced = await creator.request.put('/api/users/me', { headers: { authorization: `Bearer ${creatorToken}` }, data: { messagePrice } });
  expect(((await priced.json()) as { statusCode: number }).statusCode).toBeGreaterThan(0);
  const her = await apiProfile(fan.request, creatorName);
  expect(her.messagePrice).toBe(messagePrice);
  const salt = await priceSalt(fan.request);
  const fanPays = fanPriceCents(messagePrice, salt);

  const fanEmail = await signUpVerifiedFan(fan, 'chatfan');
  const fanToken = await accessToken(fan.request, fanEmail);
  await buyCredits(fan, fanToken);

  // The creator has her chat list open, as she would while working: loaded, and empty yet.
  await creator.goto('/chat-list');
  await expect(creator.getByRole('list', { name: 'Conversations' })).not.toHaveAttribute('aria-busy', 'true');
  await expect(creator.getByText('No conversations yet.')).toBeVisible();

  const fanBefore = await balanceOf(fan.request, fanToken);
  const creatorBefore = await balanceOf(creator.request, creatorToken);

  // 1. The fan writes; the header shows what a message costs.
  await fan.goto(`/chat/${creatorName}`);
  await expect(fan.getByTestId('chat-conversation')).toBeVisible();
  await expect(fan.getByTestId('chat-price-badge').first()).toContainText(formatPrice(messagePrice, salt));
  const text = `Hello Lucy, loved the Lisbon roll ${Date.now()}`;
  await send(fan, text);
  await expect(message(fan, text)).toHaveAttribute('data-state', /sent|read/);

  // 2. The creator sees it at once, without reloading: in her list, then in the conversation.
  const entry = creator.getByRole('link', { name: /Chat with/ }).filter({ hasText: text });
  await expect(entry).toBeVisible();
  await entry.click();
  await expect(message(creator, text)).toBeVisible();
  // Her own header says what she charges this fan, not a price as if she paid it.
  await expect(creator.getByTestId('chat-price-badge').first()).toContainText(`You charge ${formatPrice(messagePrice, salt)} / message`);

  // 3. The money moved once: the fan paid the salted price, the creator earned her price.
  await expect.poll(async () => (await balanceOf(fan.request, fanToken)).gBalance).toBe(fanBefore.gBalance - fanPays);
  await expect.poll(async () => (await balanceOf(creator.request, creatorToken)).cBalance).toBe(creatorBefore.cBalance + messagePrice);

  // Her side navigation shows the new earnings at the end of the Timeline row, clear of the
  // label, and the tab is named Timeline first.
  const timelineTab = creator.getByTestId('side-nav').getByRole('link', { name: /^Timeline/ });
  const earningsBadge = timelineTab.getByTestId('earnings-badge');
  await expect(earningsBadge).toBeVisible();
  const label = await timelineTab.getByText('Timeline', { exact: true }).boundingBox();
  const badgeBox = await earningsBadge.boundingBox();
  expect(label!.x + label!.width <= badgeBox!.x || badgeBox!.y + badgeBox!.height <= label!.y, 'the badge is clear of the label').toBe(true);

  // 4. Opening the conversation read it: the fan's message turns to the double check.
  await expect(message(fan, text)).toHaveAttribute('data-state', 'read');
  await expect(message(fan, text).getByRole('img', { name: 'Read' })).toBeVisible();

  // 5. She reacts; the fan sees the reaction on the message.
  const theirs = message(creator, text);
  await theirs.getByRole('button', { name: 'React to this message' }).click();
  await theirs.getByRole('group', { name: 'Reactions' }).getByRole('button', { name: 'Love' }).click();
  await expect(message(creator, text).getByRole('img', { name: /Love/ })).toBeVisible();
  await expect(message(fan, text).getByRole('img', { name: /Love/ })).toBeVisible();

  // 6. She answers for free; the fan reads it and she sees her answer read.
  const answer = `Thank you! More rolls on Friday ${Date.now()}`;
  await send(creator, answer);
  await expect(message(fan, answer)).toBeVisible();
  await expect(message(creator, answer)).toHaveAttribute('data-state', 'read');
  expect((await balanceOf(fan.request, fanToken)).gBalance).toBe(fanBefore.gBalance - fanPays);

  // 7. A fan with no credit: the spec's no_credit state, nothing charged, nothing delivered.
  const brokeEmail = await signUpVerifiedFan(broke, 'brokefan');
  const brokeToken = await accessToken(broke.request, brokeEmail);
  const creatorMid = await balanceOf(creator.request, creatorToken);
  await broke.goto(`/chat/${creatorName}`);
  // As a person reads the price before writing (the composer holds a message until it has loaded).
  await expect(broke.getByTestId('chat-price-badge').first()).toContainText(formatPrice(messagePrice, salt));
  await expectPhoneChatHeaderFits(broke, her.displayName);
  const plea = `Can I see more? ${Date.now()}`;
  await send(broke, plea);
  const refused = message(broke, plea);
  await expect(refused).toHaveAttribute('data-state', 'failed');
  await expect(refused.getByRole('alert')).toContainText('Not delivered: you do not have enough credits.');
  await expect(refused.getByRole('button', { name: 'Buy credits' })).toBeVisible();
  expect((await balanceOf(broke.request, brokeToken)).gBalance).toBe(0);
  expect((await balanceOf(creator.request, creatorToken)).cBalance).toBe(creatorMid.cBalance);
  await creator.goto('/chat-list');
  await expect(creator.getByRole('list', { name: 'Conversations' })).toBeVisible();
  await expect(creator.getByText(plea)).toHaveCount(0);

  // The fan's own chat list shows the conversation with her answer last.
  await fan.goto('/chat-list');
  await expect(fan.getByRole('list', { name: 'Conversations' }).getByText(answer)).toBeVisible();

  await Promise.all([creatorContext.close(), fanContext.close(), brokeContext.close()]);
});
