import { inArray, sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { AppContext } from '../../context';
import { commentLikes, comments, media, postHashtags, postLikes, postMedia, posts, users } from '../../db/schema';
import { mediaKey } from '../../media/images';
import { newMediaHash } from '../../media/pipeline';
import { parseHashtags } from '../posts/domain';
import { demoCreators, demoFans } from './domain';
import { demoPostsOf, dominantColourOf, pictureSize, sceneSvg, type DemoPost, type Scene } from './posts-domain';

/** Serialises demo post seeding between nodes starting at once (see the people's seed lock). */
const postsSeedLockKey = 722_061_003;

interface Picture {
  hash: string;
  files: { key: string; data: Buffer }[];
}

/**
 * The Open Graph pictures are half the usual 1200×630: link previews accept that, and at full
 * size they would cost more than every other variant together.
 */
const ogSize = { width: 600, height: 315 } as const;

/**
 * The blurred Open Graph picture shown in link previews of locked media: the creator's
 * gradient and nothing of the picture, one per creator, since it reveals nothing anyway.
 */
async function renderBlurredOg(colors: readonly [string, string]): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="25"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${colors[0]}"/><stop offset="1" stop-color="${colors[1]}"/></linearGradient></defs><rect width="48" height="25" fill="url(#g)"/></svg>`;
  const tiny = await sharp(Buffer.from(svg)).blur(2).png().toBuffer();
  return sharp(tiny).resize(ogSize.width, ogSize.height, { kernel: 'linear' }).webp({ quality: 60, effort: 0 }).toBuffer();
}

/**
 * Every stored variant of a scene: drawn once from the vectors, then scaled, and encoded at
 * the fastest WebP effort, because the seed runs on every fresh start and must stay quick.
 * The keys are the media pipeline's (original, widths, blur, og, ogb), so the media routes
 * serve these like any upload.
 */
async function renderPicture(scene: Scene, variant: number, colors: readonly [string, string], blurredOg: Buffer): Promise<Picture> {
  const { width, height } = pictureSize;
  const { data, info } = await sharp(Buffer.from(sceneSvg(scene, variant, colors, width, height)))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const picture = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const webp = { quality: 80, effort: 0 } as const;
  const hash = newMediaHash();
  const [full, w320, w640, og, blur] = await Promise.all([
    picture().webp(webp).toBuffer(),
    picture().resize({ width: 320 }).webp(webp).toBuffer(),
    picture().resize({ width: 640 }).webp(webp).toBuffer(),
    picture().resize(ogSize.width, ogSize.height, { fit: 'cover' }).webp(webp).toBuffer(),
    picture().resize(64, 64, { fit: 'inside' }).blur(4).webp({ quality: 40, effort: 0 }).toBuffer(),
  ]);
  const files = [
    { key: mediaKey(hash, 'webp'), data: full },
    { key: mediaKey(hash, 'webp', '320'), data: w320 },
    { key: mediaKey(hash, 'webp', '640'), data: w640 },
    // Widths are never upscaled: the 1280 variant of a narrower picture is the picture.
    { key: mediaKey(hash, 'webp', '1280'), data: full },
    { key: mediaKey(hash, 'webp', 'blur'), data: blur },
    { key: mediaKey(hash, 'webp', 'og'), data: og },
    { key: mediaKey(hash, 'webp', 'ogb'), data: blurredOg },
  ];
  return { hash, files };
}

async function countPosts(ctx: AppContext): Promise<number> {
  const [row] = await ctx.db.select({ count: sql<number>`count(*)::int` }).from(posts);
  return row?.count ?? 0;
}

interface Planned {
  creatorId: number;
  colors: readonly [string, string];
  post: DemoPost;
  picture?: Picture;
}

/**
 * Gives the seeded creators their photo posts, with likes, comments and a creator's reply
 * from the seeded fans. Runs only while the database has no posts at all and the demo people
 * exist, so a real installation is never touched. Returns how many posts it created.
 */
export async function seedDemoPosts(ctx: AppContext): Promise<number> {
  if ((await countPosts(ctx)) > 0) return 0;
  const names = [...demoCreators, ...demoFans].map((person) => person.username);
  const people = await ctx.db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.username, names));
  const idOf = new Map(people.map((p) => [p.username, p.id]));
  const fanIds = demoFans.map((fan) => idOf.get(fan.username)).filter((id): id is number => id !== undefined);
  const planned: Planned[] = [];
  demoCreators.forEach((creator, index) => {
    const creatorId = idOf.get(creator.username);
    if (creatorId === undefined) return;
    for (const post of demoPostsOf(index, fanIds.length)) planned.push({ creatorId, colors: creator.colors, post });
  });
  if (planned.length === 0) return 0;

  const blurredOgs = new Map<readonly [string, string], Buffer>();
  for (const item of planned) if (!blurredOgs.has(item.colors)) blurredOgs.set(item.colors, await renderBlurredOg(item.colors));
  // Two at a time: sharp works off the main thread, and the machine has more than one core.
  for (let i = 0; i < planned.length; i += 2) {
    await Promise.all(
      planned.slice(i, i + 2).map(async (item) => {
        item.picture = await renderPicture(item.post.scene, item.post.variant, item.colors, blurredOgs.get(item.colors)!);
        for (const file of item.picture.files) await ctx.storage.put(file.key, file.data);
      }),
    );
  }

  const now = Date.now();
  const { width, height } = pictureSize;
  const timed = planned.map((item) => {
    const publishedAt = new Date(now - item.post.hoursAgo * 3_600_000);
    const at = (minutes: number) => new Date(Math.min(now, publishedAt.getTime() + minutes * 60_000));
    return { ...item, publishedAt, at };
  });
  // A handful of statements in all, each inserting rows for every post: the seed runs on
  // the embedded database at start-up, where each statement costs more than its rows.
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${postsSeedLockKey})`);
    const [existing] = await tx.select({ count: sql<number>`count(*)::int` }).from(posts);
    if ((existing?.count ?? 0) > 0) return 0;

    const mediaRows = await tx
      .insert(media)
      .values(
        timed.map(({ creatorId, colors, post, picture, publishedAt }) => ({
          hash: picture!.hash,
          ownerId: creatorId,
          kind: 'post',
          mediaType: 'image',
          format: 'webp',
          width,
          height,
          status: 3,
          price: post.price,
          aspectRatio: width / height,
          dominantColor: dominantColourOf(colors),
          createdAt: publishedAt,
        })),
      )
      .returning({ id: media.id, hash: media.hash });
    const mediaIdOf = new Map(mediaRows.map((row) => [row.hash, row.id]));

    // Rows come back keyed by author and time (unique in the plan), never by position.
    const keyOf = (userId: number, time: Date) => `${userId}:${time.getTime()}`;
    const postRows = await tx
      .insert(posts)
      .values(
        timed.map(({ creatorId, post, publishedAt }) => ({
          userId: creatorId,
          text: post.text,
          publishedAt,
          createdAt: publishedAt,
          likesCount: post.likedBy.length,
          commentsCount: post.comments.length + post.comments.filter((c) => c.reply !== undefined).length,
          rootCommentsCount: post.comments.length,
        })),
      )
      .returning({ id: posts.id, userId: posts.userId, publishedAt: posts.publishedAt });
    const postIdOf = new Map(postRows.map((row) => [keyOf(row.userId, row.publishedAt), row.id]));
    const withIds = timed.map((item) => ({ ...item, postId: postIdOf.get(keyOf(item.creatorId, item.publishedAt))! }));

    await tx.insert(postMedia).values(withIds.map(({ postId, picture }) => ({ postId, mediaId: mediaIdOf.get(picture!.hash)!, position: 0 })));
    const tags = withIds.flatMap(({ postId, post, publishedAt }) => parseHashtags(post.text).map((tag) => ({ postId, tag, publishedAt })));
    if (tags.length > 0) await tx.insert(postHashtags).values(tags);
    const likes = withIds.flatMap(({ postId, post, at }) => post.likedBy.map((fan, k) => ({ postId, userId: fanIds[fan]!, createdAt: at(5 + k * 13) })));
    if (likes.length > 0) await tx.insert(postLikes).values(likes);

    const tops = withIds.flatMap(({ postId, post, at }) =>
      post.comments.map((comment) => ({
        postId,
        userId: fanIds[comment.fan]!,
        text: comment.text,
        createdAt: at(comment.afterMinutes),
        childrenCount: comment.reply ? 1 : 0,
        // The creator liked the comments they answered.
        likesCount: comment.reply ? 1 : 0,
      })),
    );
    if (tops.length > 0) {
      const topRows = await tx
        .insert(comments)
        .values(tops)
        .returning({ id: comments.id, postId: comments.postId, userId: comments.userId });
      const topIdOf = new Map(topRows.map((row) => [`${row.postId}:${row.userId}`, row.id]));
      const replies = withIds.flatMap(({ postId, creatorId, post, at }) =>
        post.comments.flatMap((comment) =>
          comment.reply
            ? [{ parentId: topIdOf.get(`${postId}:${fanIds[comment.fan]!}`)!, postId, creatorId, text: comment.reply.text, createdAt: at(comment.afterMinutes + comment.reply.afterMinutes) }]
            : [],
        ),
      );
      if (replies.length > 0) {
        await tx.insert(comments).values(replies.map(({ parentId, postId, creatorId, text, createdAt }) => ({ postId, parentId, userId: creatorId, text, createdAt })));
        await tx.insert(commentLikes).values(replies.map(({ parentId, creatorId, createdAt }) => ({ commentId: parentId, userId: creatorId, createdAt })));
      }
    }

    return planned.length;
  });
}
