import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage, type Fanstage } from '../../lib/sdk';
import { PostCard, parseRichText } from '../../lib/ui';
import { sendEnvelope, startApiServer, type ApiServer } from '../unit/support/api-server';
import { author, fakeToken, media, post, settings } from '../unit/support/feed-fixtures';
import { renderWith, violationsIn } from './support/auth';

let server: ApiServer;

beforeAll(async () => {
  server = await startApiServer();
  server.on('/papi/settings', (_req, res) => sendEnvelope(res, { statusCode: 2, body: settings }));
  server.on('/api/posts/1', (req, res) => (req.method === 'DELETE' ? sendEnvelope(res, { statusCode: 1 }) : sendEnvelope(res, { statusCode: -1, statusText: 'not-found' }, 404)));
});

afterAll(() => server.close());

function fanstageWith(...posts: ReturnType<typeof post>[]): Fanstage {
  const fanstage = createFanstage({ baseUrl: server.baseUrl });
  fanstage.posts.remember(posts);
  return fanstage;
}

describe('PostCard', { timeout: 20_000 }, () => {
  it('shows the author, the text with links for mentions, hashtags and addresses, and the stats', async () => {
    const fanstage = fanstageWith(
      post(1, { text: 'Hi @marek.novak, see #summer_2024 at https://example.com/a. Mail me@example.com', totalLikesCount: 1500, totalCommentsCount: 1, totalGiftsCount: 2 }),
    );
    const { container } = renderWith(fanstage, <PostCard postId={1} />);
    const card = await screen.findByRole('article', { name: 'Alice Nováková' });
    expect(within(card).getByRole('link', { name: 'Alice Nováková' })).toHaveAttribute('href', '/Alice');
    expect(within(card).getByRole('link', { name: '@marek.novak' })).toHaveAttribute('href', '/marek.novak');
    expect(within(card).getByRole('link', { name: '#summer_2024' })).toHaveAttribute('href', '/search-hashtags/summer_2024');
    expect(within(card).getByRole('link', { name: 'https://example.com/a' })).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(within(card).queryByRole('link', { name: /@example.com/ })).toBeNull();
    expect(within(card).getByText('1.5k likes')).toBeInTheDocument();
    expect(within(card).getByText('1 comment')).toBeInTheDocument();
    expect(within(card).getByText('2 gifts')).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);
  });

  it('takes the links from the host', async () => {
    const fanstage = fanstageWith(post(1, { text: '#tag' }));
    renderWith(fanstage, <PostCard postId={1} hrefs={{ hashtag: (tag) => `/tags/${tag}`, profile: (u) => `/u/${u}` }} />);
    expect(await screen.findByRole('link', { name: '#tag' })).toHaveAttribute('href', '/tags/tag');
    expect(screen.getByRole('link', { name: 'Alice Nováková' })).toHaveAttribute('href', '/u/Alice');
  });

  it('shows a locked media blurred, with its price, and never its original address', async () => {
    const fanstage = fanstageWith(post(1, { media: [media({ mediaPrice: 320, mediaHash: 'locked1' })] }));
    renderWith(fanstage, <PostCard postId={1} onUnlock={() => undefined} />);
    const image = await screen.findByRole('img', { name: 'Photo by Alice Nováková, locked' });
    await waitFor(() => expect(image.getAttribute('src')).toBe('https://cdn.example/media/locked1.jpg?t=blur'));
    expect(image).not.toHaveAttribute('srcset');
    expect(screen.getByText('Locked · $3.20')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unlock for $3.20' })).toBeInTheDocument();
  });

  it('shows an unlocked media with its key', async () => {
    const fanstage = fanstageWith(post(1, { media: [media({ mediaPrice: 320, mediaHash: 'open1', mediaUnlockHash: 'key1' })] }));
    renderWith(fanstage, <PostCard postId={1} />);
    const button = await screen.findByRole('button', { name: 'Photo by Alice Nováková, open full screen' });
    await waitFor(() => expect(within(button).getByRole('img').getAttribute('src')).toBe('https://cdn.example/media/open1.jpg?t=640&k=key1'));
  });

  it('shows the owner the locked view until show unlocked', async () => {
    const fanstage = fanstageWith(post(1, { isMy: true, media: [media({ mediaPrice: 320, mediaHash: 'mine', mediaUnlockHash: 'ownerkey', mediaIsOwner: true })] }));
    renderWith(fanstage, <PostCard postId={1} />);
    await screen.findByText('Locked · $3.20');
    await userEvent.click(screen.getByRole('button', { name: 'Show unlocked' }));
    expect(screen.getByRole('button', { name: 'Photo by Alice Nováková, open full screen' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show as fans see it' }));
    expect(screen.getByText('Locked · $3.20')).toBeInTheDocument();
  });

  it('marks a scheduled post and disables its actions', async () => {
    const fanstage = fanstageWith(post(1, { isMy: true, startDate: Date.now() + 86_400_000 }));
    renderWith(fanstage, <PostCard postId={1} />);
    expect(await screen.findByText('Scheduled')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Like' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Share' })).toBeDisabled();
  });

  it('hands gift and chat to the host, and offers neither on the viewer\'s own post', async () => {
    const fanstage = fanstageWith(post(1), post(2, { isMy: true, user: author({ id: 5, username: 'me', displayName: 'Me' }) }));
    fanstage.session.adopt({ accessToken: fakeToken(5) });
    const gifts: number[] = [];
    const chats: number[] = [];
    renderWith(
      fanstage,
      <>
        <PostCard postId={1} onGift={(p) => gifts.push(p.id)} onChat={(p) => chats.push(p.id)} />
        <PostCard postId={2} onGift={(p) => gifts.push(p.id)} onChat={(p) => chats.push(p.id)} />
      </>,
    );
    const theirs = await screen.findByRole('article', { name: 'Alice Nováková' });
    await userEvent.click(within(theirs).getByRole('button', { name: 'Send a gift' }));
    await userEvent.click(within(theirs).getByRole('button', { name: 'Chat with Alice Nováková' }));
    expect(gifts).toEqual([1]);
    expect(chats).toEqual([1]);
    const mine = screen.getByRole('article', { name: 'Me' });
    expect(within(mine).queryByRole('button', { name: 'Send a gift' })).toBeNull();
    expect(within(mine).queryByRole('button', { name: /Chat with/ })).toBeNull();
    expect(within(mine).queryByRole('button', { name: /Follow/ })).toBeNull();
  });

  it('lets the owner delete the post after confirming', async () => {
    const fanstage = fanstageWith(post(1, { isMy: true }));
    fanstage.session.adopt({ accessToken: fakeToken(42) });
    const deleted: number[] = [];
    renderWith(fanstage, <PostCard postId={1} onDeleted={(p) => deleted.push(p.id)} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Delete this post?');
    await userEvent.click(screen.getByRole('button', { name: 'Delete post' }));
    await waitFor(() => expect(screen.queryByRole('article')).toBeNull());
    expect(deleted).toEqual([1]);
  });

  it('opens the share dialog and gives focus back when it closes', async () => {
    const fanstage = fanstageWith(post(1));
    renderWith(fanstage, <PostCard postId={1} />);
    const share = await screen.findByRole('button', { name: 'Share' });
    await userEvent.click(share);
    const dialog = await screen.findByRole('dialog', { name: 'Share' });
    expect(within(dialog).getByRole('link', { name: /WhatsApp/ })).toHaveAttribute('href', expect.stringContaining('api.whatsapp.com'));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(share).toHaveFocus();
  });
});

describe('seen reports', { timeout: 20_000 }, () => {
  it('go out once a post stayed half visible for 400 ms', async () => {
    // jsdom has no layout, so no IntersectionObserver: a minimal one reports what a browser would.
    const observers: Array<(ratio: number) => void> = [];
    class VisibleObserver {
      constructor(private readonly callback: IntersectionObserverCallback) {}
      observe() {
        observers.push((ratio) => this.callback([{ intersectionRatio: ratio } as IntersectionObserverEntry], this as unknown as IntersectionObserver));
      }
      disconnect() {}
      unobserve() {}
    }
    const original = globalThis.IntersectionObserver;
    globalThis.IntersectionObserver = VisibleObserver as unknown as typeof IntersectionObserver;
    server.on('/papi/ga/', (_req, res) => sendEnvelope(res, { statusCode: 1 }));
    try {
      const fanstage = fanstageWith(post(1));
      renderWith(fanstage, <PostCard postId={1} />);
      await screen.findByRole('article', { name: 'Alice Nováková' });
      const report = observers.at(-1) as (ratio: number) => void;
      report(0.3);
      await new Promise((resolve) => setTimeout(resolve, 450));
      expect(fanstage.posts.wasSeen(1)).toBe(false);
      report(0.6);
      await waitFor(() => expect(fanstage.posts.wasSeen(1)).toBe(true));
      await waitFor(() => expect(server.requests.filter((r) => r.url === '/papi/ga/')).toHaveLength(1));
      const sent = JSON.parse(server.requests.find((r) => r.url === '/papi/ga/')?.body ?? '{}') as { postId: number; duration: number; visibleRatio: number };
      expect(sent.postId).toBe(1);
      expect(sent.visibleRatio).toBe(0.6);
      expect(sent.duration).toBeGreaterThanOrEqual(400);
    } finally {
      globalThis.IntersectionObserver = original;
    }
  });
});

describe('rich text', () => {
  it('keeps invalid hashtags and glued at-signs as text', () => {
    expect(parseRichText('#123 a@b.cz C#').every((part) => part.kind === 'text')).toBe(true);
    expect(parseRichText('go #ok!').map((p) => p.kind)).toEqual(['text', 'hashtag', 'text']);
  });
});
