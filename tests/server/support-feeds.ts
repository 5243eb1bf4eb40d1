import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { issueAccessToken } from '../../server/src/features/auth/guard';
import { blocks, follows, hiddenUsers, media, mediaUnlocks, postHashtags, postMedia, posts, users, type NewUser } from '../../server/src/db/schema';

/**
 * Arranging feeds directly in the tables: people, posts with media and hashtags, follows,
 * blocks and unlocks, with the times a test chooses. The lists under test read only what
 * these rows say, so a test states exactly which posts exist and when they appeared.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Answer = { statusCode: number; statusText?: string; body?: any };

export interface Person {
  id: number;
  username: string;
  /** A bearer token for `Authorization`. */
  token: string;
}

/** A unique lower-case word, for usernames, display names and texts no other test shares. */
export function word(prefix = 'w'): string {
  return `${prefix}${randomBytes(4).toString('hex').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]!)}`;
}

/** A user row (a creator by default: a seller, woman, seen long ago), with an access token. */
export async function person(app: FastifyInstance, fields: Partial<NewUser> = {}): Promise<Person> {
  const username = fields.username ?? word('u');
  const [row] = await app.fanstage.db
    .insert(users)
    .values({ displayName: username, email: `${username}@example.com`, emailVerified: true, isSeller: true, gender: 2, ...fields, username })
    .returning({ id: users.id });
  return { id: row!.id, username, token: await issueAccessToken(app.fanstage, row!.id) };
}

export interface PostFields {
  text?: string;
  publishedAt?: Date;
  /** How many media the post carries (default 0). */
  media?: number;
  /** Cents; above 0 the media are locked. */
  price?: number;
  tags?: string[];
  deletedAt?: Date | null;
}

/** A post (with media and hashtags when asked) of `userId`; answers its id and its media ids. */
export async function post(app: FastifyInstance, userId: number, fields: PostFields = {}): Promise<{ id: number; mediaIds: number[] }> {
  const { db } = app.fanstage;
  const publishedAt = fields.publishedAt ?? new Date();
  const [row] = await db
    .insert(posts)
    .values({ userId, text: fields.text ?? '', publishedAt, startDate: publishedAt.getTime() > Date.now() ? publishedAt : null, deletedAt: fields.deletedAt ?? null })
    .returning({ id: posts.id });
  const id = row!.id;
  const mediaIds: number[] = [];
  for (let position = 0; position < (fields.media ?? 0); position++) {
    const [m] = await db
      .insert(media)
      .values({ hash: randomBytes(16).toString('hex'), ownerId: userId, kind: 'post', format: 'webp', width: 800, height: 600, status: 3, price: fields.price ?? 0 })
      .returning({ id: media.id });
    await db.insert(postMedia).values({ postId: id, mediaId: m!.id, position });
    mediaIds.push(m!.id);
  }
  // As the posts service does: a deleted post keeps no hashtags.
  if (fields.tags?.length && !fields.deletedAt) await db.insert(postHashtags).values(fields.tags.map((tag) => ({ postId: id, tag: tag.toLowerCase(), publishedAt })));
  return { id, mediaIds };
}

export async function follow(app: FastifyInstance, followerId: number, followedId: number): Promise<void> {
  await app.fanstage.db.insert(follows).values({ followerId, followedId });
}

export async function block(app: FastifyInstance, blockerId: number, blockedId: number): Promise<void> {
  await app.fanstage.db.insert(blocks).values({ blockerId, blockedId });
}

export async function hide(app: FastifyInstance, userId: number, hiddenId: number): Promise<void> {
  await app.fanstage.db.insert(hiddenUsers).values({ userId, hiddenId });
}

export async function unlock(app: FastifyInstance, userId: number, mediaId: number): Promise<void> {
  await app.fanstage.db.insert(mediaUnlocks).values({ userId, mediaId });
}

/** GET with an optional bearer token; answers the HTTP status and the envelope. */
export async function get(app: FastifyInstance, url: string, who?: Person): Promise<{ status: number; json: Answer }> {
  const response = await app.inject({ method: 'GET', url, headers: who ? { authorization: `Bearer ${who.token}` } : {} });
  return { status: response.statusCode, json: response.json() as Answer };
}

/** The ids of a list answer (posts or people), failing loudly on an error envelope. */
export async function ids(app: FastifyInstance, url: string, who?: Person): Promise<number[]> {
  const { status, json } = await get(app, url, who);
  if (status !== 200 || json.statusCode !== 2) throw new Error(`${url}: ${status} ${JSON.stringify(json)}`);
  return (json.body as { id: number }[]).map((item) => item.id);
}

/**
 * Pages through a list until a page comes back shorter than `limit`, as the SDK does (SPEC §4),
 * by `ts` of the last item or by offset. Answers the pages' ids and their sizes.
 */
export async function pageThrough(
  app: FastifyInstance,
  url: (cursor: { ts?: number; offset: number }) => string,
  limit: number,
  options: { by: 'ts' | 'offset'; who?: Person; maxPages?: number },
): Promise<{ all: number[]; sizes: number[] }> {
  const all: number[] = [];
  const sizes: number[] = [];
  let ts: number | undefined;
  for (let i = 0; i < (options.maxPages ?? 50); i++) {
    const { status, json } = await get(app, url(options.by === 'ts' ? { ts, offset: 0 } : { offset: all.length }), options.who);
    if (status !== 200) throw new Error(`${status} ${JSON.stringify(json)}`);
    const page = json.body as { id: number; ts?: number }[];
    all.push(...page.map((p) => p.id));
    sizes.push(page.length);
    if (page.length < limit) return { all, sizes };
    ts = page[page.length - 1]!.ts;
  }
  throw new Error('the list never ended');
}
