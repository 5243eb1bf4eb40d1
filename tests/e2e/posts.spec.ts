import { expect, test, type Page } from '@playwright/test';
import { agreeToTerms, expectNoSeriousA11yViolations, viewports } from './support';
import { apiPost, jpeg, signUpVerifiedFan } from './postsSupport';
import { logInCreator, signUpCreator } from './creatorSupport';

/** The card of the post whose caption is `caption`, wherever it is on the page. */
const cardOf = (page: Page, caption: string) => page.getByRole('article').filter({ hasText: caption });

async function postIdOf(page: Page, caption: string): Promise<number> {
  const id = Number(await cardOf(page, caption).first().getAttribute('data-post-id'));
  expect(id).toBeGreaterThan(0);
  return id;
}

/** Stats as the card writes them: "1 like", "2 comments". */
async function expectCounts(page: Page, caption: string, likes: string, comments: string) {
  const stats = cardOf(page, caption).getByRole('list', { name: 'Post statistics' });
  await expect(stats).toContainText(likes);
  await expect(stats).toContainText(comments);
}

/** Opens the editor the way a creator on a wide screen does: the side navigation's add-post button. */
async function chooseMediaForNewPost(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'New post' }).click();
  await (await chooser).setFiles(file);
  await expect(page).toHaveURL('/new-post');
}

