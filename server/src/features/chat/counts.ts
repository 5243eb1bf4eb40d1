import { and, eq, sql } from 'drizzle-orm';
import { UNREAD_COUNT_CAP } from '../../../../lib/contract/constants';
import type { Database } from '../../db';
import { preparedStatement } from '../../db/prepared';
import { chatConversations, chatMessages } from '../../db/schema';
import { blockedWith } from '../posts/access';


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
export async function chatCounts(db: Database, userId: number): Promise<{ chats: number; reactions: number }> {
  const [row] = await preparedStatement(db, 'chat:counts', () => {
    const user = sql.placeholder('user');
    const unreadChats = db
      .select({ one: sql`1` })
      .from(chatConversations)
      .where(
        and(
          eq(chatConversations.userId, user),
          sql`${chatConversations.lastIncomingAt} > coalesce(${chatConversations.lastReadAt}, ${never}) and not ${chatConversations.archived}`,
          sql`not ${blockedWith(user, chatConversations.partnerId)}`,
        ),
      )
      .limit(UNREAD_COUNT_CAP);
    const unseenReactions = db
      .select({ one: sql`1` })
      .from(chatMessages)
      .leftJoin(chatConversations, and(eq(chatConversations.userId, chatMessages.senderId), eq(chatConversations.partnerId, chatMessages.receiverId)))
      .where(
        and(
          eq(chatMessages.senderId, user),
          sql`${chatMessages.receiverReactedAt} is not null`,
          sql`${chatMessages.receiverReactedAt} > coalesce(${chatConversations.lastReadAt}, ${never})`,
          sql`not ${blockedWith(user, chatMessages.receiverId)}`,
        ),
      )
      .limit(UNREAD_COUNT_CAP);
    // Both in one round trip.
    return db
      .select({
        chats: sql<number>`(select count(*)::int from (${unreadChats}) unread_chats)`,
        reactions: sql<number>`(select count(*)::int from (${unseenReactions}) unseen_reactions)`,
      })
      .from(sql`(select 1) one`);
  }).execute({ user: userId });
  return { chats: row?.chats ?? 0, reactions: row?.reactions ?? 0 };
}
