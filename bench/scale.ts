// The reads a successful platform serves, at 100 000 and at 1 000 000 posts on PostgreSQL, each as
// a ratio to bare Fastify (bench/run.ts measures that yardstick in the same run). The data is
// seeded in set-based statements and grown in place: the second size adds to the first.
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { accessToken } from './tokens';
import { WebSocket } from 'ws';
import { socketProtocols } from '../lib/contract/realtime';

export interface LoadResult {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface ScaleTools {
  hello: LoadResult;
  load: (url: string, headers?: Record<string, string>) => Promise<LoadResult>;
  /** `load` with each request rewritten by `setup` (autocannon's setupRequest). */
  loadWith: (url: string, headers: Record<string, string>, setup: (request: { path: string }) => { path: string }) => Promise<LoadResult>;
  line: (name: string, r: LoadResult) => string;
  check: (name: string, value: number, budget: number, higherIsBetter?: boolean) => string;
  failures: string[];
  withServerOnPostgres: <T>(name: string, work: (server: { base: string; port: number; child: ChildProcess; dbUrl: string; secret: string }) => Promise<T>) => Promise<T>;
}

/**
 * Issue 29's budgets: at 1 M posts every read keeps this share of hello-world, this share of its
 * own ratio at 100 k, and this p99; her message to all her followers (50 000 at 1 M) is
 * acknowledged within `massAckMs`.
 */
export const scaleBudgets = { ratio: 0.05, growth: 0.8, p99Ms: 50, massAckMs: 10_000 };

/**
 * One size of the platform. Everything grows with the posts: creators (one per 50 posts),
 * fans (one per 5), ten likes a post, the popular creator's notifications (one per two posts)
 * and conversations (one per 20 posts), the hot post's comments and the hot conversation.
 */
interface Size {
  label: string;
  posts: number;
  creators: number;
  fans: number;
  notifications: number;
  conversations: number;
  comments: number;
  hotMessages: number;
}

const sizeOf = (posts: number, label: string): Size => ({
  label,
  posts,
  creators: posts / 50,
  fans: posts / 5,
  notifications: posts / 2,
  conversations: posts / 20,
  comments: posts / 100,
  hotMessages: posts / 200,
});

const SIZES = (process.env.BENCH_SCALE_POSTS ?? '100000,1000000').split(',').map((n) => sizeOf(Number(n), `${Number(n) / 1000} k`));

const words = [
  'sunset', 'beach', 'morning', 'coffee', 'workout', 'studio', 'summer', 'winter', 'garden', 'city',
  'night', 'dance', 'music', 'smile', 'dress', 'shoes', 'travel', 'mountain', 'lake', 'forest',
  'yoga', 'pool', 'party', 'friday', 'sunday', 'rain', 'snow', 'red', 'blue', 'gold',
];
/** One post in 20 000 carries it: the search for a rare word. */
const RARE_WORD = 'zanzibar';
const firstNames = ['anna', 'bella', 'clara', 'daria', 'eva', 'fiona', 'gina', 'hana', 'ivana', 'jana', 'klara', 'lucie', 'marta', 'nela', 'olga', 'petra'];
/** The followed creators of the bench fan, spread over the creators. */
const FAN_FOLLOWS = 200;
const NOTIFICATION_TYPES = ['postLike', 'follow', 'postComment', 'postGift', 'profileVisit', 'subscriptionNewSubscriber', 'postCommentLike', 'chatGift'];

interface Seeded {
  starId: number;
  fanId: number;
  hotPostId: number;
  hotFanId: number;
}

async function seedBase(client: pg.Client): Promise<Seeded> {
  const star = await client.query<{ id: number }>(
    `insert into users (username, display_name, email, email_verified, is_seller, gender, message_price)
     values ('benchstar', 'Bench Star', 'benchstar@example.com', true, true, 2, 0) returning id`,
  );
  const fan = await client.query<{ id: number }>(`insert into users (username, display_name, email, email_verified, gender) values ('benchfan', 'Bench Fan', 'benchfan@example.com', true, 1) returning id`);
  const hotFan = await client.query<{ id: number }>(`insert into users (username, display_name, email, email_verified, gender) values ('benchhotfan', 'Hot Fan', 'benchhotfan@example.com', true, 1) returning id`);
  const hotPost = await client.query<{ id: number }>(`insert into posts (user_id, text, published_at, created_at) values ($1, 'The hot post', now() - interval '1 hour', now() - interval '1 hour') returning id`, [star.rows[0]!.id]);
  return { starId: star.rows[0]!.id, fanId: fan.rows[0]!.id, hotPostId: hotPost.rows[0]!.id, hotFanId: hotFan.rows[0]!.id };
}

/** Grows the platform from `from` to `to` in a few set-based statements. */
async function grow(client: pg.Client, seeded: Seeded, from: Size | null, to: Size): Promise<void> {
  const range = (key: keyof Omit<Size, 'label'>) => [from ? from[key] + 1 : 1, to[key]] as const;
  const [c0, c1] = range('creators');
  await client.query(
    `insert into users (username, display_name, email, email_verified, is_seller, gender, followers_count, last_seen_at, message_price)
     select 'creator' || g, initcap(($3::text[])[1 + g % 16]) || ' Creator ' || g, 'creator' || g || '@example.com', true, true,
            case when g % 4 = 0 then 1 else 2 end, g % 997, now() - (g % 600) * interval '1 second', 0
     from generate_series($1::int, $2::int) g`,
    [c0, c1, firstNames],
  );
  const [f0, f1] = range('fans');
  await client.query(
    `insert into users (username, display_name, email, email_verified, gender)
     select 'fan' || g, initcap(($3::text[])[1 + g % 16]) || ' Fan ' || g, 'fan' || g || '@example.com', true, 1
     from generate_series($1::int, $2::int) g`,
    [f0, f1, firstNames],
  );
  // Posts, one every 30 s back from the newest (each size's posts are older than the last's).
  // Creators and fans by number (1…n), so the statements below pick one by arithmetic and a join.
  for (const [table, pattern] of [['bench_creators', '^creator[0-9]+$'], ['bench_fans', '^fan[0-9]+$']] as const) {
    await client.query(`drop table if exists ${table}`);
    await client.query(`create table ${table} as select (row_number() over (order by id))::int as ix, id from users where username ~ '${pattern}'`);
    await client.query(`alter table ${table} add primary key (ix)`);
  }
  const [p0, p1] = range('posts');
  await client.query(
    `insert into posts (user_id, text, published_at, created_at)
     select c.id,
            w[1 + g % 30] || ' ' || w[1 + (g * 7) % 30] || ' ' || w[1 + (g * 13) % 30] || case when g % 20000 = 7 then ' ${RARE_WORD}' else '' end || ' #tag' || (g % 200),
            now() - g * interval '30 seconds', now() - g * interval '30 seconds'
     from generate_series($1::int, $2::int) g
     join bench_creators c on c.ix = 1 + (g::bigint * 7919) % $3::int, (select $4::text[] as w) v`,
    [p0, p1, to.creators, words],
  );
  // Ten likes a post from fans, counted on the post as the product keeps them.
  await client.query(
    `insert into post_likes (post_id, user_id, created_at)
     select p.id, f.id, p.published_at
     from posts p cross join generate_series(0, 9) k
     join bench_fans f on f.ix = 1 + ((p.id * 10 + k)::bigint * 104729) % $2::int
     where p.id > $1
     on conflict do nothing`,
    [from === null ? 0 : ((await client.query<{ max: number }>('select max(post_id) as max from post_likes')).rows[0]!.max ?? 0), to.fans],
  );
  await client.query(`update posts p set likes_count = l.n from (select post_id, count(*)::int n from post_likes group by post_id) l where l.post_id = p.id and p.likes_count <> l.n`);
  // Every fan follows five creators; the popular creator is followed by one fan in four.
  await client.query(
    `insert into follows (follower_id, followed_id)
     select f.id, c.id from bench_fans f cross join generate_series(0, 4) k
     join bench_creators c on c.ix = 1 + ((f.ix * 5 + k)::bigint * 7919) % $3::int
     where f.ix between $1 and $2
     on conflict do nothing`,
    [f0, f1, to.creators],
  );
  await client.query(`insert into follows (follower_id, followed_id) select f.id, $3 from bench_fans f where f.ix between $1 and $2 and f.ix % 4 = 0 on conflict do nothing`, [
    f0,
    f1,
    seeded.starId,
  ]);
  if (from === null) {
    await client.query(
      `insert into follows (follower_id, followed_id) select $1, c.id from generate_series(0, $2 - 1) k join bench_creators c on c.ix = 1 + (k * $3::int) / $2`,
      [seeded.fanId, FAN_FOLLOWS, to.creators],
    );
  }
  await client.query(`update users u set followers_count = f.n from (select followed_id, count(*)::int n from follows group by followed_id) f where f.followed_id = u.id`);
  // The popular creator's notifications, one a minute back from now, from her fans, about her hot
  // post; she last read them an hour ago.
  const [n0, n1] = range('notifications');
  await client.query(
    `insert into notifications (user_id, type, from_user_id, post_id, count, created_at, updated_at)
     select $3::int, t[1 + g % cardinality(t)], f.id,
            case when t[1 + g % cardinality(t)] like 'post%' then $4::int end, 1,
            now() - g * interval '1 minute', now() - g * interval '1 minute'
     from generate_series($1::int, $2::int) g
     join bench_fans f on f.ix = 1 + (g::bigint * 104729) % $6::int, (select $5::text[] as t) v`,
    [n0, n1, seeded.starId, seeded.hotPostId, NOTIFICATION_TYPES, to.fans],
  );
  await client.query(`update users set notifications_read_at = now() - interval '1 hour' where id = $1`, [seeded.starId]);
  // Her conversations: a fan writes, she answers; each side's row as the product keeps it.
  const [k0, k1] = range('conversations');
  await client.query(
    `with pairs as (select g, f.id as fan_id from generate_series($1::int, $2::int) g join bench_fans f on f.ix = g)
     insert into chat_messages (msg_id, sender_id, receiver_id, text, created_at)
     select 'bench-' || g || '-' || k, case k when 0 then fan_id else $3::int end, case k when 0 then $3::int else fan_id end,
            case k when 0 then 'Hello there' else 'Thank you!' end,
            now() - g * interval '2 minutes' + k * interval '1 minute'
     from pairs, generate_series(0, 1) k`,
    [k0, k1, seeded.starId],
  );
  const [h0, h1] = range('hotMessages');
  await client.query(
    `insert into chat_messages (msg_id, sender_id, receiver_id, text, created_at)
     select 'bench-hot-' || g, case when g % 2 = 0 then $3::int else $4::int end, case when g % 2 = 0 then $4::int else $3::int end, 'Message ' || g, now() - g * interval '10 seconds'
     from generate_series($1::int, $2::int) g`,
    [h0, h1, seeded.hotFanId, seeded.starId],
  );
  await client.query(
    `insert into chat_conversations (user_id, partner_id, last_read_at, last_message_id, last_message_at, last_incoming_at)
     select side.user_id, side.partner_id, case when side.user_id = $1 then now() - interval '1 day' else now() end, m.last_id, m.last_at, m.last_in
     from (select distinct on (low_user_id, high_user_id) low_user_id, high_user_id from chat_messages where $1 in (sender_id, receiver_id)) pair
     cross join lateral (values (pair.low_user_id, pair.high_user_id), (pair.high_user_id, pair.low_user_id)) side(user_id, partner_id)
     cross join lateral (
       select max(id) last_id, max(created_at) last_at, max(created_at) filter (where sender_id = side.partner_id) last_in
       from chat_messages where low_user_id = pair.low_user_id and high_user_id = pair.high_user_id) m
     on conflict (user_id, partner_id) do update set last_message_id = excluded.last_message_id, last_message_at = excluded.last_message_at, last_incoming_at = excluded.last_incoming_at`,
    [seeded.starId],
  );
  // Comments on her hot post, one a minute, from fans.
  const [m0, m1] = range('comments');
  await client.query(
    `insert into comments (post_id, user_id, text, created_at)
     select $3::int, f.id, 'Comment ' || g, now() - g * interval '1 minute'
     from generate_series($1::int, $2::int) g join bench_fans f on f.ix = 1 + (g::bigint * 7919) % $4::int`,
    [m0, m1, seeded.hotPostId, to.fans],
  );
  await client.query(`update posts set comments_count = $2, root_comments_count = $2 where id = $1`, [seeded.hotPostId, to.comments]);
  // As autovacuum would: statistics for the planner, and the GIN indexes' pending lists merged.
  await client.query('vacuum analyze');
}

interface Read {
  name: string;
  path: string;
  as: 'star' | 'fan' | 'visitor';
  /** Recorded, not budgeted, and why (a visitor's held page answers from memory). */
  recorded?: string;
  /**
   * Her own timeline is held for her a moment (timeline/visitor-pages.ts): each request then
   * carries its own `ts` a day ahead (every post is before it, so the page is the same) and
   * none is answered from memory.
   */
  unheld?: boolean;
  /**
   * A deep page as a reader reaches it: scrolling, each page after the one before (the server
   * starts the next page where the last one it served ended, http/page-cursors.ts). The bench
   * scrolls there once, then times the page.
   */
  scrolled?: { offset: number; limit: number };
}

function readsOf(seeded: Seeded): Read[] {
  return [
    { name: "her notifications, first page", path: '/api/2/notifications', as: 'star' },
    { name: 'her badge counts (/api/count/)', path: '/api/count/', as: 'star' },
    { name: `post search, a rare word (${RARE_WORD})`, path: `/papi/search/posts?q=${RARE_WORD}`, as: 'fan' },
    { name: 'user search by name prefix (ann)', path: '/papi/search/users?q=ann', as: 'fan' },
    { name: 'public timeline, offset 3000 (scrolled to)', path: '/papi/2/timeline?offset=3000', as: 'fan', scrolled: { offset: 3000, limit: 15 } },
    { name: 'public timeline, offset 3000 (asked cold)', path: '/papi/2/timeline?offset=3000&limit=14', as: 'fan', recorded: 'counted from the top' },
    { name: `a fan's timeline (${FAN_FOLLOWS} followed)`, path: '/api/2/timeline', as: 'fan', unheld: true },
    { name: `a fan's timeline, offset 300`, path: '/api/2/timeline?offset=300', as: 'fan', unheld: true },
    { name: "a hot post's comments", path: `/api/posts/${seeded.hotPostId}/comments`, as: 'fan' },
    { name: 'her conversation list', path: '/api/chat/conversations', as: 'star' },
    { name: "a conversation's history", path: `/api/chat/conversations/${seeded.hotFanId}`, as: 'star' },
    { name: "a visitor's held first page", path: '/papi/2/timeline', as: 'visitor', recorded: 'held' },
    { name: 'a profile', path: '/papi/users/benchstar', as: 'visitor', recorded: 'held' },
  ];
}

/** `load`, with a distinct `ts` a day ahead on every request. */
async function loadUnheld(tools: ScaleTools, url: string, headers: Record<string, string>): Promise<LoadResult> {
  let n = 0;
  const ahead = Date.now() + 86_400_000;
  const { pathname, search } = new URL(url);
  const path = () => `${pathname}${search === '' ? '?' : `${search}&`}ts=${ahead + n++}`;
  return tools.loadWith(url, headers, (request) => ({ ...request, path: path() }));
}

/**
 * The popular creator writes to all her followers (SPEC §7 `massChatMessage`) over her socket;
 * answers the time until her ack, with every follower's copy checked in the database: one each.
 */
async function massMessage(base: string, token: string, client: pg.Client, starId: number): Promise<{ ms: number; recipients: number; followers: number }> {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws/`, socketProtocols(token));
  const msgId = `bench-mass-${Date.now()}`;
  const frames: { type?: string; message?: { msgId?: string; recipientsCount?: number } }[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as (typeof frames)[number];
      if (frame.type === 'hello') resolve();
      frames.push(frame);
    });
  });
  const started = performance.now();
  const acked = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no ack for the mass message within 120 s')), 120_000);
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as (typeof frames)[number];
      if (frame.type === 'massChatMessage' && frame.message?.msgId === msgId) {
        clearTimeout(timer);
        resolve(frame.message.recipientsCount ?? -1);
      } else if (frame.type !== 'hello' && frame.type !== 'updateCount' && frame.type !== 'ping') {
        reject(new Error(`the mass message was answered ${JSON.stringify(frame).slice(0, 200)}`));
      }
    });
  });
  socket.send(JSON.stringify({ type: 'massChatMessage', msgId, recGroup: 'followers', text: 'A new set is up for everyone' }));
  const recipients = await acked;
  const ms = performance.now() - started;
  socket.close();
  const stored = await client.query<{ copies: number; receivers: number; followers: number }>(
    `select count(*)::int copies, count(distinct m.receiver_id)::int receivers,
            (select count(*)::int from follows where followed_id = $1) followers
     from chat_messages m join chat_mass_messages mm on mm.id = m.mass_id where mm.sender_id = $1 and mm.msg_id = $2`,
    [starId, msgId],
  );
  const { copies, receivers, followers } = stored.rows[0]!;
  if (copies !== recipients || receivers !== copies || copies !== followers) {
    throw new Error(`the mass message reached ${recipients}, stored ${copies} copies for ${receivers} receivers of ${followers} followers`);
  }
  return { ms, recipients, followers };
}

export async function benchScale(tools: ScaleTools): Promise<void> {
  const { hello, load, line, check, failures } = tools;
  console.log(`\nReads at scale (PostgreSQL; ${SIZES.map((s) => `${s.label} posts`).join(', then ')}; fresh reads unless held)`);
  await tools.withServerOnPostgres('fanstage_bench_scale', async ({ base, dbUrl, secret }) => {
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    const ratios = new Map<string, number>();
    try {
      const seeded = await seedBase(client);
      const headers = {
        star: { authorization: `Bearer ${await accessToken(seeded.starId, secret)}` },
        fan: { authorization: `Bearer ${await accessToken(seeded.fanId, secret)}` },
        visitor: {},
      };
      let previous: Size | null = null;
      for (const size of SIZES) {
        const started = Date.now();
        await grow(client, seeded, previous, size);
        previous = size;
        console.log(
          `  ${size.label} posts: ${size.creators} creators, ${size.fans} fans, ${size.posts * 10} likes; her ${size.notifications} notifications, ${size.conversations} conversations; seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`,
        );
        const last = size === SIZES.at(-1) && SIZES.length > 1;
        for (const read of readsOf(seeded)) {
          if (read.scrolled) {
            const { pathname } = new URL(`${base}${read.path}`);
            for (let offset = 0; offset < read.scrolled.offset; offset += read.scrolled.limit) {
              await fetch(`${base}${pathname}?offset=${offset}&limit=${read.scrolled.limit}`, { headers: headers[read.as] });
            }
          }
          // Each read answers what it should before it is timed: a body, and something in it.
          const probe = (await (await fetch(`${base}${read.path}`, { headers: headers[read.as] })).json()) as { statusCode: number; body?: unknown };
          const shown = JSON.stringify(probe.body ?? null);
          if (probe.statusCode !== 2 || shown.length < 20) throw new Error(`${read.path} answered ${JSON.stringify(probe).slice(0, 300)}`);
          const result = read.unheld ? await loadUnheld(tools, `${base}${read.path}`, headers[read.as]) : await load(`${base}${read.path}`, headers[read.as]);
          const ratio = result.rps / hello.rps;
          const key = read.name;
          let verdict = read.recorded ? `(${read.recorded}; recorded)` : '';
          if (!read.recorded && last) {
            const before = ratios.get(key) ?? ratio;
            const growth = ratio / before;
            verdict = [
              `growth ${growth.toFixed(2)} ${check(`${key} at ${size.label}: growth`, Number(growth.toFixed(2)), scaleBudgets.growth, true)}`,
              check(`${key} at ${size.label}: ratio`, Number(ratio.toFixed(3)), scaleBudgets.ratio, true),
              check(`${key} at ${size.label}: p99 ms`, result.p99, scaleBudgets.p99Ms),
            ].join('  ');
          }
          ratios.set(key, ratio);
          console.log(`${line(`${read.name}`, result)}  ratio ${ratio.toFixed(3)}  ${verdict}`);
          if (result.non2xx > 0 || result.errors > 0) failures.push(`${key} at ${size.label} answered errors under load`);
        }
        const mass = await massMessage(base, headers.star.authorization.slice('Bearer '.length), client, seeded.starId);
        console.log(
          `  her message to all ${mass.followers} followers: acknowledged in ${(mass.ms / 1000).toFixed(2)} s, ${mass.recipients} copies stored, one each  ${
            last ? check(`mass message to ${mass.followers} followers at ${size.label}: ack ms`, Math.round(mass.ms), scaleBudgets.massAckMs) : ''
          }`,
        );
      }
    } finally {
      await client.end();
    }
  });
}
