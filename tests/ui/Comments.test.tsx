import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage, type Fanstage } from '../../lib/sdk';
import { Comments } from '../../lib/ui';
import type { TestServer } from '../support/server';
import { person, post, type Person } from '../server/support-feeds';
import { renderWith, violationsIn } from './support/auth';
import { startRealServer } from './support/realServer';

let server: TestServer;

beforeAll(async () => {
  server = await startRealServer({ seed: false });
}, 60_000);

afterAll(async () => {
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
}, 30_000);

async function fanstageOf(who?: Person): Promise<Fanstage> {
  const fanstage = createFanstage({ baseUrl: server.baseUrl });
  if (who) {
    fanstage.session.adopt({ accessToken: who.token });
    await fanstage.session.loadAccount();
  }
  return fanstage;
}

interface Thread {
  postId: number;
  me: Person;
  /** The viewer's page: signed in as "Me", or a visitor's. */
  fanstage: Fanstage;
  ids: { first: number; second: number; mine: number };
}

/**
 * Alice's post with, newest first: Bob's "First" with one reply, Bob's "Second" with three, and
 * the viewer's own "Mine" — 7 comments, 3 of them top-level — all made through the API.
 */
async function setup(loggedIn: boolean): Promise<Thread> {
  const alice = await person(server.app, { displayName: 'Alice' });
  const bob = await person(server.app, { displayName: 'Bob', isSeller: false });
  const me = await person(server.app, { displayName: 'Me', isSeller: false });
  const { id: postId } = await post(server.app, alice.id, { text: 'Talk to me', publishedAt: new Date(Date.now() - 60_000) });
  const asBob = await fanstageOf(bob);
  const asMe = await fanstageOf(me);
  const mine = await asMe.posts.api.comment({ postId, text: 'Mine' });
  const second = await asBob.posts.api.comment({ postId, text: 'Second' });
  for (const text of ['Reply one', 'Reply two', 'Reply three']) await asBob.posts.api.comment({ postId, parentId: second.id, text });
  const first = await asBob.posts.api.comment({ postId, text: 'First' });
  await asBob.posts.api.comment({ postId, parentId: first.id, text: 'Early reply' });
  const fanstage = loggedIn ? asMe : await fanstageOf();
  await fanstage.posts.load(postId);
  return { postId, me, fanstage, ids: { first: first.id, second: second.id, mine: mine.id } };
}

/** The post's top-level comments as the server now lists them to `fanstage`'s viewer. */
async function stored(thread: Thread) {
  return thread.fanstage.posts.api.comments(thread.postId, {}, true);
}

describe('Comments against the real server', { timeout: 30_000 }, () => {
  it('show replies by themselves when there are fewer than 3, and on request otherwise', async () => {
    const { fanstage, postId } = await setup(true);
    const { container } = renderWith(fanstage, <Comments postId={postId} />);
    expect(await screen.findByText('Early reply')).toBeInTheDocument();
    expect(screen.queryByText('Reply one')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'View 3 replies' }));
    expect(await screen.findByText('Reply three')).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);
  });

  it('open the thread an address names and mark its comment', async () => {
    const { fanstage, postId, ids } = await setup(true);
    renderWith(fanstage, <Comments postId={postId} focusCommentId={ids.second} />);
    // Three replies do not open by themselves; the named comment's thread does.
    expect(await screen.findByText('Reply three')).toBeInTheDocument();
    const named = screen.getByText('Second').closest('article')!;
    expect(named).toHaveAttribute('aria-current', 'true');
    expect(screen.getByText('First').closest('article')).not.toHaveAttribute('aria-current');
    await waitFor(() => expect(document.activeElement).toBe(named));
  });

  it('post a comment on top and count it on the post', async () => {
    const thread = await setup(true);
    const { fanstage, postId } = thread;
    expect(fanstage.posts.peek(postId)).toMatchObject({ totalCommentsCount: 7, commentsCount: 3 });
    renderWith(fanstage, <Comments postId={postId} />);
    await screen.findByText('First');
    await userEvent.type(screen.getByRole('textbox', { name: 'Write a comment' }), 'Lovely');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getAllByRole('article')[0]).toHaveTextContent('Lovely'));
    expect(fanstage.posts.peek(postId)).toMatchObject({ totalCommentsCount: 8, commentsCount: 4 });
    expect((await stored(thread)).map((c) => c.text)).toEqual(['Lovely', 'First', 'Second', 'Mine']);
  });

  it('reply under a comment', async () => {
    const thread = await setup(true);
    const { fanstage, postId } = thread;
    renderWith(fanstage, <Comments postId={postId} />);
    const first = (await screen.findByText('First')).closest('li') as HTMLElement;
    await userEvent.click(within(first).getAllByRole('button', { name: 'Reply' })[0] as HTMLElement);
    await userEvent.type(within(first).getByRole('textbox', { name: 'Reply to Bob' }), 'Thanks{Enter}');
    await waitFor(() => expect(within(first).getByText('Thanks')).toBeInTheDocument());
    expect(fanstage.posts.peek(postId)).toMatchObject({ totalCommentsCount: 8, commentsCount: 3 });
    const replies = await fanstage.posts.api.replies(thread.ids.first, {}, true);
    expect(replies.map((c) => [c.text, c.user.displayName])).toEqual([
      ['Early reply', 'Bob'],
      ['Thanks', 'Me'],
    ]);
  });

  it('like, link others\' comments to the report form and delete one\'s own', async () => {
    const thread = await setup(true);
    const { fanstage, postId } = thread;
    renderWith(fanstage, <Comments postId={postId} />);
    const first = (await screen.findByText('First')).closest('article') as HTMLElement;
    await userEvent.click(within(first).getByRole('button', { name: 'Like' }));
    expect(within(first).getByRole('button', { name: /Like/ })).toHaveAttribute('aria-pressed', 'true');
    // Reporting goes through the site's report form, with the comment in the address.
    const commentId = Number(first.getAttribute('data-comment-id'));
    expect(within(first).getByRole('link', { name: 'Report Bob’s comment' })).toHaveAttribute('href', `/abuse-form?type=comment&id=${commentId}`);
    const mine = screen.getByText('Mine').closest('article') as HTMLElement;
    expect(within(mine).queryByRole('link', { name: /Report/ })).toBeNull();
    await userEvent.click(within(mine).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Mine')).toBeNull());
    // The server agrees: the like is stored, the own comment is gone.
    const now = await stored(thread);
    expect(now.map((c) => c.text)).toEqual(['First', 'Second']);
    expect(now[0]).toMatchObject({ isLiked: true, likesCount: 1 });
  });

  it('ask a visitor to log in to comment', async () => {
    const { fanstage, postId } = await setup(false);
    let asked = 0;
    renderWith(fanstage, <Comments postId={postId} onLoginRequired={() => void (asked += 1)} />);
    expect(await screen.findByText('First')).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Log in to comment' }));
    expect(asked).toBe(1);
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});
