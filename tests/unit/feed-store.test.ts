import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { effect } from '@preact/signals-core';
import { createFanstage, type FeedStatus, type Fanstage } from '../../lib/sdk';
import type { Post } from '../../lib/contract';
import { sendEnvelope, startApiServer, type ApiServer } from './support/api-server';
import { author, fakeToken, page, post } from './support/feed-fixtures';

let server: ApiServer;
let publicPosts: Post[];
let privatePosts: Post[];
let likeFails = false;
let publicRequests: string[] = [];

function range(from: number, to: number, make: (id: number) => Post = (id) => post(id)): Post[] {
  const list: Post[] = [];
  for (let id = from; id <= to; id++) list.push(make(id));
  return list;
}

beforeAll(async () => {
  server = await startApiServer();
  server.on('/papi/2/timeline', (req, res) => {
    publicRequests.push(req.url);
    sendEnvelope(res, { statusCode: 2, body: page(publicPosts, req.url) });
  });
  server.on('/api/2/timeline', (req, res) => sendEnvelope(res, { statusCode: 2, body: page(privatePosts, req.url) }));
  server.on('/papi/2/posts', (req, res) => {
    const username = new URL(req.url, 'http://x').searchParams.get('username');
    sendEnvelope(res, { statusCode: 2, body: page(publicPosts.filter((p) => p.user.username === username), req.url) });
  });
  for (const id of [1, 2, 3, 40]) {
    server.on(`/api/posts/${id}/likes`, (req, res) => {
      if (likeFails) return sendEnvelope(res, { statusCode: -1, statusText: 'email-not-verified' }, 403);
      const liked = req.method === 'POST';
      setTimeout(() => sendEnvelope(res, { statusCode: 2, body: { likedByMe: liked, totalLikesCount: liked ? 10 : 9 } }), 20);
    });
    server.on(`/api/posts/${id}`, (req, res) => (req.method === 'DELETE' ? sendEnvelope(res, { statusCode: 1 }) : sendEnvelope(res, { statusCode: -1, statusText: 'post-doesnt-exists' }, 404)));
  }
  server.on('/api/users/follow', (_req, res) => sendEnvelope(res, { statusCode: 1 }));
  server.on('/papi/ga/', (_req, res) => sendEnvelope(res, { statusCode: 1 }));
  server.on('/api/posts', (req, res) => {
    const body = JSON.parse(req.body) as { text: string };
    sendEnvelope(res, { statusCode: 2, body: post(500, { text: body.text, user: author({ id: 5, username: 'me' }), isMy: true, ts: Date.now() }) });
  });
});

afterAll(() => server.close());

beforeEach(() => {
  likeFails = false;
  publicRequests = [];
  publicPosts = range(1, 40);
  privatePosts = [];
});

function loggedIn(userId = 5): Fanstage {
  const fanstage = createFanstage({ baseUrl: server.baseUrl });
  fanstage.session.adopt({ accessToken: fakeToken(userId) });
  return fanstage;
}

function postIds(fanstage: Fanstage, type: 'public' | 'private'): number[] {
  return fanstage.feeds
    .feed(type)
    .items.value.filter((item) => item.kind === 'post')
    .map((item) => (item.kind === 'post' ? item.id : 0));
}

