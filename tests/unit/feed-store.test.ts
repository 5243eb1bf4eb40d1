import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { effect } from '@preact/signals-core';
import { createFanstage, type FeedStatus, type Fanstage } from '../../lib/sdk';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type AccountOptions } from '../support/accounts';
import { eq, sql } from '../support/db';
import { posts, postStats } from '../../server/src/db/schema';
import { follow, person, post, type Person } from '../server/support-feeds';

let server: TestServer;

// No demo content, and every post of the tests before deleted: the public timeline holds exactly
// the posts a test makes.
beforeAll(async () => {
  server = await startTestServer({ seed: false });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

beforeEach(async () => {
  await server.app.fanstage.db.update(posts).set({ deletedAt: new Date() }).where(sql`${posts.deletedAt} is null`);
});

interface Page {
  fanstage: Fanstage;
  /** The addresses the page asked, in order. */
  asked: string[];
  userId: number | null;
}

function page(token?: string, userId: number | null = null): Page {
  const asked: string[] = [];
  const recording: typeof fetch = (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    asked.push(url.pathname + url.search);
    return fetch(input, init);
  };
  const fanstage = createFanstage({ baseUrl: server.baseUrl, fetch: recording });
  if (token) fanstage.session.adopt({ accessToken: token });
  return { fanstage, asked, userId };
}

/** A visitor's page. */
const visitor = () => page();

/**
 * A signed-in fan's page. Logged-in viewers read the public timeline fresh, while visitors
 * share a first page held for a moment (timeline/domain.ts), which would hide the posts a test
 * adds between two looks.
 */
async function signedIn(options: AccountOptions = {}): Promise<Page> {
  const account = await createAccount(server.app, options);
  return page(account.accessToken, account.id);
}

/** The signed-in page of an existing person (a creator made with `person`). */
const pageOf = (who: Person) => page(who.token, who.id);

const creator = (fields: Parameters<typeof person>[1] = {}) => person(server.app, fields);

/** Where the next posts start, so each call's posts are newer than the ones before. */
let clock = 0;
/** `count` posts of `author`, a minute apart, the last one newest; their ids and times, oldest first. */
async function postsOf(author: Person, count: number): Promise<{ ids: number[]; times: number[] }> {
  const ids: number[] = [];
  const times: number[] = [];
  clock = Math.max(clock + 60_000, Date.now() - 24 * 3_600_000);
  for (let i = 0; i < count; i++) {
    const at = new Date(clock + i * 60_000);
    ids.push((await post(server.app, author.id, { text: `Post ${i + 1}`, publishedAt: at })).id);
    times.push(at.getTime());
  }
  clock += count * 60_000;
  return { ids, times };
}

const keys = (list: readonly number[]) => list.map((id) => `p${id}`);
const newestFirst = (ids: readonly number[]) => [...ids].reverse();

function postIds(fanstage: Fanstage, type: 'public' | 'private'): number[] {
  return fanstage.feeds
    .feed(type)
    .items.value.filter((item) => item.kind === 'post')
    .map((item) => (item.kind === 'post' ? item.id : 0));
}

describe('a feed against the real server', { timeout: 30_000 }, () => {
  it('goes from not loaded through loading to ready, and ends exactly when a page is short', async () => {
    const { ids, times } = await postsOf(await creator(), 40);
    const { fanstage, asked } = await signedIn();
    const feed = fanstage.feeds.feed('public');
    const seen: FeedStatus[] = [];
    const stop = effect(() => {
      seen.push(feed.status.value);
    });
    await feed.loadMore();
    expect(postIds(fanstage, 'public')).toEqual(newestFirst(ids).slice(0, 15));
    await feed.loadMore();
    expect(feed.status.value).toBe('ready');
    // 40 posts: 15 + 15 + 10, and the short third page ends the list.
    await feed.loadMore();
    stop();
    expect(postIds(fanstage, 'public')).toEqual(newestFirst(ids));
    expect(feed.status.value).toBe('ended');
    expect(seen).toEqual(['idle', 'loading', 'ready', 'loading', 'ready', 'loading', 'ended']);
    // The pages were asked by the ts of the last post, with the timeline's page size.
    const pages = asked.filter((url) => url.startsWith('/papi/2/timeline'));
    expect(pages).toEqual(['/papi/2/timeline?limit=15', `/papi/2/timeline?limit=15&ts=${times[25]}`, `/papi/2/timeline?limit=15&ts=${times[10]}`]);
  });

  it('asks nothing more once it has ended', async () => {
    await postsOf(await creator(), 3);
    const { fanstage, asked } = await signedIn();
    const feed = fanstage.feeds.feed('public');
    await feed.loadMore();
    expect(feed.status.value).toBe('ended');
    const before = asked.length;
    await feed.loadMore();
    expect(feed.status.value).toBe('ended');
    expect(asked.length).toBe(before);
  });

  it('is one object per type and parameter, so two screens share its pages', () => {
    const { fanstage } = visitor();
    expect(fanstage.feeds.feed('profile', '@Alice')).toBe(fanstage.feeds.feed('profile', 'alice'));
    expect(fanstage.feeds.feed('profile', 'alice')).not.toBe(fanstage.feeds.feed('profile', 'bob'));
    expect(fanstage.feeds.feed('public', undefined, { gender: 2 })).not.toBe(fanstage.feeds.feed('public'));
  });

  it('loads a profile by username', async () => {
    await postsOf(await creator(), 4);
    const bob = await creator();
    const { ids } = await postsOf(bob, 2);
    const { fanstage } = visitor();
    const feed = fanstage.feeds.feed('profile', bob.username);
    await feed.loadMore();
    expect(feed.items.value.map((i) => i.key)).toEqual(keys(newestFirst(ids)));
    expect(feed.status.value).toBe('ended');
  });
});

describe('likes against the real server', { timeout: 30_000 }, () => {
  it('toggle likedByMe and the count in every list at once, then take the server\'s count', async () => {
    const author = await creator();
    const { ids } = await postsOf(author, 3);
    const liked = ids[2]!;
    const { fanstage, userId } = await signedIn();
    await follow(server.app, userId!, author.id);
    await Promise.all([fanstage.feeds.feed('public').loadMore(), fanstage.feeds.feed('private').loadMore()]);
    expect(postIds(fanstage, 'private')).toContain(liked);
    expect(postIds(fanstage, 'public')).toContain(liked);
    // Someone else likes it after the lists were loaded: the page does not know yet.
    await (await signedIn()).fanstage.posts.api.like(liked);
    const pending = fanstage.posts.toggleLike(liked);
    // Optimistic: the same post object behind both lists shows the like before the answer.
    expect(fanstage.posts.get(liked).post.value).toMatchObject({ likedByMe: true, totalLikesCount: 1 });
    expect(fanstage.posts.pendingLikes.value.has(liked)).toBe(true);
    await pending;
    expect(fanstage.posts.get(liked).post.value).toMatchObject({ likedByMe: true, totalLikesCount: 2 });
    expect(fanstage.posts.pendingLikes.value.has(liked)).toBe(false);
  });

  it('are not undone by a list asked before the like and answered after it', async () => {
    const { ids } = await postsOf(await creator(), 1);
    const id = ids[0]!;
    const { fanstage } = await signedIn();
    await fanstage.feeds.feed('public').loadMore();
    // A list asked now (a slow public timeline beside the private one)…
    const askedAt = fanstage.posts.stamp();
    const before = await fanstage.posts.api.post(id, true);
    expect(before).toMatchObject({ likedByMe: false, totalLikesCount: 0 });
    // …answers while the like is on its way, and again after it was stored.
    const liking = fanstage.posts.toggleLike(id);
    fanstage.posts.remember([before], askedAt);
    expect(fanstage.posts.get(id).post.value).toMatchObject({ likedByMe: true, totalLikesCount: 1 });
    await liking;
    fanstage.posts.remember([before], askedAt);
    expect(fanstage.posts.get(id).post.value).toMatchObject({ likedByMe: true, totalLikesCount: 1 });
    // A list asked after the like is newer than the page: its figures are taken.
    await (await signedIn()).fanstage.posts.api.like(id);
    const askedAfter = fanstage.posts.stamp();
    fanstage.posts.remember([await fanstage.posts.api.post(id, true)], askedAfter);
    expect(fanstage.posts.get(id).post.value).toMatchObject({ likedByMe: true, totalLikesCount: 2 });
  });

  it('are rolled back when the server refuses', async () => {
    const { ids } = await postsOf(await creator(), 1);
    // Liking needs a verified e-mail (the server's rule).
    const { fanstage } = await signedIn({ verified: false });
    await fanstage.feeds.feed('public').loadMore();
    await expect(fanstage.posts.toggleLike(ids[0]!)).rejects.toMatchObject({ code: 'email-not-verified' });
    expect(fanstage.posts.get(ids[0]!).post.value).toMatchObject({ likedByMe: false, totalLikesCount: 0 });
  });

  it('need a login', async () => {
    const { ids } = await postsOf(await creator(), 1);
    const { fanstage, asked } = await signedIn();
    await fanstage.feeds.feed('public').loadMore();
    const out = visitor();
    out.fanstage.posts.remember([fanstage.posts.get(ids[0]!).post.value!]);
    await expect(out.fanstage.posts.toggleLike(ids[0]!)).rejects.toMatchObject({ code: 'unauthorized' });
    expect(out.asked).toEqual([]);
    expect(asked.some((url) => url.includes('/likes'))).toBe(false);
  });
});

describe('following an author, against the real server', { timeout: 30_000 }, () => {
  it('shows on every post of that author', async () => {
    const author = await creator();
    const { ids } = await postsOf(author, 2);
    const { fanstage } = await signedIn();
    await fanstage.feeds.feed('public').loadMore();
    expect(fanstage.posts.get(ids[1]!).post.value?.user.isFollowed).toBe(false);
    await fanstage.relations.follow(author.id);
    expect(fanstage.posts.get(ids[1]!).post.value?.user.isFollowed).toBe(true);
    expect(fanstage.posts.get(ids[0]!).post.value?.user.isFollowed).toBe(true);
    // And the server says so on a fresh page.
    const fresh = page(fanstage.session.accessToken.value!);
    expect((await fresh.fanstage.posts.api.post(ids[0]!, true)).user.isFollowed).toBe(true);
  });

  it('is not undone by a list of the author’s posts answered before the follow and arriving after it', async () => {
    const author = await creator();
    const { ids } = await postsOf(author, 1);
    const { fanstage } = await signedIn();
    await fanstage.profiles.load(author.username);
    // A page of the author's posts asked before the follow: its author is not followed yet.
    const before = await fanstage.posts.api.post(ids[0]!, true);
    expect(before.user.isFollowed).toBe(false);
    await fanstage.relations.follow(author.id);
    // …and it arrives now, as a slow timeline answer does.
    fanstage.posts.remember([before]);
    expect(fanstage.profiles.peek(author.id)?.isFollowed).toBe(true);
    expect(fanstage.posts.get(ids[0]!).post.value?.user.isFollowed).toBe(true);
  });
});

describe('deleting a post, against the real server', { timeout: 30_000 }, () => {
  it('removes it from every list', async () => {
    const me = await creator();
    const { ids } = await postsOf(me, 3);
    const { fanstage } = pageOf(me);
    await Promise.all([fanstage.feeds.feed('public').loadMore(), fanstage.feeds.feed('private').loadMore()]);
    expect(postIds(fanstage, 'private')).toContain(ids[2]);
    await fanstage.posts.remove(ids[2]!);
    expect(postIds(fanstage, 'public')).not.toContain(ids[2]);
    expect(postIds(fanstage, 'private')).not.toContain(ids[2]);
    await expect(fanstage.posts.api.post(ids[2]!, true)).rejects.toMatchObject({ code: 'post-doesnt-exists' });
  });
});

describe('a short private timeline, against the real server', { timeout: 30_000 }, () => {
  it('continues with public posts after a divider, without the posts it already shows', async () => {
    const other = await postsOf(await creator(), 2);
    const followed = await creator();
    const mine = await postsOf(followed, 3);
    const { fanstage, userId } = await signedIn();
    await follow(server.app, userId!, followed.id);
    const feed = fanstage.feeds.feed('private');
    await feed.loadMore();
    // The public part loads by itself once the private one has ended short.
    await fanstage.feeds.feed('public').loadMore();
    expect(feed.items.value.map((item) => item.key)).toEqual([...keys(newestFirst(mine.ids)), 'divider', ...keys(newestFirst(other.ids))]);
  });

  it('continues with the public posts of the chosen gender filter', async () => {
    const woman = await postsOf(await creator({ gender: 2 }), 1);
    const man = await postsOf(await creator({ gender: 1 }), 1);
    const followed = await creator();
    const mine = await postsOf(followed, 2);
    const { fanstage, userId, asked } = await signedIn();
    await follow(server.app, userId!, followed.id);
    const feed = fanstage.feeds.feed('private', undefined, { gender: 2 });
    await feed.loadMore();
    await fanstage.feeds.feed('public', undefined, { gender: 2 }).loadMore();
    expect(asked.some((url) => url.startsWith('/papi/2/timeline') && new URL(url, 'http://x').searchParams.get('gender') === '2')).toBe(true);
    // Filter 2 is men: his post follows, hers does not; two private posts need no divider.
    expect(feed.items.value.map((item) => item.key)).toEqual([...keys(newestFirst(mine.ids)), ...keys(man.ids)]);
    expect(keys(woman.ids).some((key) => feed.items.value.some((item) => item.key === key))).toBe(false);
    expect(fanstage.feeds.feed('private')).not.toBe(feed);
  });

  it('has no divider with two posts or fewer', async () => {
    await postsOf(await creator(), 2);
    const followed = await creator();
    await postsOf(followed, 2);
    const { fanstage, userId } = await signedIn();
    await follow(server.app, userId!, followed.id);
    await fanstage.feeds.feed('private').loadMore();
    await fanstage.feeds.feed('public').loadMore();
    expect(fanstage.feeds.feed('private').items.value).toHaveLength(4);
    expect(fanstage.feeds.feed('private').items.value.some((item) => item.kind === 'divider')).toBe(false);
  });

  it('stays its own list with 7 posts or more', async () => {
    await postsOf(await creator(), 2);
    const followed = await creator();
    const mine = await postsOf(followed, 7);
    const { fanstage, userId } = await signedIn();
    await follow(server.app, userId!, followed.id);
    const feed = fanstage.feeds.feed('private');
    await feed.loadMore();
    expect(feed.status.value).toBe('ended');
    expect(feed.items.value.map((item) => item.key)).toEqual(keys(newestFirst(mine.ids)));
  });
});

describe('new posts, against the real server', { timeout: 30_000 }, () => {
  it('are found by checkNew and put on top by showNew', async () => {
    const author = await creator();
    const { ids } = await postsOf(author, 10);
    const { fanstage } = await signedIn();
    const feed = fanstage.feeds.feed('public');
    await feed.loadMore();
    expect(await feed.checkNew()).toBe(0);
    const later = await postsOf(author, 2);
    expect(await feed.checkNew()).toBe(2);
    expect(feed.newCount.value).toBe(2);
    feed.showNew();
    expect(feed.items.value.slice(0, 3).map((i) => i.key)).toEqual(keys([later.ids[1]!, later.ids[0]!, ids[9]!]));
    expect(feed.newCount.value).toBe(0);
  });

  it('that the viewer creates go on top of the private timeline', async () => {
    const followed = await creator();
    await postsOf(followed, 10);
    const { fanstage, userId } = await signedIn({ seller: true });
    await follow(server.app, userId!, followed.id);
    const feed = fanstage.feeds.feed('private');
    await feed.loadMore();
    const created = await fanstage.posts.create({ text: 'Hello' });
    expect(feed.items.value[0]?.key).toBe(`p${created.id}`);
    expect(feed.items.value).toHaveLength(11);
  });
});

describe('the viewer changing', { timeout: 30_000 }, () => {
  it('starts every list over', async () => {
    await postsOf(await creator(), 2);
    const { fanstage } = visitor();
    const feed = fanstage.feeds.feed('public');
    await feed.loadMore();
    expect(feed.items.value).toHaveLength(2);
    fanstage.session.adopt({ accessToken: (await createAccount(server.app)).accessToken });
    expect(feed.status.value).toBe('idle');
    expect(feed.items.value).toEqual([]);
  });
});

describe('seen reports, against the real server', { timeout: 30_000 }, () => {
  it('are sent once per post per session', async () => {
    const { ids } = await postsOf(await creator(), 1);
    const { fanstage, asked } = visitor();
    expect(fanstage.posts.markSeen(ids[0]!, { duration: 420.4, visibleRatio: 0.8 })).toBe(true);
    expect(fanstage.posts.markSeen(ids[0]!, { duration: 900, visibleRatio: 1 })).toBe(false);
    const stored = () => server.app.fanstage.db.select().from(postStats).where(eq(postStats.postId, ids[0]!));
    await expect.poll(async () => (await stored()).length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(asked.filter((url) => url === '/papi/ga/')).toHaveLength(1);
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'seen', userId: null, durationMs: 420, visibleRatio: 0.8 });
  });
});
