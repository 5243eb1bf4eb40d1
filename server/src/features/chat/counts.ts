import { and, eq, sql } from 'drizzle-orm';
import { UNREAD_COUNT_CAP } from '../../../../lib/contract/constants';
import type { Database } from '../../db';
import { chatConversations, chatMessages } from '../../db/schema';
import { blockedWith } from '../posts/access';

type Reader = Pick<Database, 'select'>;

/** A read mark that was never set: everything after the beginning of time is unread. */
const never = sql`'-infinity'::timestamptz`;

/**
 * The Chat tab's badge (SPEC §2: conversations plus reactions). `chats` counts conversations
 * with a message from the partner after the user last read them (archived ones and people in
 * a block with the user left out); `reactions` counts the user's messages the partner reacted
 * to after the user last read that conversation. Both read partial indexes holding only the
 * rows that count, so a user with thousands of conversations costs no more than one with few;
 * each stops at UNREAD_COUNT_CAP (the badge shows "99+").
 */
export async function chatCounts(db: Reader, userId: number): Promise<{ chats: number; reactions: number }> {
  const unreadChats = db
    .select({ one: sql`1` })
    .from(chatConversations)
    .where(
      and(
        eq(chatConversations.userId, userId),
        sql`${chatConversations.lastIncomingAt} > coalesce(${chatConversations.lastReadAt}, ${never}) and not ${chatConversations.archived}`,
        sql`not ${blockedWith(userId, chatConversations.partnerId)}`,
      ),
    )
    .limit(UNREAD_COUNT_CAP)
    .as('unread_chats');
  const unseenReactions = db
    .select({ one: sql`1` })
    .from(chatMessages)
    .leftJoin(chatConversations, and(eq(chatConversations.userId, chatMessages.senderId), eq(chatConversations.partnerId, chatMessages.receiverId)))
    .where(
      and(
        eq(chatMessages.senderId, userId),
        sql`${chatMessages.receiverReactedAt} is not null`,
        sql`${chatMessages.receiverReactedAt} > coalesce(${chatConversations.lastReadAt}, ${never})`,
        sql`not ${blockedWith(userId, chatMessages.receiverId)}`,
      ),
    )
    .limit(UNREAD_COUNT_CAP)
    .as('unseen_reactions');
  const [chats] = await db.select({ count: sql<number>`count(*)::int` }).from(unreadChats);
  const [reactions] = await db.select({ count: sql<number>`count(*)::int` }).from(unseenReactions);
  return { chats: chats?.count ?? 0, reactions: reactions?.count ?? 0 };
}