describe('a feed', () => {
  it('goes from not loaded through loading to ready, and ends exactly when a page is short', async () => {
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    const feed = fanstage.feeds.feed('public');
    const seen: FeedStatus[] = [];
    const stop = effect(() => {
      seen.push(feed.status.value);
    });
    await feed.loadMore();
    expect(postIds(fanstage, 'public')).toHaveLength(15);
    await feed.loadMore();
    expect(feed.status.value).toBe('ready');
    // 40 posts: 15 + 15 + 10, and the short third page ends the list.
    await feed.loadMore();
    stop();
    expect(postIds(fanstage, 'public')).toHaveLength(40);
    expect(feed.status.value).toBe('ended');
    expect(seen).toEqual(['idle', 'loading', 'ready', 'loading', 'ready', 'loading', 'ended']);
    // The pages were asked by the ts of the last post, with the timeline's page size.
    const asked = server.requests.filter((r) => r.url.startsWith('/papi/2/timeline')).slice(-3).map((r) => r.url);
    expect(asked[0]).toBe('/papi/2/timeline?limit=15');
    expect(asked[1]).toBe(`/papi/2/timeline?limit=15&ts=${post(26).ts}`);
  });

  it('asks nothing more once it has ended', async () => {
    publicPosts = range(1, 3);
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    const feed = fanstage.feeds.feed('public');
    await feed.loadMore();
    const before = server.requests.length;
    await feed.loadMore();
    expect(feed.status.value).toBe('ended');
    expect(server.requests.length).toBe(before);
  });

  it('is one object per type and parameter, so two screens share its pages', () => {
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    expect(fanstage.feeds.feed('profile', '@Alice')).toBe(fanstage.feeds.feed('profile', 'alice'));
    expect(fanstage.feeds.feed('profile', 'alice')).not.toBe(fanstage.feeds.feed('profile', 'bob'));
    expect(fanstage.feeds.feed('public', undefined, { gender: 2 })).not.toBe(fanstage.feeds.feed('public'));
  });

  it('loads a profile by username', async () => {
    publicPosts = [...range(1, 4), ...range(5, 6, (id) => post(id, { user: author({ id: 9, username: 'bob' }) }))];
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    const feed = fanstage.feeds.feed('profile', 'bob');
    await feed.loadMore();
    expect(feed.items.value.map((i) => i.key)).toEqual(['p6', 'p5']);
    expect(feed.status.value).toBe('ended');
  });
});

describe('likes', () => {
  it('toggle likedByMe and the count in every list at once, then take the server\'s count', async () => {
    privatePosts = range(1, 20);
    const fanstage = loggedIn();
    await Promise.all([fanstage.feeds.feed('public').loadMore(), fanstage.feeds.feed('private').loadMore()]);
    const pending = fanstage.posts.toggleLike(40);
    // Optimistic: the same post object behind both lists shows the like before the answer.
    expect(fanstage.posts.get(40).post.value).toMatchObject({ likedByMe: true, totalLikesCount: 4 });
    expect(fanstage.posts.pendingLikes.value.has(40)).toBe(true);
    await pending;
    expect(fanstage.posts.get(40).post.value).toMatchObject({ likedByMe: true, totalLikesCount: 10 });
  });

  it('are rolled back when the server refuses', async () => {
    const fanstage = loggedIn();
    await fanstage.feeds.feed('public').loadMore();
    likeFails = true;
    await expect(fanstage.posts.toggleLike(40)).rejects.toMatchObject({ code: 'email-not-verified' });
    expect(fanstage.posts.get(40).post.value).toMatchObject({ likedByMe: false, totalLikesCount: 3 });
  });

  it('need a login', async () => {
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    await fanstage.feeds.feed('public').loadMore();
    await expect(fanstage.posts.toggleLike(40)).rejects.toMatchObject({ code: 'unauthorized' });
  });
});

describe('following an author', () => {
  it('shows on every post of that author', async () => {
    const fanstage = loggedIn();
    await fanstage.feeds.feed('public').loadMore();
    expect(fanstage.posts.get(40).post.value?.user.isFollowed).toBe(false);
    await fanstage.relations.follow(42);
    expect(fanstage.posts.get(40).post.value?.user.isFollowed).toBe(true);
    expect(fanstage.posts.get(30).post.value?.user.isFollowed).toBe(true);
  });
});

describe('deleting a post', () => {
  it('removes it from every list', async () => {
    privatePosts = range(1, 3);
    const fanstage = loggedIn();
    await Promise.all([fanstage.feeds.feed('public').loadMore(), fanstage.feeds.feed('private').loadMore()]);
    await fanstage.posts.remove(3);
    expect(postIds(fanstage, 'public')).not.toContain(3);
    expect(postIds(fanstage, 'private')).not.toContain(3);
  });
});

