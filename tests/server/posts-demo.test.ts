import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../support/server';
import { eq, sql } from '../support/db';
import { postHashtags, posts, users } from '../../server/src/db/schema';
import { seedDemoPosts } from '../../server/src/features/demo/posts';
import { demoCreators } from '../../server/src/features/demo/domain';

let server: TestServer;
let app: FastifyInstance;
let created = 0;
let seedMs = 0;

beforeAll(async () => {
  // The people are seeded at start; their posts only where NODE_ENV is not test, so here by hand.
  server = await startTestServer();
  app = server.app;
  const started = performance.now();
  created = await seedDemoPosts(app.fanstage);
  seedMs = performance.now() - started;
});
afterAll(async () => {
  await server?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { statusCode: number; statusText?: string; body?: any };

describe('the demo posts', () => {
  it('give every seeded creator photo posts and seed only once', async () => {
    expect(created).toBeGreaterThanOrEqual(demoCreators.length * 3);
    // Generous: the machines running the suite are often busy; alone it takes a second or two.
    expect(seedMs).toBeLessThan(30_000);
    for (const creator of demoCreators) {
      const [row] = await app.fanstage.db
        .select({ count: users.postsCount, real: sql<number>`(select count(*)::int from posts p where p.user_id = users.id)` })
        .from(users)
        .where(eq(users.username, creator.username));
      expect(row!.real).toBeGreaterThanOrEqual(3);
      // The demo profiles keep their story's numbers (like their followers), larger than the seeded posts.
      expect(row!.count).toBe(creator.postsCount);
    }
    expect(await seedDemoPosts(app.fanstage)).toBe(0);
  });

  it('keep their counters equal to their likes and comments', async () => {
    const rows = await app.fanstage.db
      .select({
        likes: posts.likesCount,
        all: posts.commentsCount,
        top: posts.rootCommentsCount,
        realLikes: sql<number>`(select count(*)::int from post_likes l where l.post_id = posts.id)`,
        realAll: sql<number>`(select count(*)::int from comments c where c.post_id = posts.id)`,
        realTop: sql<number>`(select count(*)::int from comments c where c.post_id = posts.id and c.parent_id is null)`,
      })
      .from(posts);
    for (const row of rows) expect([row.likes, row.all, row.top]).toEqual([row.realLikes, row.realAll, row.realTop]);
    expect(rows.some((row) => row.all > row.top)).toBe(true);
    const tags = await app.fanstage.db.selectDistinct({ tag: postHashtags.tag }).from(postHashtags);
    expect(tags.map((t) => t.tag)).toEqual(expect.arrayContaining(['sunset', 'studio']));
  });

  it('serve their pictures, locked ones blurred to visitors and open to their owner', async () => {
    const [lucy] = await app.fanstage.db.select({ id: users.id }).from(users).where(eq(users.username, 'lucy.rivers'));
    const ids = await app.fanstage.db.select({ id: posts.id }).from(posts).where(eq(posts.userId, lucy!.id));
    const answers = await Promise.all(ids.map(async ({ id }) => ((await app.inject({ url: `/papi/posts/${id}` })).json() as Answer).body));
    const free = answers.find((p) => p.media[0].mediaPrice === 0);
    const locked = answers.find((p) => p.media[0].mediaPrice > 0);
    expect(free && locked).toBeTruthy();
    const open = await app.inject({ url: `/media/${free.media[0].mediaHash}.${free.media[0].format}` });
    expect(open.statusCode).toBe(200);
    const size = await sharp(open.rawPayload).metadata();
    expect(Math.min(size.width!, size.height!)).toBeGreaterThanOrEqual(400);
    expect((await app.inject({ url: `/media/${locked.media[0].mediaHash}.${locked.media[0].format}` })).statusCode).toBe(403);
    for (const t of ['blur', 'og', '320']) {
      const url = `/media/${free.media[0].mediaHash}.${free.media[0].format}?t=${t}`;
      expect((await app.inject({ url })).statusCode, url).toBe(200);
    }
    expect((await app.inject({ url: `/media/${locked.media[0].mediaHash}.${locked.media[0].format}?t=blur` })).statusCode).toBe(200);
  });
});
