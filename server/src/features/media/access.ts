import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { chatMessages, media, mediaUnlocks, postMedia, posts, users } from '../../db/schema';
import { blockedWith } from '../posts/access';
import { servableStatuses } from './domain';

/**
 * Whether `viewerId` may see the media in `media` — and so learn its hash, the address of its
 * files. An id is a small number anyone can count through, so knowing one proves nothing: the
 * media must be shown to the viewer by something they may see.
 *
 * - Its owner sees it in any state.
 * - Others see it only when it is ready, and only through:
 *   - a paid unlock of it (what was paid for stays reachable, as `/api/unlocked-posts` keeps it,
 *     blocks or not);
 *   - or, when neither of the two blocked the other:
 *     - a published, not deleted post of a not deleted author holding it (a scheduled post is
 *       its author's alone until it starts);
 *     - a chat message from its owner to the viewer (a chat media is the two people's of that
 *       conversation; a mass message leaves one such message with every receiver);
 *     - being the avatar of its owner, who is not deleted (avatars are on every profile).
 *
 * Post, chat and avatar media are always their owner's (creating a post and sending a message
 * check it), so each way in is looked up from the owner's side, through an index.
 */
export function mediaShownTo(viewerId: number, now: Date): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  const inPost = sql`exists(select 1 from ${postMedia} join ${posts} on ${posts.id} = ${postMedia.postId} join ${users} on ${users.id} = ${posts.userId}
    where ${postMedia.mediaId} = ${media.id} and ${posts.deletedAt} is null and ${users.deletedAt} is null and ${posts.publishedAt} <= ${at})`;
  // The pair index of chat media: the owner sent it, the viewer received it.
  const inChat = sql`exists(select 1 from ${chatMessages}
    where ${chatMessages.lowUserId} = least(${media.ownerId}, ${viewerId}::int) and ${chatMessages.highUserId} = greatest(${media.ownerId}, ${viewerId}::int)
      and ${chatMessages.mediaId} = ${media.id} and ${chatMessages.senderId} = ${media.ownerId} and ${chatMessages.receiverId} = ${viewerId})`;
  const asAvatar = sql`exists(select 1 from ${users} where ${users.id} = ${media.ownerId} and ${users.avatarMediaId} = ${media.id} and ${users.deletedAt} is null)`;
  const unlocked = sql`exists(select 1 from ${mediaUnlocks} where ${mediaUnlocks.userId} = ${viewerId} and ${mediaUnlocks.mediaId} = ${media.id})`;
  return or(
    eq(media.ownerId, viewerId),
    and(
      inArray(media.status, [...servableStatuses]),
      or(unlocked, and(sql`not ${blockedWith(viewerId, media.ownerId)}`, or(inPost, inChat, asAvatar))),
    ),
  )!;
}
