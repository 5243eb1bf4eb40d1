import { and, eq, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../../db';
import { preparedStatement } from '../../db/prepared';
import { blocks, posts, users } from '../../db/schema';
import { AppError } from '../../errors';
import type { Tx as Writer } from '../../db/tx';

/**
 * Who may see and act on a post. A deleted post, a post of a deleted or banned account and a post of
 * someone in a block with the viewer (either way) do not exist for the viewer; a scheduled
 * post exists for its owner only, and nobody may act on it (like, comment) until it starts.
 */

/** True when the viewer and the user in column `other` are in a block, whichever blocked whom. */
export function blockedWith(viewerId: number | SQLWrapper, other: SQLWrapper): SQL {
  return sql`exists(select 1 from ${blocks} where (${blocks.blockerId} = ${viewerId} and ${blocks.blockedId} = ${other}) or (${blocks.blockerId} = ${other} and ${blocks.blockedId} = ${viewerId}))`;
}

/** Rows of `other` (a user id column) not in a block with the viewer; no condition for visitors. */
export function notBlockedWith(viewerId: number | SQLWrapper | null, other: SQLWrapper): SQL | undefined {
  return viewerId === null ? undefined : sql`not ${blockedWith(viewerId, other)}`;
}

export interface VisiblePost {
  id: number;
  userId: number;
  publishedAt: Date;
  scheduled: boolean;
}

export const postDoesntExist = () => new AppError('post-doesnt-exists');

interface PostAccessRow {
  id: number;
  userId: number;
  publishedAt: Date;
  blocked: boolean;
}

/** The post's row for `viewer` (a value, or the `viewer` placeholder of a prepared statement). */
function postAccessQuery(db: Writer, postId: number | SQLWrapper, viewer: number | SQLWrapper | null) {
  return (
    db
      .select({
        id: posts.id,
        userId: posts.userId,
        publishedAt: posts.publishedAt,
        blocked: viewer === null ? sql<boolean>`false` : blockedWith(viewer, posts.userId).mapWith(Boolean),
      })
      .from(posts)
      .innerJoin(users, eq(users.id, posts.userId))
      // A banned account's posts leave with it, as they leave every list (timeline/conditions.ts activeUser).
      .where(and(eq(posts.id, postId), isNull(posts.deletedAt), isNull(users.deletedAt), isNull(users.bannedAt)))
      .limit(1)
  );
}

function checkedPost(row: PostAccessRow | undefined, viewerId: number | null, options: { action?: boolean; now?: number }): VisiblePost {
  const now = options.now ?? Date.now();
  if (row === undefined || row.blocked) throw postDoesntExist();
  const scheduled = row.publishedAt.getTime() > now;
  if (scheduled && row.userId !== viewerId) throw postDoesntExist();
  if (scheduled && options.action) throw new AppError('post-scheduled');
  return { id: row.id, userId: row.userId, publishedAt: row.publishedAt, scheduled };
}

/**
 * The post if the viewer may see it, else post-doesnt-exists. With `action`, a scheduled
 * post answers post-scheduled (to its owner; for others it does not exist at all).
 */
export async function visiblePost(db: Writer, postId: number, viewerId: number | null, options: { action?: boolean; now?: number } = {}): Promise<VisiblePost> {
  const [row] = await postAccessQuery(db, postId, viewerId);
  return checkedPost(row, viewerId, options);
}

/**
 * {@link visiblePost} for reads outside a transaction, as a prepared statement (a read of a
 * post's comments asks it every time: planning it cost more than running it).
 */
export async function readablePost(db: Database, postId: number, viewerId: number | null): Promise<VisiblePost> {
  const statement = preparedStatement(db, `posts:access:${viewerId === null ? 'visitor' : 'viewer'}`, () =>
    postAccessQuery(db, sql.placeholder('post'), viewerId === null ? null : sql.placeholder('viewer')),
  );
  const [row] = await statement.execute(viewerId === null ? { post: postId } : { post: postId, viewer: viewerId });
  return checkedPost(row, viewerId, {});
}