test('a creator posts a locked photo, a fan sees it locked, likes and comments, the creator replies, and a scheduled post stays hidden', async ({ browser }) => {
  test.setTimeout(180_000);
  const creatorContext = await browser.newContext({ viewport: viewports.web });
  const fanContext = await browser.newContext({ viewport: viewports.phone });
  const creator = await creatorContext.newPage();
  const fan = await fanContext.newPage();
  const stamp = Date.now();
  const caption = `Sunrise over the hills ${stamp}`;
  const scheduledCaption = `Tomorrow's surprise ${stamp}`;

  // A creator of the test's own (a seller, so prices stick): her posts, likes and comments are
  // hers alone, whatever runs beside.
  const made = await signUpCreator(creator.request, { name: 'Nina', avatar: true });
  const creatorName = made.username;
  await logInCreator(creator, made);
  await signUpVerifiedFan(fan, 'postsfan');

  // The fan follows the creator, so her posts belong on the fan's private timeline.
  await fan.goto(`/${creatorName}`);
  await fan.getByTestId('profile-actions').getByRole('button', { pressed: false }).first().click();
  await expect(fan.getByTestId('profile-actions').getByRole('button', { pressed: true })).toBeVisible();

  // The creator picks a photo, writes a caption, picks a price step and posts.
  await creator.goto('/timeline');
  await chooseMediaForNewPost(creator, { name: 'sunrise.jpg', mimeType: 'image/jpeg', buffer: await jpeg(1200, 800) });
  await creator.getByLabel('Caption').fill(caption);
  const prices = creator.getByRole('group', { name: 'Price to unlock' });
  await prices.getByRole('radio').nth(1).check();
  await creator.getByRole('button', { name: 'Post', exact: true }).click();
  // Published, the post leads the creator's own timeline.
  await expect(creator).toHaveURL('/timeline');
  await expect(cardOf(creator, caption)).toBeVisible();

  // A second post, scheduled for tomorrow, from the Timeline's quick post box of creators.
  await creator.getByTestId('quick-post').getByRole('link', { name: 'Share a photo or a video with your fans' }).click();
  await expect(creator).toHaveURL('/new-post');
  await creator.getByLabel('Caption').fill(scheduledCaption);
  await creator.getByRole('checkbox', { name: 'Publish later' }).check();
  const tomorrow = new Date(Date.now() + 24 * 3600_000);
  const local = new Date(tomorrow.getTime() - tomorrow.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  await creator.getByLabel('Publish at').fill(local);
  await creator.getByRole('button', { name: 'Schedule', exact: true }).click();

  // Scheduled, it waits in the creator's list of scheduled posts.
  await expect(creator).toHaveURL('/feed/scheduled-posts');
  await expect(cardOf(creator, scheduledCaption)).toBeVisible();
  const scheduledId = await postIdOf(creator, scheduledCaption);

  // The fan's timeline shows the photo locked: blurred preview and the lock with its price.
  await fan.goto('/timeline');
  await expect(fan.getByTestId('top-users').getByRole('link').first()).toBeVisible();
  const card = cardOf(fan, caption);
  await expect(card).toBeVisible();
  const figure = card.locator('figure[data-locked]');
  await expect(figure).toBeVisible();
  await expect(figure).toContainText('Locked');
  const preview = card.getByRole('img', { name: /locked/ });
  await expect(preview).toHaveAttribute('src', /[?&]t=blur\b/);
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(cardOf(fan, scheduledCaption)).toHaveCount(0);
  const postId = await postIdOf(fan, caption);

  // The original (and any sharp variant) without a valid key is refused; the blur is served.
  const { envelope } = await apiPost(fan.request, postId);
  const media = envelope.body!.media[0]!;
  expect(media.mediaUnlockHash).toBeNull();
  // The first step above free of the post-media steps (SPEC §9), stored in cents.
  expect(media.mediaPrice).toBe(32);
  const original = `/media/${media.mediaHash}.${media.format}`;
  expect((await fan.request.get(original)).status()).toBe(403);
  expect((await fan.request.get(`${original}?k=not-a-key`)).status()).toBe(403);
  expect((await fan.request.get(`${original}?t=1280`)).status()).toBe(403);
  expect((await fan.request.get(`${original}?t=blur`)).status()).toBe(200);

  // The creator's profile grid shows the post locked as well.
  await fan.goto(`/${creatorName}`);
  const tile = fan.getByTestId('profile-posts').getByRole('link', { name: new RegExp(`${caption}.*locked`) });
  await expect(tile).toHaveAttribute('href', `/post/${postId}`);
  await expect(tile.locator('img')).toHaveAttribute('src', /[?&]t=blur\b/);
  // Back on her timeline, liking at once: the page is still loading the public timeline that
  // continues her short one, and an answer of it asked before the like does not undo it.
  await fan.goto('/timeline');

  // The scheduled post is not there for the fan, not even by its address.
  const scheduled = await apiPost(fan.request, scheduledId);
  expect(scheduled.envelope.statusCode).toBe(-1);

  // The fan likes and comments on the post's page.
  await card.getByRole('button', { name: 'Like' }).click();
  await expect(card.getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'true');
  // …and stays liked once every answer of the page is in.
  await fan.waitForLoadState('networkidle');
  await expect(card.getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'true');
  await fan.goto(`/post/${postId}`);
  await fan.getByLabel('Write a comment').fill('Gorgeous light!');
  await fan.getByRole('button', { name: 'Send', exact: true }).click();
  // The composer empties once the comment is stored; then the text is the comment's alone.
  await expect(fan.getByLabel('Write a comment')).toHaveValue('');
  await expect(fan.getByText('Gorgeous light!')).toBeVisible();

  // The creator replies to the fan's comment.
  await creator.goto(`/post/${postId}`);
  const comment = creator.getByRole('article').filter({ hasText: 'Gorgeous light!' }).last();
  await expect(comment).toBeVisible();
  await comment.getByRole('button', { name: 'Reply' }).first().click();
  await creator.getByLabel(/Reply to/).fill('Thank you, it was 5 a.m.!');
  await creator.getByRole('button', { name: 'Send', exact: true }).last().click();
  // Once the reply lands, its form closes; then the text is the reply's alone.
  await expect(creator.getByLabel(/Reply to/)).toHaveCount(0);
  await expect(creator.getByText('Thank you, it was 5 a.m.!')).toBeVisible();

  // After a reload both see one like and two comments (the reply counts).
  await creator.reload();
  await fan.reload();
  await expectCounts(creator, caption, '1 like', '2 comments');
  await expectCounts(fan, caption, '1 like', '2 comments');
  await expect(fan.getByText('Thank you, it was 5 a.m.!')).toBeVisible();
  // The reloaded page asks as the fan, not as a visitor: her like is still hers.
  await expect(cardOf(fan, caption).first().getByRole('button', { name: 'Like' }).first()).toHaveAttribute('aria-pressed', 'true');
  await fan.goto('/timeline');
  await expectCounts(fan, caption, '1 like', '2 comments');

  // The creator sees her own photo locked, as fans do, until she asks to see it; then it opens
  // full screen at its own address, and Escape goes back to the post.
  await creator.goto(`/post/${postId}`);
  const own = cardOf(creator, caption).first();
  await own.getByRole('button', { name: 'Show unlocked' }).click();
  await own.getByRole('button', { name: /open full screen/ }).click();
  await expect(creator).toHaveURL(`/post/${postId}/${media.mediaId}/full-screen-media`);
  await expect(creator.getByRole('dialog')).toBeVisible();
  await creator.keyboard.press('Escape');
  await expect(creator).toHaveURL(`/post/${postId}`);

  // She edits the caption from the card; the post page shows the new one.
  await cardOf(creator, caption).first().getByRole('link', { name: 'Edit' }).click();
  await expect(creator).toHaveURL(`/update-post/${postId}`);
  await creator.getByLabel('Caption').fill(`${caption} (edited)`);
  await creator.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(creator).toHaveURL(`/post/${postId}`);
  await expect(cardOf(creator, `${caption} (edited)`).first()).toBeVisible();

  await creatorContext.close();
  await fanContext.close();
});

test('the timeline and the post screens pass an automated accessibility check on phone, tablet and web', async ({ page }) => {
  test.setTimeout(120_000);
  await signUpVerifiedFan(page, 'a11yfan');
  for (const viewport of [viewports.phone, viewports.tablet, viewports.web]) {
    await page.setViewportSize(viewport);
    await page.goto('/timeline');
    const first = page.getByRole('feed').getByRole('article').first();
    await expect(first).toBeVisible();
    // Nothing pushes the page sideways at any width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await expectNoSeriousA11yViolations(page);

    const id = Number(await first.getAttribute('data-post-id'));
    await page.goto(`/post/${id}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeAttached();
    await expect(page.getByRole('article').first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await expectNoSeriousA11yViolations(page);
  }
});

test('a visitor on / sees public posts and is asked to log in to like; a logged-in user on / lands on /timeline with the query', async ({ page }) => {
  await page.setViewportSize(viewports.web);
  await agreeToTerms(page);
  await page.goto('/');
  const feed = page.getByRole('feed', { name: 'Latest posts' });
  await expect(feed.getByRole('article').first()).toBeVisible();
  await feed.getByRole('article').first().getByRole('button', { name: 'Like' }).click();
  await expect(page.getByRole('dialog', { name: 'Log in or sign up to continue' })).toBeVisible();
  await page.keyboard.press('Escape');

  // A visitor opening the editor is asked to log in instead.
  await page.goto('/new-post');
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('dialog', { name: 'Log in or sign up to continue' })).toBeVisible();

  // The header's gender filter: visitors choose among 1–4 (not "everyone"); a choice reloads the list.
  await page.goto('/');
  const filter = page.getByTestId('gender-filter');
  await expect(filter.locator('option')).toHaveText(['Women', 'Men', 'Couples', 'Trans']);
  const filtered = page.waitForRequest((r) => r.url().includes('/papi/2/timeline') && /[?&]gender=2\b/.test(r.url()));
  await filter.selectOption({ label: 'Men' });
  await filtered;

  await signUpVerifiedFan(page, 'redirectfan');
  await page.goto('/?aff=ABCDEFGH');
  await expect(page).toHaveURL('/timeline?aff=ABCDEFGH');
  // Logged in, "everyone" is offered too.
  await expect(page.getByTestId('gender-filter').locator('option')).toHaveText(['Everyone', 'Women', 'Men', 'Couples', 'Trans']);
});
