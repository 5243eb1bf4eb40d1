import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage } from '../../lib/sdk';
import type { Post } from '../../lib/contract';
import { Feed, toRows, useWindowedList, type WindowedRange } from '../../lib/ui';
import { render } from '@testing-library/react';
import { useLayoutEffect, useRef } from 'react';
import { sendEnvelope, startApiServer, type ApiServer } from '../unit/support/api-server';
import { author, fakeToken, page, post, settings } from '../unit/support/feed-fixtures';
import { profile } from '../unit/support/profiles';
import { renderWith, violationsIn } from './support/auth';
import { defineElements, feedTag } from '../../elements';

let server: ApiServer;
let publicPosts: Post[];

function range(from: number, to: number): Post[] {
  return Array.from({ length: to - from + 1 }, (_, i) => post(from + i, { user: author({ id: 100 + ((from + i) % 3), username: `creator${(from + i) % 3}`, displayName: `Creator ${(from + i) % 3}` }) }));
}

beforeAll(async () => {
  server = await startApiServer();
  server.on('/papi/settings', (_req, res) => sendEnvelope(res, { statusCode: 2, body: settings }));
  server.on('/papi/2/timeline', (req, res) => sendEnvelope(res, { statusCode: 2, body: page(publicPosts, req.url) }));
  server.on('/papi/who-to-follow', (_req, res) =>
    sendEnvelope(res, { statusCode: 2, body: [profile({ id: 201, username: 'suggested1', displayName: 'Suggested One' }), profile({ id: 202, username: 'suggested2', displayName: 'Suggested Two' })] }),
  );
  server.on('/papi/2/posts', (req, res) => {
    const username = new URL(req.url, 'http://x').searchParams.get('username');
    sendEnvelope(res, { statusCode: 2, body: page(publicPosts.filter((p) => p.user.username === username), req.url) });
  });
  server.on('/api/posts/12/likes', (req, res) => sendEnvelope(res, { statusCode: 2, body: { likedByMe: req.method === 'POST', totalLikesCount: 4 } }));
});

afterAll(() => server.close());

beforeEach(() => {
  publicPosts = range(1, 12);
});