describe('a short private timeline', () => {
  it('continues with public posts after a divider, without the posts it already shows', async () => {
    privatePosts = range(38, 40);
    const fanstage = loggedIn();
    const feed = fanstage.feeds.feed('private');
    await feed.loadMore();
    // The public part loads by itself once the private one has ended short.
    await fanstage.feeds.feed('public').loadMore();
    const keys = feed.items.value.map((item) => item.key);
    expect(keys.slice(0, 4)).toEqual(['p40', 'p39', 'p38', 'divider']);
    expect(keys.filter((key) => key === 'p40')).toHaveLength(1);
    expect(keys).toContain('p37');
  });

  it('continues with the public posts of the chosen gender filter', async () => {
    privatePosts = range(39, 40);
    const fanstage = loggedIn();
    const feed = fanstage.feeds.feed('private', undefined, { gender: 2 });
    await feed.loadMore();
    await fanstage.feeds.feed('public', undefined, { gender: 2 }).loadMore();
    expect(publicRequests.some((url) => new URL(url, 'http://x').searchParams.get('gender') === '2')).toBe(true);
    expect(feed.items.value.map((item) => item.key)).toContain('p38');
    expect(fanstage.feeds.feed('private')).not.toBe(feed);
  });

  it('has no divider with two posts or fewer', async () => {
    privatePosts = range(39, 40);
    const fanstage = loggedIn();
    await fanstage.feeds.feed('private').loadMore();
    await fanstage.feeds.feed('public').loadMore();
    expect(fanstage.feeds.feed('private').items.value.some((item) => item.kind === 'divider')).toBe(false);
  });

  it('stays its own list with 7 posts or more', async () => {
    privatePosts = range(1, 7);
    const fanstage = loggedIn();
    const feed = fanstage.feeds.feed('private');
    await feed.loadMore();
    expect(feed.status.value).toBe('ended');
    expect(feed.items.value).toHaveLength(7);
  });
});

describe('new posts', () => {
  it('are found by checkNew and put on top by showNew', async () => {
    publicPosts = range(1, 10);
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    const feed = fanstage.feeds.feed('public');
    await feed.loadMore();
    expect(await feed.checkNew()).toBe(0);
    publicPosts = [...publicPosts, post(11), post(12)];
    expect(await feed.checkNew()).toBe(2);
    expect(feed.newCount.value).toBe(2);
    feed.showNew();
    expect(feed.items.value.slice(0, 3).map((i) => i.key)).toEqual(['p12', 'p11', 'p10']);
    expect(feed.newCount.value).toBe(0);
  });

  it('that the viewer creates go on top of the private timeline', async () => {
    privatePosts = range(1, 10);
    const fanstage = loggedIn();
    const feed = fanstage.feeds.feed('private');
    await feed.loadMore();
    await fanstage.posts.create({ text: 'Hello' });
    expect(feed.items.value[0]?.key).toBe('p500');
  });
});

describe('the viewer changing', () => {
  it('starts every list over', async () => {
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    const feed = fanstage.feeds.feed('public');
    await feed.loadMore();
    fanstage.session.adopt({ accessToken: fakeToken(5) });
    expect(feed.status.value).toBe('idle');
    expect(feed.items.value).toEqual([]);
  });
});

describe('seen reports', () => {
  it('are sent once per post per session', async () => {
    const fanstage = createFanstage({ baseUrl: server.baseUrl });
    const before = server.requests.filter((r) => r.url === '/papi/ga/').length;
    expect(fanstage.posts.markSeen(7, { duration: 420.4, visibleRatio: 0.8 })).toBe(true);
    expect(fanstage.posts.markSeen(7, { duration: 900, visibleRatio: 1 })).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const sent = server.requests.filter((r) => r.url === '/papi/ga/').slice(before);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]?.body ?? '{}')).toEqual({ postId: 7, duration: 420, visibleRatio: 0.8 });
  });
});
