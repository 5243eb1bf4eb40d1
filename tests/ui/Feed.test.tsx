import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage } from '../../lib/sdk';
import { Feed, toRows, useWindowedList, type WindowedRange } from '../../lib/ui';
import { render } from '@testing-library/react';
import { useLayoutEffect, useRef } from 'react';
import type { TestServer } from '../support/server';
import { eq, sql } from '../support/db';
import { posts, users } from '../../server/src/db/schema';
import { person, post, type Person } from '../server/support-feeds';
import { renderWith, violationsIn } from './support/auth';
import { loggedInOn, startRealServer } from './support/realServer';
import { defineElements, feedTag } from '../../elements';

let server: TestServer;

// No demo content: each test states which posts exist, and the public timeline shows just those.
beforeAll(async () => {
  server = await startRealServer({ seed: false });
}, 60_000);

afterAll(async () => {
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
}, 30_000);

beforeEach(async () => {
  await server.app.fanstage.db.update(posts).set({ deletedAt: new Date() }).where(sql`${posts.deletedAt} is null`);
});

/** A creator (a woman, as the public timeline's default filter shows) with a display name. */
function creator(displayName: string): Promise<Person> {
  return person(server.app, { displayName });
}

/**
 * `count` posts of `authors` in turn, a minute apart and all in the past, the last one newest;
 * answers their ids oldest first.
 */
async function postsBy(authors: Person[], count: number): Promise<number[]> {
  const ids: number[] = [];
  const start = Date.now() - (count + 1) * 60_000;
  for (let i = 0; i < count; i++) {
    const { id } = await post(server.app, authors[i % authors.length]!.id, { text: `Post ${i + 1}`, publishedAt: new Date(start + i * 60_000) });
    ids.push(id);
  }
  return ids;
}

/** A signed-in fan: logged-in viewers always read the timeline fresh (no visitors' first-page cache). */
async function fan() {
  return (await loggedInOn(server)).fanstage;
}

