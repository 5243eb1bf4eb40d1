import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage } from '../../lib/sdk';
import type { Comment } from '../../lib/contract';
import { Comments } from '../../lib/ui';
import { sendEnvelope, startApiServer, type ApiServer } from '../unit/support/api-server';
import { comment, fakeToken, post, settings } from '../unit/support/feed-fixtures';
import { profile } from '../unit/support/profiles';
import { renderWith, violationsIn } from './support/auth';

let server: ApiServer;
let topLevel: Comment[];

beforeAll(async () => {
  server = await startApiServer();
  server.on('/papi/settings', (_req, res) => sendEnvelope(res, { statusCode: 2, body: settings }));
  const list = (_req: unknown, res: Parameters<typeof sendEnvelope>[0]) => sendEnvelope(res, { statusCode: 2, body: topLevel });
  server.on('/papi/posts/1/comments', list);
  server.on('/api/posts/1/comments', list);
  server.on('/api/posts/comments/2', (_req, res) =>
    sendEnvelope(res, { statusCode: 2, body: [comment(21, { parentId: 2, text: 'Reply one' }), comment(22, { parentId: 2, text: 'Reply two' }), comment(23, { parentId: 2, text: 'Reply three' })] }),
  );
  server.on('/api/posts/comments', (req, res) => {
    const body = JSON.parse(req.body) as { text: string; parentId?: number };
    sendEnvelope(res, { statusCode: 2, body: comment(99, { text: body.text, parentId: body.parentId ?? null, user: profile({ id: 5, username: 'me', displayName: 'Me' }), canDelete: true }) });
  });
  server.on('/api/posts/comments/1/like', (_req, res) => sendEnvelope(res, { statusCode: 1 }));
  server.on('/api/posts/comments/1/report', (_req, res) => sendEnvelope(res, { statusCode: 1 }));
  server.on('/api/posts/comments/3', (_req, res) => sendEnvelope(res, { statusCode: 1 }));
});

afterAll(() => server.close());

function setup(loggedIn: boolean) {
  topLevel = [
    comment(1, { text: 'First', childrenCount: 1, replies: [comment(11, { parentId: 1, text: 'Early reply' })] }),
    comment(2, { text: 'Second', childrenCount: 3, replies: [] }),
    comment(3, { text: 'Mine', user: profile({ id: 5, username: 'me', displayName: 'Me' }), canDelete: true }),
  ];
  const fanstage = createFanstage({ baseUrl: server.baseUrl });
  fanstage.posts.remember([post(1, { totalCommentsCount: 5, commentsCount: 3 })]);
  if (loggedIn) fanstage.session.adopt({ accessToken: fakeToken(5) });
  return fanstage;
}

describe('Comments', { timeout: 20_000 }, () => {
  it('show replies by themselves when there are fewer than 3, and on request otherwise', async () => {
    const fanstage = setup(true);
    const { container } = renderWith(fanstage, <Comments postId={1} />);
    expect(await screen.findByText('Early reply')).toBeInTheDocument();
    expect(screen.queryByText('Reply one')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'View 3 replies' }));
    expect(await screen.findByText('Reply three')).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);
  });

  it('open the thread an address names and mark its comment', async () => {
    const fanstage = setup(true);
    renderWith(fanstage, <Comments postId={1} focusCommentId={2} />);
    // Three replies do not open by themselves; the named comment's thread does.
    expect(await screen.findByText('Reply three')).toBeInTheDocument();
    const named = screen.getByText('Second').closest('article')!;
    expect(named).toHaveAttribute('aria-current', 'true');
    expect(screen.getByText('First').closest('article')).not.toHaveAttribute('aria-current');
    await waitFor(() => expect(document.activeElement).toBe(named));
  });

  it('post a comment on top and count it on the post', async () => {
    const fanstage = setup(true);
    renderWith(fanstage, <Comments postId={1} />);
    await screen.findByText('First');
    await userEvent.type(screen.getByRole('textbox', { name: 'Write a comment' }), 'Lovely');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getAllByRole('article')[0]).toHaveTextContent('Lovely'));
    expect(fanstage.posts.peek(1)).toMatchObject({ totalCommentsCount: 6, commentsCount: 4 });
  });

  it('reply under a comment', async () => {
    const fanstage = setup(true);
    renderWith(fanstage, <Comments postId={1} />);
    const first = (await screen.findByText('First')).closest('li') as HTMLElement;
    await userEvent.click(within(first).getAllByRole('button', { name: 'Reply' })[0] as HTMLElement);
    await userEvent.type(within(first).getByRole('textbox', { name: 'Reply to Bob' }), 'Thanks{Enter}');
    await waitFor(() => expect(within(first).getByText('Thanks')).toBeInTheDocument());
    expect(fanstage.posts.peek(1)).toMatchObject({ totalCommentsCount: 6, commentsCount: 3 });
  });

  it('like, report others\' comments and delete one\'s own', async () => {
    const fanstage = setup(true);
    renderWith(fanstage, <Comments postId={1} />);
    const first = (await screen.findByText('First')).closest('article') as HTMLElement;
    await userEvent.click(within(first).getByRole('button', { name: 'Like' }));
    expect(within(first).getByRole('button', { name: /Like/ })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(first).getByRole('button', { name: 'Report' }));
    await waitFor(() => expect(within(first).getByRole('button', { name: 'Reported' })).toBeDisabled());
    const mine = screen.getByText('Mine').closest('article') as HTMLElement;
    expect(within(mine).queryByRole('button', { name: 'Report' })).toBeNull();
    await userEvent.click(within(mine).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Mine')).toBeNull());
  });

  it('ask a visitor to log in to comment', async () => {
    const fanstage = setup(false);
    let asked = 0;
    renderWith(fanstage, <Comments postId={1} onLoginRequired={() => void (asked += 1)} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Log in to comment' }));
    expect(asked).toBe(1);
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});
