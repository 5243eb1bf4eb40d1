import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { agreeToTerms, viewports } from './support';
import { logInDemoCreator, signUpVerifiedFan } from './postsSupport';

/*
 * What a new visitor tripped over (issue 14), measured at the three layout widths: no
 * horizontal overflow, no overlapping boxes, the controls that matter inside the screen, and
 * axe clean of the rules the site broke. The creator's items (a phone's chat header, her
 * sidebar and earnings badge) are measured in chat.spec.ts.
 */

const widths = [viewports.phone, viewports.tablet, viewports.web] as const;
const axeSource = readFileSync(fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url)), 'utf8');

/** The page scrolls only downwards: nothing sticks out past the right edge. */
async function expectNoHorizontalOverflow(page: Page, what: string): Promise<void> {
  const { scrollWidth, innerWidth, culprits } = await page.evaluate(() => {
    // The elements reaching past the right edge, outermost first, to name in the failure.
    const culprits = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className} (${Math.round(element.getBoundingClientRect().right)} px)`);
    return { scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth, culprits };
  });
  expect(scrollWidth, `${what}: no horizontal overflow; past the edge: ${culprits.join(', ')}`).toBeLessThanOrEqual(innerWidth);
}

/** Each box lies inside the viewport's width, and no two of them overlap. */
async function expectApartAndOnScreen(page: Page, items: Record<string, Locator>): Promise<void> {
  const width = page.viewportSize()!.width;
  const boxes: [string, { x: number; y: number; width: number; height: number }][] = [];
  for (const [name, locator] of Object.entries(items)) {
    const box = await locator.boundingBox();
    expect(box, `${name} is shown`).not.toBeNull();
    expect(box!.x, `${name} starts inside the screen`).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `${name} ends inside the screen`).toBeLessThanOrEqual(width + 0.5);
    boxes.push([name, box!]);
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [an, a] = boxes[i]!;
      const [bn, b] = boxes[j]!;
      const apart = a.x + a.width <= b.x + 0.5 || b.x + b.width <= a.x + 0.5 || a.y + a.height <= b.y + 0.5 || b.y + b.height <= a.y + 0.5;
      expect(apart, `${an} and ${bn} do not overlap`).toBe(true);
    }
  }
}

/** axe-core over the whole page, limited to the rules issue 14 named. */
async function expectAxeClean(page: Page, what: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'rule', values: ['label-content-name-mismatch', 'region', 'landmark-unique'] }, resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
  });
  expect(violations, `${what}: axe`).toEqual([]);
}

test.describe('layout at 375, 870 and 1280 px', () => {
  for (const viewport of widths) {
    test(`a visitor's screens fit at ${viewport.width} px`, async ({ page }) => {
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
      await agreeToTerms(page);
      await page.setViewportSize(viewport);

      // The home page: nothing past the edge, and on a phone a post within the first two screens.
      await page.goto('/');
      await expect(page.getByRole('main'), pageErrors.join('\n')).toBeVisible();
      await expectNoHorizontalOverflow(page, '/');
      await expectAxeClean(page, '/');
      if (viewport.width < 870) {
        const post = page.locator('article[data-post-id]').first();
        await expect(post).toBeAttached();
        const top = await post.evaluate((element) => element.getBoundingClientRect().top + window.scrollY);
        expect(top, 'the first post starts within two screens').toBeLessThan(2 * viewport.height);
      }

      // A desktop visitor can log in or sign up without first trying a protected action.
      if (viewport.width >= 1280) {
        await expect(page.getByRole('link', { name: 'Sign up' }).first()).toBeVisible();
        await expect(page.getByRole('button', { name: 'Log in' }).first()).toBeVisible();
      }

      // A creator's profile.
      await page.goto('/lucy.rivers');
      await expect(page.getByRole('heading', { level: 1 }), pageErrors.join('\n')).toBeVisible();
      await expectNoHorizontalOverflow(page, '/lucy.rivers');
      await expectAxeClean(page, '/lucy.rivers');
      // Its "more" menu opens whole inside the screen, wherever the button sits.
      await page.getByRole('button', { name: 'More actions' }).click();
      const menu = page.locator('[data-testid="profile-actions"] ul');
      await expect(menu).toBeVisible();
      await expectApartAndOnScreen(page, { 'the more menu': menu });
      await expectNoHorizontalOverflow(page, 'the profile with its more menu open');
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();

      // The login dialog opened from /sign-up: inside the screen, "Not now" whole, the password
      // clear of its Show password button.
      await page.goto('/sign-up');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoHorizontalOverflow(page, '/sign-up');
      await expectAxeClean(page, '/sign-up');
      await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
      const dialog = page.getByRole('dialog', { name: 'Log in or sign up to continue' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel('E-mail')).toBeFocused();
      await expectNoHorizontalOverflow(page, 'login dialog');
      const password = dialog.getByLabel('Password', { exact: true });
      await password.fill('a rather long password, longer than the field is wide');
      await expectApartAndOnScreen(page, { 'the dialog': dialog });
      await expectApartAndOnScreen(page, {
        'Show password': dialog.getByRole('button', { name: 'Show password' }),
        'Not now': dialog.getByRole('button', { name: 'Not now' }),
        'Close': dialog.getByRole('button', { name: 'Close' }),
      });
      const notNow = dialog.getByRole('button', { name: 'Not now' });
      await notNow.scrollIntoViewIfNeeded();
      await expect(notNow).toBeInViewport({ ratio: 1 });
      // Show password sits inside the field, at its end: the typed text must stop before it.
      const room = await password.evaluate((input) => {
        const button = input.parentElement!.querySelector('button')!.getBoundingClientRect();
        const field = input.getBoundingClientRect();
        return { textEnds: field.right - parseFloat(getComputedStyle(input).paddingRight), buttonStarts: button.left };
      });
      expect(room.textEnds, 'the typed password stops before Show password').toBeLessThanOrEqual(room.buttonStarts + 0.5);
      await notNow.click();
      await expect(dialog).toBeHidden();
      expect(pageErrors).toEqual([]);
    });
  }

  test('a fan buying credits sees whole package cards, and gift names whole, at every width', async ({ page }) => {
    await signUpVerifiedFan(page, 'layoutfan');
    for (const viewport of widths) {
      await page.setViewportSize(viewport);
      await page.goto('/settings/wallet');
      const topUp = page.getByRole('region', { name: 'Buy credits' });
      await expect(topUp.getByRole('radio').first()).toBeVisible();
      await expectNoHorizontalOverflow(page, `wallet at ${viewport.width} px`);
      const cards = topUp.locator('label:has(input[name="package"])');
      const count = await cards.count();
      expect(count).toBeGreaterThan(0);
      const named: Record<string, Locator> = {};
      for (let i = 0; i < count; i++) named[`package ${i + 1}`] = cards.nth(i);
      await expectApartAndOnScreen(page, named);
      // Each of a card's lines (the credits, the price) stays one line: no five-line stacks.
      const lines = await cards.evaluateAll((labels) =>
        labels.flatMap((label) => [...label.querySelectorAll<HTMLElement>('span')].map((span) => ({ text: span.textContent, lines: Math.round(span.getBoundingClientRect().height / parseFloat(getComputedStyle(span).lineHeight)) }))),
      );
      for (const line of lines) expect(line.lines, `"${line.text}" on one line at ${viewport.width} px`).toBeLessThanOrEqual(1);

      // A post's gift picker: each gift's name whole, never broken inside a word.
      await page.goto('/');
      await page.getByRole('button', { name: 'Send a gift' }).first().click();
      const picker = page.getByRole('dialog', { name: 'Send a gift' });
      await expect(picker.getByRole('radio').first()).toBeVisible();
      await expectNoHorizontalOverflow(page, `gift picker at ${viewport.width} px`);
      const names = await picker.getByRole('radio').evaluateAll((gifts) =>
        gifts.map((gift) => {
          const name = gift.querySelector<HTMLElement>('span:not([aria-hidden])')!;
          const style = getComputedStyle(name);
          return { text: name.textContent, fits: name.scrollWidth <= name.clientWidth + 0.5, breaksWords: style.hyphens === 'auto' || style.overflowWrap === 'anywhere' || style.overflowWrap === 'break-word' || style.wordBreak === 'break-all' };
        }),
      );
      for (const name of names) {
        expect(name.fits, `"${name.text}" fits its card at ${viewport.width} px`).toBe(true);
        expect(name.breaksWords, `"${name.text}" is not broken inside a word at ${viewport.width} px`).toBe(false);
      }
      await page.keyboard.press('Escape');
      await expect(picker).toBeHidden();
    }
  });

  test('a creator\'s desktop sidebar at 1280 × 800: navigation and chat panel rows apart, axe clean', async ({ page }) => {
    await logInDemoCreator(page, 'lucy.rivers');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const nav = page.getByTestId('side-nav');
    await expect(nav.getByRole('link', { name: /^Timeline/ })).toBeVisible();
    const aside = page.getByTestId('chat-aside');
    const all = aside.getByRole('link', { name: 'All conversations' });
    await expect(all).toBeVisible();
    await expectNoHorizontalOverflow(page, 'creator home');
    const items: Record<string, Locator> = {};
    const links = nav.getByRole('link');
    for (let i = 0; i < (await links.count()); i++) {
      const link = links.nth(i);
      if (await link.isVisible()) items[`side link "${(await link.textContent())?.trim()}"`] = link;
    }
    // The rows the list shows whole (the list scrolls; rows below its edge are out of sight).
    const rows = aside.getByRole('link', { name: /^Chat with/ });
    const whole = await rows.evaluateAll((links) =>
      links.map((link) => {
        let scroller = link.parentElement;
        while (scroller && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement;
        const box = link.getBoundingClientRect();
        const port = (scroller ?? document.documentElement).getBoundingClientRect();
        return box.top >= port.top - 0.5 && box.bottom <= port.bottom + 0.5;
      }),
    );
    if (whole.length > 0) expect(whole.filter(Boolean).length, 'the chat panel shows at least two whole conversations').toBeGreaterThanOrEqual(Math.min(2, whole.length));
    whole.forEach((shown, i) => {
      if (shown) items[`conversation ${i + 1}`] = rows.nth(i);
    });
    const price = aside.getByText(/^Your message price/);
    if (await price.isVisible()) items['Your message price'] = price;
    items['All conversations'] = all;
    await expectApartAndOnScreen(page, items);
    await expectAxeClean(page, 'creator home');

    // The panel keeps "All conversations" inside its box: the column scrolls, the panel is not cut.
    await all.scrollIntoViewIfNeeded();
    const [allBox, asideBox] = [await all.boundingBox(), await aside.boundingBox()];
    expect(allBox!.y + allBox!.height, '"All conversations" is not clipped by its panel').toBeLessThanOrEqual(asideBox!.y + asideBox!.height + 0.5);
    expect(allBox!.y + allBox!.height, '"All conversations" can be brought on screen').toBeLessThanOrEqual(800 + 0.5);

    // A count on the Notifications or Chat item never covers its icon.
    const badges = nav.locator('[data-testid="chat-badge"], [data-testid="notifications-badge"]');
    await expect(badges.first()).toBeVisible();
    for (let i = 0; i < (await badges.count()); i++) {
      const badge = badges.nth(i);
      const icon = badge.locator('xpath=ancestor::a[1]').locator('svg').first();
      await expectApartAndOnScreen(page, { [`badge ${i + 1}`]: badge, [`its icon ${i + 1}`]: icon });
    }

    // Contact is in the footer on the web too (SPEC §2).
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Contact' })).toBeVisible();
  });

  test('a creator\'s profile on a phone: the whole name in the header, and the actions in one row with a menu', async ({ page }) => {
    await agreeToTerms(page);
    await page.setViewportSize(viewports.phone);
    await page.goto('/lucy.rivers');
    const title = page.getByRole('banner').getByText('Lucy Rivers', { exact: true });
    await expect(title).toBeVisible();
    expect(await title.evaluate((element) => element.scrollWidth <= element.clientWidth + 0.5), 'the header title is not cut').toBe(true);
    const actions = page.getByTestId('profile-actions');
    const row = {
      Follow: actions.getByRole('button', { name: /^Follow/ }),
      Subscribe: actions.getByRole('button', { name: /^Subscribe/ }),
      Call: actions.getByTestId('call-button'),
      More: actions.getByRole('button', { name: 'More actions' }),
    };
    await expect(row.Subscribe).toBeVisible();
    await expectApartAndOnScreen(page, row);
    const boxes = await Promise.all(Object.values(row).map((locator) => locator.boundingBox()));
    const middles = boxes.map((box) => box!.y + box!.height / 2);
    expect(Math.max(...middles) - Math.min(...middles), 'the four controls share one row').toBeLessThanOrEqual(2);
    await expectNoHorizontalOverflow(page, 'a profile at 375 px');
    // Message is in the menu on a phone.
    await row.More.click();
    await expect(actions.getByRole('button', { name: 'Message' })).toBeVisible();
  });

  test('consent starts with statistics and marketing unticked, at every width', async ({ page }) => {
    for (const viewport of widths) {
      await page.context().clearCookies();
      await page.setViewportSize(viewport);
      await page.goto('/');
      const gate = page.getByRole('dialog', { name: /18/ });
      await expect(gate).toBeVisible();
      await expectNoHorizontalOverflow(page, 'age gate');
      await expect(gate.getByRole('button', { name: 'I am 18+ and agree to all' })).toBeFocused();
      await gate.getByRole('button', { name: 'Show advanced cookie settings' }).click();
      await expect(gate.getByRole('checkbox', { name: /Statistics/ })).not.toBeChecked();
      await expect(gate.getByRole('checkbox', { name: /Marketing/ })).not.toBeChecked();
      await expectApartAndOnScreen(page, {
        'Agree to all': gate.getByRole('button', { name: 'I am 18+ and agree to all' }),
        'Agree and save my choice': gate.getByRole('button', { name: 'I am 18+, agree and save my choice' }),
      });
      // Escape does not dismiss the agreement.
      await page.keyboard.press('Escape');
      await expect(gate).toBeVisible();
    }
  });

  // At every width: the profile card's reserved box follows the card's own width (stacked below
  // 30rem, side by side from there), whatever the viewport; the feed, which grows as its posts
  // come, stands last on the page (docs/embedding.md, Keep your page still).
  test('the partner demo does not move while its widgets load, even when the loader comes late', async ({ browser }) => {
    for (const viewport of widths) {
      // A fresh page: nothing cached, the loader held back half a second, as on a slow first
      // visit, so the page paints before it arrives.
      const page = await browser.newPage({ viewport });
      await page.route('**/embed/fanstage.js', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        await route.continue();
      });
      await watchLayoutShifts(page);
      await page.goto('/demo/');
      // Every widget on the page has loaded and drawn itself.
      await expect.poll(() => page.evaluate(() => [...document.querySelectorAll('*')].filter((element) => element.localName.startsWith('fanstage-') && !element.matches(':defined')).length), { timeout: 30_000 }).toBe(0);
      await expect(page.locator('fanstage-profile-card').first().getByRole('heading', { name: 'Lucy Rivers' })).toBeVisible();
      await expect(page.locator('fanstage-feed article').first()).toBeVisible();
      await page.waitForTimeout(1000);
      await expectStill(page, `the partner demo at ${viewport.width} px`);
      await page.close();
    }
  });

  // The home screen draws at once, its creators a moment later: their placeholders hold the
  // place of as many loaded cards, so the posts under them do not jump down when they come.
  test('the home screen does not move while its creators come in', async ({ browser }) => {
    for (const viewport of widths) {
      const page = await browser.newPage({ viewport });
      await agreeToTerms(page);
      // The creators are held back until the placeholders were looked at and the posts are in
      // (however long the page takes to draw on a busy machine), then let go.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/papi\/who-to-follow/, async (route) => {
        await held;
        await route.continue();
      });
      await watchLayoutShifts(page);
      await page.goto('/');
      // While the creators are held back, each placeholder card keeps its lines inside it.
      const placeholders = page.getByTestId('creator-grid-loading').locator('[aria-busy="true"]');
      await expect(placeholders.first()).toBeVisible();
      const outside = await placeholders.evaluateAll((cards) =>
        cards.flatMap((card) => {
          const box = card.getBoundingClientRect();
          return [...card.querySelectorAll('span')].filter((line) => {
            const own = line.getBoundingClientRect();
            return own.width > 0 && (own.left < box.left - 0.5 || own.right > box.right + 0.5);
          }).map((line) => line.outerHTML);
        }),
      );
      expect(outside, `placeholder lines outside their card at ${viewport.width} px`).toEqual([]);
      await expect(page.getByRole('feed').getByRole('article').first()).toBeVisible();
      release();
      await expect(page.getByTestId('creator-grid').getByRole('article').first()).toBeVisible();
      await page.waitForTimeout(1000);
      await expectStill(page, `/ at ${viewport.width} px`);
      await page.close();
    }
  });
});

/** Records the page's layout shifts (not those after a click or key) from its first paint on. */
async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: { value: number; sources: string[] }[] = [];
    (window as unknown as { shifts: typeof shifts }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean; sources: { node?: Node | null }[] }[]) {
        if (!entry.hadRecentInput) shifts.push({ value: entry.value, sources: entry.sources.map((source) => (source.node instanceof Element ? `${source.node.tagName.toLowerCase()}#${source.node.id}.${source.node.className}` : String(source.node?.nodeName))) });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shifts so far add up to 0.01 at most (a tenth of what Web Vitals calls good). */
async function expectStill(page: Page, what: string): Promise<void> {
  const shifts = await page.evaluate(() => (window as unknown as { shifts: { value: number; sources: string[] }[] }).shifts);
  const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
  expect(total, `layout shift of ${what}: ${JSON.stringify(shifts)}`).toBeLessThanOrEqual(0.01);
}
