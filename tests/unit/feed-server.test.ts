import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFanstage, type Fanstage } from '../../lib/sdk';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';

let server: TestServer;
let creator: { account: TestAccount; fanstage: Fanstage };
let fan: { account: TestAccount; fanstage: Fanstage };

async function as(options: Parameters<typeof createAccount>[1] = {}) {
  const account = await createAccount(server.app, options);
  const fanstage = createFanstage({ baseUrl: server.baseUrl });
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  return { account, fanstage };
}

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  creator = await as({ seller: true });
  fan = await as();
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('feeds on the real server', { timeout: 30_000 }, () => {
  it('bring a followed creator\'s new post to the fan\'s private timeline, where likes and deletion show everywhere', async () => {
    const created = await creator.fanstage.posts.create({ text: 'Hello #summer fans' });
    await fan.fanstage.relations.follow(creator.account.id);

    const privateFeed = fan.fanstage.feeds.feed('private');
    const profileFeed = fan.fanstage.feeds.feed('profile', creator.account.username);
    await Promise.all([privateFeed.loadMore(), profileFeed.loadMore()]);
    expect(privateFeed.items.value.map((i) => i.key)).toContain(`p${created.id}`);
    expect(profileFeed.items.value.map((i) => i.key)).toEqual([`p${created.id}`]);
    expect(profileFeed.status.value).toBe('ended');
    expect(fan.fanstage.posts.peek(created.id)?.user.isFollowed).toBe(true);

    await fan.fanstage.posts.toggleLike(created.id);
    expect(fan.fanstage.posts.peek(created.id)).toMatchObject({ likedByMe: true, totalLikesCount: 1 });
    // The server agrees when asked afresh.
    await fan.fanstage.posts.load(created.id);
    expect(fan.fanstage.posts.peek(created.id)).toMatchObject({ likedByMe: true, totalLikesCount: 1 });

    await creator.fanstage.feeds.feed('profile', creator.account.username).loadMore();
    await creator.fanstage.posts.remove(created.id);
    expect(creator.fanstage.feeds.feed('profile', creator.account.username).items.value).toEqual([]);
    await expect(fan.fanstage.posts.load(created.id)).rejects.toMatchObject({ code: 'post-doesnt-exists' });
  });

  it('keep a scheduled post off the fan\'s lists and on the creator\'s scheduled list', async () => {
    const scheduled = await creator.fanstage.posts.create({ text: 'Tomorrow', startDate: Date.now() + 86_400_000 });
    const mine = creator.fanstage.feeds.feed('scheduled');
    await mine.loadMore();
    expect(mine.items.value.map((i) => i.key)).toContain(`p${scheduled.id}`);
    const theirs = fan.fanstage.feeds.feed('profile', creator.account.username);
    await theirs.reload();
    expect(theirs.items.value.map((i) => i.key)).not.toContain(`p${scheduled.id}`);
  });

  it('page the public timeline until a short page ends it', async () => {
    const feed = createFanstage({ baseUrl: server.baseUrl }).feeds.feed('public');
    for (let i = 0; i < 5 && feed.status.value !== 'ended'; i++) await feed.loadMore();
    expect(feed.status.value).toBe('ended');
  });
});
