/**
 * The chat's rows as every part of the chat service reads them: the columns of a stored
 * message (`messageColumns`, `MessageRow`) and the joins that place it in a reader's stream
 * (`streamOf`) or in a pair (`pairOf`); the people of a conversation as a message needs them
 * (the sender's or viewer's side, a partner no block or ban hides) and the chat media a sender
 * may attach. Plain functions of a transaction (or the database): no state of their own.
 */
import { and, eq, isNull, type SQL, type SQLWrapper } from 'drizzle-orm';
import { chatMessages, chatStream, media, users, type ChatMessageRow } from '../../db/schema';
import { AppError, errors } from '../../errors';
import type { Tx } from '../../ledger';
import { servableStatuses } from '../media/domain';
import { blockedWith } from '../posts/access';
import type { Side } from './write';

export const messageColumns = {
  id: chatMessages.id,
  msgId: chatMessages.msgId,
  senderId: chatMessages.senderId,
  receiverId: chatMessages.receiverId,
  text: chatMessages.text,
  price: chatMessages.price,
  giftId: chatMessages.giftId,
  mediaId: chatMessages.mediaId,
  massId: chatMessages.massId,
  suspectedUntil: chatMessages.suspectedUntil,
  senderReactionId: chatMessages.senderReactionId,
  receiverReactionId: chatMessages.receiverReactionId,
  callId: chatMessages.callId,
  createdAt: chatMessages.createdAt,
};

/** A stored message, with its position in the stream of the one who will read it when known. */
export type MessageRow = Pick<ChatMessageRow, keyof typeof messageColumns> & { seq?: number | null };

/**
 * Joins each message's position in `viewer`'s chat stream (a user id, or a column naming the
 * reader of each row): `select({ ...messageColumns, seq: chatStream.seq })` with this left join.
 */
export function streamOf(viewer: number | SQLWrapper): SQL {
  return and(eq(chatStream.messageId, chatMessages.id), eq(chatStream.userId, viewer as number))!;
}

/** Messages of the pair `a`–`b`, either way, through the pair index. */
export function pairOf(a: number, b: number): SQL {
  return and(eq(chatMessages.lowUserId, Math.min(a, b)), eq(chatMessages.highUserId, Math.max(a, b)))!;
}

const sideColumns = {
  level: users.level,
  isSeller: users.isSeller,
  isPartner: users.isPartner,
  messagePrice: users.messagePrice,
  emailVerified: users.emailVerified,
};

export async function sideOf(tx: Tx, userId: number): Promise<Side | undefined> {
  const [row] = await tx
    .select(sideColumns)
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt), isNull(users.bannedAt)))
    .limit(1);
  return row;
}

/** The other person, if they exist for `viewerId`: not deleted, not banned, no block either way. */
export async function partnerOf(tx: Tx, viewerId: number, partnerId: number): Promise<Side> {
  if (viewerId === partnerId) throw new AppError('cannot-target-self');
  const [row] = await tx
    .select({ ...sideColumns, blocked: blockedWith(viewerId, users.id).mapWith(Boolean) })
    .from(users)
    .where(and(eq(users.id, partnerId), isNull(users.deletedAt), isNull(users.bannedAt)))
    .limit(1);
  if (row === undefined || row.blocked) throw errors.userNotFound();
  return row;
}

/** A chat media the sender may send: their own, uploaded for chat, ready. */
export async function chatMediaOf(tx: Tx, ownerId: number, mediaId: number): Promise<{ id: number; price: number }> {
  const [row] = await tx
    .select({ id: media.id, ownerId: media.ownerId, kind: media.kind, status: media.status, price: media.price })
    .from(media)
    .where(eq(media.id, mediaId))
    .limit(1);
  // Someone else's media answers like a missing one: ids must not reveal what others uploaded.
  if (row === undefined || row.ownerId !== ownerId || row.kind !== 'chat') throw new AppError('upload-not-found');
  if (!servableStatuses.includes(row.status)) throw new AppError('media-not-ready');
  return { id: row.id, price: row.price };
}

export async function findMessage(tx: Tx, senderId: number, msgId: string): Promise<MessageRow | undefined> {
  const [row] = await tx
    .select(messageColumns)
    .from(chatMessages)
    .where(and(eq(chatMessages.senderId, senderId), eq(chatMessages.msgId, msgId)))
    .limit(1);
  return row;
}


/** The viewer as a conversation shows them, with their id; a viewer who is gone is not found. */
export async function viewerSide(tx: Tx, viewerId: number): Promise<Side & { id: number }> {
  const side = await sideOf(tx, viewerId);
  if (side === undefined) throw errors.userNotFound();
  return { ...side, id: viewerId };
}