describe('Feed', { timeout: 20_000 }, () => {
  it('renders only the posts near the viewport of a long feed, and more on request', async () => {
    publicPosts = range(1, 40);
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    renderWith(fanstage, <Feed type="public" whoToFollow={false} checkNewEvery={0} />);
    const feed = await screen.findByRole('feed', { name: 'Public timeline' });
    await waitFor(() => expect(within(feed).getAllByRole('article').length).toBeGreaterThan(0));
    // 15 posts loaded, a handful rendered: the rest are space standing in for them.
    const rendered = within(feed).getAllByRole('article').length;
    expect(rendered).toBeLessThan(8);
    expect(within(feed).getAllByRole('article')[0]).toHaveAttribute('aria-posinset', '1');
    await userEvent.click(screen.getByRole('button', { name: 'Show more posts' }));
    await waitFor(() => expect(fanstage.feeds.feed('public').items.value).toHaveLength(30));
  });

  it('ends with the caught-up marker once a page is short', async () => {
    publicPosts = range(1, 3);
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    const { container } = renderWith(fanstage, <Feed type="public" whoToFollow={false} checkNewEvery={0} />);
    expect(await screen.findByText("You're All Caught up")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more posts' })).toBeNull();
    expect(await violationsIn(container)).toEqual([]);
  });

  it('shows the placeholder when there are no posts', async () => {
    publicPosts = [];
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    renderWith(fanstage, <Feed type="public" whoToFollow={false} checkNewEvery={0} />);
    expect(await screen.findByText('No posts yet.')).toBeInTheDocument();
  });

  it('shows the Load New Posts banner when newer posts exist, and puts them on top', async () => {
    publicPosts = range(1, 3);
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    renderWith(fanstage, <Feed type="public" whoToFollow={false} checkNewEvery={0} />);
    await screen.findByText("You're All Caught up");
    publicPosts = range(1, 4);
    await fanstage.feeds.feed('public').checkNew();
    await userEvent.click(await screen.findByRole('button', { name: 'Load 1 new post' }));
    await waitFor(() => expect(screen.getAllByRole('article')[0]).toHaveAttribute('data-post-id', '4'));
  });

  it('lets a logged-in fan like a post, and the count follows', async () => {
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    fanstage.session.adopt({ accessToken: fakeToken(5) });
    renderWith(fanstage, <Feed type="public" whoToFollow={false} checkNewEvery={0} />);
    const first = await screen.findByRole('article', { name: 'Creator 0' });
    expect(within(first).getByText('3 likes')).toBeInTheDocument();
    await userEvent.click(within(first).getByRole('button', { name: 'Like' }));
    await waitFor(() => expect(within(first).getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'true'));
    expect(within(first).getByText('4 likes')).toBeInTheDocument();
  });

  it('asks a visitor to log in instead of liking', async () => {
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    const reasons: string[] = [];
    renderWith(fanstage, <Feed type="public" whoToFollow={false} checkNewEvery={0} onLoginRequired={(reason) => void reasons.push(reason)} />);
    const first = await screen.findByRole('article', { name: 'Creator 0' });
    await userEvent.click(within(first).getByRole('button', { name: 'Like' }));
    expect(reasons).toEqual(['like']);
    expect(within(first).getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'false');
  });
});

describe('Feed rows', { timeout: 20_000 }, () => {
  it('put a who-to-follow block after every 5 posts', () => {
    const items = Array.from({ length: 11 }, (_, i) => ({ kind: 'post' as const, id: i + 1, key: `p${i + 1}` }));
    const rows = toRows(items, true);
    expect(rows.map((row) => row.kind).join(',')).toBe('post,post,post,post,post,whoToFollow,post,post,post,post,post,whoToFollow,post');
    expect(toRows(items, false).some((row) => row.kind === 'whoToFollow')).toBe(false);
  });

  it('show who to follow between the posts of a timeline', async () => {
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    // Tall estimates would window the block away; small ones render the first rows together.
    renderWith(fanstage, <Feed type="public" checkNewEvery={0} estimatedPostHeight={100} />);
    // 12 posts: a block after the fifth and one after the tenth.
    const blocks = await screen.findAllByRole('region', { name: 'Who to follow' });
    expect(blocks).toHaveLength(2);
    const block = blocks[0] as HTMLElement;
    expect(within(block).getByRole('link', { name: 'Suggested One' })).toHaveAttribute('href', '/suggested1');
  });
});

describe('<fanstage-feed>', { timeout: 20_000 }, () => {
  it('shows a creator\'s posts in its shadow root, linking to the platform', async () => {
    defineElements();
    const element = document.createElement(feedTag);
    element.setAttribute('creator', '@creator1');
    element.setAttribute('api-base', server.baseUrl);
    element.setAttribute('language', 'cs');
    document.body.append(element);
    try {
      await waitFor(() => expect(element.shadowRoot?.querySelectorAll('article').length).toBeGreaterThan(0), { timeout: 5000 });
      const root = element.shadowRoot as ShadowRoot;
      const first = root.querySelector('article') as HTMLElement;
      // Posts of creator1 only (ids 1, 4, 7, 10 of 12), newest first, in Czech.
      expect(first.getAttribute('data-post-id')).toBe('10');
      expect(within(first).getByRole('link', { name: 'Creator 1' })).toHaveAttribute('href', `${server.baseUrl}/creator1`);
      expect(within(first).getByRole('button', { name: 'Líbí se mi' })).toBeInTheDocument();
      expect(root.querySelector('style')?.textContent).toContain('fs-PostCard-card');
    } finally {
      element.remove();
    }
  });
});

describe('windowing', () => {
  const keys = Array.from({ length: 100 }, (_, i) => `k${i}`);

  /** A list scrolled so that its top is `top` px above the viewport. */
  function rangeAt(top: number, pinned: string | null = null): WindowedRange {
    let last: WindowedRange | null = null;
    function Probe() {
      const ref = useRef<HTMLDivElement>(null);
      useLayoutEffect(() => {
        if (ref.current) ref.current.getBoundingClientRect = () => ({ top: -top }) as DOMRect;
      });
      last = useWindowedList(keys, ref, 100, 3, pinned).range;
      return <div ref={ref} />;
    }
    render(<Probe />);
    window.dispatchEvent(new Event('resize'));
    return last as unknown as WindowedRange;
  }

  it('renders the rows around the viewport and stands in for the rest with their heights', async () => {
    rangeAt(5000);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const range = rangeAt(5000);
    // One viewport (768 px) above and two below 5000 px, at 100 px a row.
    expect(range.start).toBe(42);
    expect(range.end).toBe(66);
    expect(range.before).toBe(4200);
    expect(range.after).toBe(3400);
  });

  it('keeps the focused row rendered unless it is far away', () => {
    expect(rangeAt(5000, 'k30').start).toBe(30);
    expect(rangeAt(5000, 'k5').start).toBe(42);
  });
});
