// The `feeds` part of `npm run bench` (bench/run.ts): the real server on a PostgreSQL database
// seeded with 2 000 creators and 100 000 posts, and a fan following some of them; the public
// timeline's first and 21st page, post search, and the fan's own timeline, each against the
// bare Fastify yardstick.
import pg from 'pg';
import { accessToken } from './tokens';
import { budgets } from './budgets';
import { failures, line, load, ratioLine, withServerOnPostgres, type LoadResult } from './harness';

/** Words of the seeded posts' texts; the search below looks for one of them. */
const vocabulary = [
  'sunset', 'beach', 'morning', 'coffee', 'workout', 'studio', 'summer', 'winter', 'garden', 'city',
  'night', 'dance', 'music', 'smile', 'dress', 'shoes', 'travel', 'mountain', 'lake', 'forest',
  'yoga', 'pool', 'party', 'friday', 'sunday', 'rain', 'snow', 'red', 'blue', 'gold',
  'selfie', 'mirror', 'kitchen', 'breakfast', 'dinner', 'wine', 'book', 'cat', 'dog', 'flowers',
  'photo', 'shoot', 'behind', 'scenes', 'new', 'look', 'style', 'hair', 'lingerie', 'tattoo',
];

/**
 * A PostgreSQL database `fanstage_bench`, made afresh, migrated by the server itself and then
 * filled in a few set-based statements: 2 000 creators (three in four women), 100 000 posts
 * one every 30 s back from now with words of the vocabulary and a hashtag, a media on every
 * fifth post (one in ten of those priced), hashtags rows for every third post.
 */
async function seedFeeds(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`
      insert into users (username, display_name, email, email_verified, is_seller, gender, followers_count, last_seen_at, birthday, hair)
      select 'bench' || g, 'Bench Creator ' || g, 'bench' || g || '@example.com', true, true,
             case when g % 4 = 0 then 1 else 2 end, g % 997,
             now() - (g % 600) * interval '1 second', (1980 + g % 25) || '-0' || (1 + g % 9) || '-1' || (g % 9), 1 + g % 5
      from generate_series(1, 2000) g`);
    await client.query(
      `with c as (select array_agg(id order by id) as ids from users where username like 'bench%')
       insert into posts (user_id, text, published_at, created_at)
       select c.ids[1 + (g * 7919) % 2000],
              w[1 + g % 50] || ' ' || w[1 + (g * 7) % 50] || ' ' || w[1 + (g * 13) % 50] || ' #tag' || (g % 200),
              now() - g * interval '30 seconds', now() - g * interval '30 seconds'
       from generate_series(1, 100000) g, c, (select $1::text[] as w) v`,
      [vocabulary],
    );
    await client.query(`
      insert into media (hash, owner_id, kind, media_type, format, width, height, status, price)
      select 'bench-' || p.id, p.user_id, 'post', 'image', 'webp', 1280, 960, 3, case when p.id % 10 = 0 then 320 else 0 end
      from posts p join users u on u.id = p.user_id where u.username like 'bench%' and p.id % 5 = 0`);
    await client.query(`
      insert into post_media (post_id, media_id, position)
      select p.id, m.id, 0 from posts p join media m on m.hash = 'bench-' || p.id`);
    await client.query(`
      insert into post_hashtags (post_id, tag, published_at)
      select p.id, 'tag' || (p.id % 200), p.published_at
      from posts p join users u on u.id = p.user_id where u.username like 'bench%' and p.id % 3 = 0`);
    // As autovacuum would: statistics for the planner, and the GIN indexes' pending lists merged
    // (a text search through a long pending list is many times slower).
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
}

/**
 * A fan of the seeded feeds: verified, following `FAN_FOLLOWS` of the bench creators (spread
 * over the range, so their posts are spread over time), with likes on some of their posts and
 * one paid unlock, so every part of the post view has something to show. Its id, for the token.
 */