describe('Feed against the real server', { timeout: 30_000 }, () => {
  it('renders only the posts near the viewport of a long feed, and more on request', async () => {
    await postsBy([await creator('Long Feed')], 40);
    const fanstage = await fan();
    renderWith(fanstage, <Feed type="public" whoToFollow={false} checkNewEvery={0} />);
    const feed = await screen.findByRole('feed', { name: 'Public timeline' });
    await waitFor(() => expect(fanstage.feeds.feed('public').items.value).toHaveLength(15));
    // 15 posts loaded, a handful rendered: the rest are space standing in for them.
    const rendered = within(feed).getAllByRole('article').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(8);
    expect(within(feed).getAllByRole('article')[0]).toHaveAttribute('aria-posinset', '1');
    await userEvent.click(screen.getByRole('button', { name: 'Show more posts' }));
    await waitFor(() => expect(fanstage.feeds.feed('public').items.value).toHaveLength(30));
  });

  it('ends with the caught-up marker once a page is short', async () => {
    await postsBy([await creator('Short Feed')], 3);
    const fanstage = await fan();
    const { container } = renderWith(fanstage, <Feed type="public" whoToFollow={false} checkNewEvery={0} />);
    expect(await screen.findByText("You're All Caught up")).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Show more posts' })).toBeNull();
    expect(await violationsIn(container)).toEqual([]);
  });

  it('shows the placeholder when there are no posts', async () => {
    const fanstage = await fan();
    renderWith(fanstage, <Feed type="public" whoToFollow={false} checkNewEvery={0} />);
    expect(await screen.findByText('No posts yet.')).toBeInTheDocument();
    expect(screen.queryByRole('article')).toBeNull();
  });

  it('shows the Load New Posts banner when newer posts exist, and puts them on top', async () => {
    const author = await creator('News Feed');
    const [, , third] = await postsBy([author], 3);
    const fanstage = await fan();
    renderWith(fanstage, <Feed type="public" whoToFollow={false} checkNewEvery={0} />);
    await screen.findByText("You're All Caught up");
    expect(screen.getAllByRole('article')[0]).toHaveAttribute('data-post-id', String(third));
    const { id: newest } = await post(server.app, author.id, { text: 'Just now' });
    await fanstage.feeds.feed('public').checkNew();
    await userEvent.click(await screen.findByRole('button', { name: 'Load 1 new post' }));
    await waitFor(() => expect(screen.getAllByRole('article')[0]).toHaveAttribute('data-post-id', String(newest)));
  });

  it('lets a logged-in fan like a post, and the count follows on the server too', async () => {
    const author = await creator('Liked Creator');
    const [id] = await postsBy([author], 1);
    // Two other fans liked it already.
    for (let i = 0; i < 2; i++) await (await fan()).posts.api.like(id!);
    const fanstage = await fan();
    renderWith(fanstage, <Feed type="public" whoToFollow={false} checkNewEvery={0} />);
    const first = await screen.findByRole('article', { name: 'Liked Creator' });
    expect(within(first).getByText('2 likes')).toBeInTheDocument();
    await userEvent.click(within(first).getByRole('button', { name: 'Like' }));
    await waitFor(() => expect(within(first).getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'true'));
    expect(within(first).getByText('3 likes')).toBeInTheDocument();
    const stored = await fanstage.posts.api.post(id!, true);
    expect(stored).toMatchObject({ likedByMe: true, totalLikesCount: 3 });
  });

  it('asks a visitor to log in instead of liking', async () => {
    const visited = await creator('Visited Creator');
    await postsBy([visited], 1);
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    const reasons: string[] = [];
    // Her profile's feed, not the public timeline: a visitor's first page of that is sent as
    // ready JSON bytes, which Fastify running inside this jsdom environment takes for an object
    // (jsdom's ArrayBuffer is not Node's) — the e2e tests cover the visitor's public timeline.
    renderWith(fanstage, <Feed type="profile" param={visited.username} checkNewEvery={0} onLoginRequired={(reason) => void reasons.push(reason)} />);
    const first = await screen.findByRole('article', { name: 'Visited Creator' });
    await userEvent.click(within(first).getByRole('button', { name: 'Like' }));
    expect(reasons).toEqual(['like']);
    expect(within(first).getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'false');
    expect(within(first).getByText('0 likes')).toBeInTheDocument();
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
    const authors = [await creator('Timeline One'), await creator('Timeline Two')];
    await postsBy(authors, 12);
    // The most followed creator heads the suggestions.
    const star = await creator('Star Creator');
    await server.app.fanstage.db.update(users).set({ followersCount: 1_000_000 }).where(eq(users.id, star.id));
    const fanstage = await fan();
    // Tall estimates would window the block away; small ones render the first rows together.
    renderWith(fanstage, <Feed type="public" checkNewEvery={0} estimatedPostHeight={100} />);
    // 12 posts: a block after the fifth and one after the tenth.
    const blocks = await screen.findAllByRole('region', { name: 'Who to follow' });
    expect(blocks).toHaveLength(2);
    const block = blocks[0] as HTMLElement;
    expect(await within(block).findByRole('link', { name: 'Star Creator' })).toHaveAttribute('href', `/${star.username}`);
  });
});

describe('<fanstage-feed>', { timeout: 30_000 }, () => {
  it('shows a creator\'s posts in its shadow root, linking to the platform', async () => {
    const [theirs, other] = [await creator('Element Creator'), await creator('Someone Else')];
    const ids = await postsBy([theirs, other], 8);
    defineElements();
    const element = document.createElement(feedTag);
    element.setAttribute('creator', `@${theirs.username}`);
    element.setAttribute('api-base', server.baseUrl);
    element.setAttribute('language', 'cs');
    document.body.append(element);
    try {
      await waitFor(() => expect(element.shadowRoot?.querySelectorAll('article').length).toBeGreaterThan(0), { timeout: 5000 });
      const root = element.shadowRoot as ShadowRoot;
      const first = root.querySelector('article') as HTMLElement;
      // Her posts only (the 1st, 3rd, 5th and 7th of 8), newest first, in Czech.
      expect(first.getAttribute('data-post-id')).toBe(String(ids[6]));
      expect(within(first).getByRole('link', { name: 'Element Creator' })).toHaveAttribute('href', `${server.baseUrl}/${theirs.username}`);
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
