import { expect, test, type Page } from '@playwright/test';
import type { Post } from '../../lib/contract';
import { agreeToTerms, apiProfile, expectNoSeriousA11yViolations, viewports } from './support';
import { signUpVerifiedFan, testPassword } from './postsSupport';
import { postThroughApi, signUpCreator } from './creatorSupport';

interface Envelope<T> {
  statusCode: number;
  body: T;
}

/**
 * The seeded people (docs/development.md): a fan and the administrator. The creator whose post
 * is hidden is one of the test's own (creatorSupport.ts): hiding a seeded creator's post would
 * change what the journeys beside this one show of her.
 */
const demoPassword = 'fanstage-demo';
const fan = 'tom.baker@example.com';
const admin = 'fanstage.admin@example.com';

/**
 * Signs in through the API: the refresh cookie lands in the page's context and the site resumes
 * it. A demo account takes its demo password, or the test password the run's global setup gives
 * the seeded creators (globalSetup.ts); no reset mail is asked for here.
 */
async function signIn(page: Page, email: string): Promise<void> {
  await agreeToTerms(page);
  for (const password of [demoPassword, testPassword]) {
    const login = (await (await page.request.post('/papi/login', { data: { email, password } })).json()) as { statusCode: number; statusText?: string };
    if (login.statusCode === 2) return;
    expect(login.statusText).toBe('invalid-credentials');
  }
  throw new Error(`${email} takes neither the demo nor the test password`);
}

/** Opens the creator's profile and waits for the grid of her posts. */
async function openProfile(page: Page, creator: string) {
  await page.goto(`/${creator}`);
  const grid = page.getByTestId('profile-posts');
  await expect(grid.locator('a[href^="/post/"]').first()).toBeVisible();
  return grid;
}

test('a fan reports a post from its card, the administrator hides it, its author is told and nobody sees it any more', async ({ browser }) => {
  test.setTimeout(180_000);
  const contexts = await Promise.all([0, 1, 2, 3, 4].map(() => browser.newContext({ viewport: viewports.web })));
  const [fanPage, moderator, author, visitor, otherFan] = await Promise.all(contexts.map((context) => context.newPage()));

  // The post: a free photo of hers with a caption, which every visitor sees in her profile's grid
  // and on its own page (the older of her two). She has a profile picture, as most creators do.
  const own = await signUpCreator(visitor!.request, { name: 'Lola', avatar: true });
  const creator = own.username;
  await postThroughApi(visitor!.request, own.token, 'Golden hour on the river, straight out of the camera', 0);
  // And a later one, which stays in her grid.
  await postThroughApi(visitor!.request, own.token, 'The same river at dawn', 0);
  const her = await apiProfile(visitor!.request, creator);
  const grid = ((await (await visitor!.request.get(`/papi/posts/media/timeline/${her.id}?limit=15`)).json()) as Envelope<Post[]>).body;
  const post = grid.filter((p) => p.text.trim() !== '' && p.media.length > 0 && p.media.every((m) => !(m.mediaPrice > 0))).at(-1);
  expect(post, 'a free post of hers with text and media').toBeDefined();
  const postId = post!.id;
  const herName = her.displayName.trim() || her.username;
  await agreeToTerms(visitor!);
  await signUpVerifiedFan(otherFan!, 'moderationfan');
  for (const page of [visitor!, otherFan!]) {
    const profile = await openProfile(page, creator);
    await expect(profile.locator(`a[href="/post/${postId}"]`)).toHaveCount(1);
    await page.goto(`/post/${postId}`);
    await expect(page.locator(`article[data-post-id="${postId}"]`)).toBeVisible();
  }
  // A visitor has no Report action: the form is for signed-in people.
  await expect(visitor!.locator(`article[data-post-id="${postId}"]`).getByRole('link', { name: /^Report/ })).toHaveCount(0);

  // The fan opens it from her profile and reports it from its card. (Her profile's own report
  // form, from the More actions menu, names the profile and its picture as hers.)
  await signIn(fanPage!, fan);
  await openProfile(fanPage!, creator);
  await fanPage!.getByRole('button', { name: 'More actions' }).click();
  await fanPage!.getByTestId('profile-actions').getByRole('link', { name: 'Report' }).click();
  const profileReport = fanPage!.getByTestId('abuse-thing');
  await expect(profileReport).toContainText('With a profile picture');
  await expect(profileReport).toContainText(`${herName} @${creator}`);
  await expect(profileReport).not.toContainText(/\bBy\b|pictures? or videos?/);
  await (await openProfile(fanPage!, creator)).locator(`a[href="/post/${postId}"]`).click();
  const card = fanPage!.locator(`article[data-post-id="${postId}"]`);
  await card.getByRole('link', { name: `Report the post of ${herName}` }).click();
  await expect(fanPage!).toHaveURL(new RegExp(`/abuse-form\\?type=post&id=${postId}$`));
  const form = fanPage!.getByTestId('abuse-form');
  await expect(form.getByRole('heading', { level: 1, name: 'Report' })).toBeVisible();
  const reported = form.getByTestId('abuse-thing');
  await expect(reported).toContainText('A post');
  await expect(reported).toContainText(`@${creator}`);
  await expect(reported).toContainText(post!.text.trim().slice(0, 40));
  // Sending without a reason asks for one first.
  await form.getByRole('button', { name: 'Send report' }).click();
  await expect(form.locator('p', { hasText: 'Choose a reason' })).toBeVisible();
  await expect(form.getByLabel('Reason')).toBeFocused();
  await form.getByLabel('Reason').selectOption('spam');
  await form.getByLabel('Details (optional)').fill('Selling followers in every post.');
  await expectNoSeriousA11yViolations(fanPage!);
  await form.getByRole('button', { name: 'Send report' }).click();
  await expect(form.getByText('Thank you. Your report was sent to our team.')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Send report' })).toHaveCount(0);

  // The administrator finds it in the queue and hides the post.
  await signIn(moderator!, admin);
  await moderator!.goto('/admin');
  const queue = moderator!.getByTestId('admin-abuse');
  await expect(queue.getByRole('heading', { name: 'Reports' })).toBeVisible();
  const row = queue.locator(`[data-testid="abuse-report"][data-type="post"][data-target-id="${postId}"]`);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Spam or scam');
  await expect(row).toContainText('Selling followers in every post.');
  await expect(row).toContainText('@tom.baker');
  await expectNoSeriousA11yViolations(moderator!);
  await row.getByRole('button', { name: /^Hide post: report \d+$/ }).click();
  await expect(queue.getByText('The post is hidden and its author was told.')).toBeVisible();
  await expect(row).toHaveCount(0);

  // She reads why in her notifications.
  await signIn(author!, own.email);
  await author!.goto('/notifications');
  await expect(author!.getByText('An administrator removed your content')).toBeVisible();

  // Gone for everyone: the visitor and another fan, on the profile and on the post's page.
  for (const page of [visitor!, otherFan!]) {
    const profile = await openProfile(page, creator);
    await expect(profile.locator(`a[href="/post/${postId}"]`)).toHaveCount(0);
    await page.goto(`/post/${postId}`);
    await expect(page.getByTestId('not-found')).toBeVisible();
    await expect(page.locator(`article[data-post-id="${postId}"]`)).toHaveCount(0);
  }

  await Promise.all(contexts.map((context) => context.close()));
});