const FAN_FOLLOWS = 20;
async function seedFan(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const fan = await client.query<{ id: number }>(
      `insert into users (username, display_name, email, email_verified, gender) values ('benchfan', 'Bench Fan', 'benchfan@example.com', true, 1) returning id`,
    );
    const fanId = fan.rows[0]!.id;
    await client.query(
      `insert into follows (follower_id, followed_id)
       select $1, id from users where username like 'bench%' and username <> 'benchfan' and id % (2000 / $2::int) = 0 limit $2`,
      [fanId, FAN_FOLLOWS],
    );
    await client.query(
      `insert into post_likes (post_id, user_id)
       select p.id, $1 from posts p join follows f on f.followed_id = p.user_id and f.follower_id = $1 where p.id % 3 = 0`,
      [fanId],
    );
    await client.query(
      `insert into media_unlocks (user_id, media_id)
       select $1, m.id from media m join follows f on f.followed_id = m.owner_id and f.follower_id = $1 where m.price > 0 limit 5`,
      [fanId],
    );
    await client.query('analyze');
    return fanId;
  } finally {
    await client.end();
  }
}

/** The timeline, its 21st page and post search, for a visitor and for the fan, against `helloResult`. */
export async function benchFeeds(helloResult: LoadResult): Promise<void> {
  await withServerOnPostgres('fanstage_bench', async ({ base, dbUrl, secret }) => {
    const started = Date.now();
    await seedFeeds(dbUrl);
    const fanId = await seedFan(dbUrl);
    console.log(`  (PostgreSQL: 100 000 posts seeded in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    // The fan's access token signed with the server's key, as a login would issue it.
    const token = await accessToken(fanId, secret, 900);
    const timeline = await load(`${base}/papi/2/timeline`);
    const timelineDeep = await load(`${base}/papi/2/timeline?offset=300`);
    const search = await load(`${base}/papi/search/posts?q=sunset`);
    const fanTimeline = await load(`${base}/api/2/timeline`, { authorization: `Bearer ${token}` });
    // The same deep page and search for the signed-in fan: read fresh every time (a visitor's
    // pages are held in memory for a moment), so these are the database path's own figures.
    const fanDeep = await load(`${base}/papi/2/timeline?offset=300`, { authorization: `Bearer ${token}` });
    const fanSearch = await load(`${base}/papi/search/posts?q=sunset`, { authorization: `Bearer ${token}` });
    console.log(line('GET /papi/2/timeline (first page)', timeline));
    console.log(line('GET /papi/2/timeline?offset=300', timelineDeep));
    console.log(line('GET /papi/search/posts?q=sunset', search));
    console.log(line(`GET /api/2/timeline (a fan, ${FAN_FOLLOWS} followed)`, fanTimeline));
    console.log(line('GET /papi/2/timeline?offset=300 (the fan)', fanDeep));
    console.log(line('GET /papi/search/posts?q=sunset (the fan)', fanSearch));
    console.log(ratioLine('timeline / hello', timeline.rps / helloResult.rps, budgets.timelineRatio, 'timeline ratio'));
    console.log(ratioLine('timeline page 21 / hello', timelineDeep.rps / helloResult.rps, budgets.deepReadRatio, 'timeline page 21 ratio'));
    console.log(ratioLine('search / hello', search.rps / helloResult.rps, budgets.deepReadRatio, 'search ratio'));
    console.log(ratioLine('fan timeline / hello', fanTimeline.rps / helloResult.rps, budgets.fanTimelineRatio, 'fan timeline ratio'));
    console.log(ratioLine('page 21, the fan (fresh) / hello', fanDeep.rps / helloResult.rps, null, ''));
    console.log(ratioLine('search, the fan (fresh) / hello', fanSearch.rps / helloResult.rps, null, ''));
    const all = [['timeline', timeline], ['timeline page 21', timelineDeep], ['search', search], ['fan timeline', fanTimeline], ['fan page 21', fanDeep], ['fan search', fanSearch]] as const;
    for (const [name, r] of all) {
      if (r.non2xx > 0 || r.errors > 0) failures.push(`${name} answered errors under load`);
    }
  });
}
