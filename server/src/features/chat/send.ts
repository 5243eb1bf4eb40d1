/**
 * A single paid message (SPEC §7 chatMessage): the sender's resend found again by its `msgId`,
 * the price and gift checked and paid in the transaction that stores the message (the
 * statements themselves are in `write.ts`), its positions taken last, and the refusals the
 * client shows as a failed draft (`SendOutcome`) told apart from the errors it throws.
 */
import { and, eq } from 'drizzle-orm';
import { fanPriceCents } from '../../../../lib/contract/rules/price';
import type { AppContext } from '../../context';
import { gifts } from '../../db/schema';
import { AppError, errors } from '../../errors';
import { authorizeSpend, inTransaction, pay, type SpendVia } from '../../ledger';
import { balancesChanged } from '../../realtime/after-commit';
import { recordNotification } from '../notifications/service';
import { openPair, senderAndResend, storeMessage } from './write';
import { acceptsPrice, conversationPrice, isSuspected, suspectedUntil, type ChatMessageInput, type ChatRefusalEvent, type SendOutcome } from './domain';
import type { Delivery } from './delivery';
import { takePositions } from './positions';
import { createMessageBatches, groupable } from './batch';
import { chatMediaOf, findMessage, type MessageRow } from './rows';

export type { ChatRefusalEvent, SendOutcome } from './domain';

/** Thrown inside a transaction to roll it back and answer with a refusal event instead. */
class Refusal extends Error {
  constructor(
    readonly event: ChatRefusalEvent,
    readonly data: { msgId: string; price?: number },
  ) {
    super(event);
  }
}

/** Sending one message, part of the chat service. */
export function createMessageSending(ctx: AppContext, delivery: Delivery) {
  const { deliver } = delivery;
  const { db } = ctx;
  const now = () => ctx.clock.now();

  /** A message alone: in a transaction of its own (a gift, a media, a site's spend, a resend, or what a batch left). */
  async function sendOne(senderId: number, input: ChatMessageInput, via: SpendVia): Promise<SendOutcome> {
    const { sender, resent } = await senderAndResend(db, senderId, input.msgId);
    if (resent) {
      const known = await findMessage(db, senderId, input.msgId);
      if (known !== undefined) return { stored: await deliver(known, true), replayed: true };
    }
    if (input.receiverId === senderId) throw new AppError('cannot-target-self');
    if (sender === undefined) throw errors.userNotFound();
    if (!sender.emailVerified) return { refused: 'emailNotVerified', receiverId: input.receiverId, data: { msgId: input.msgId } };

    let result: { row: MessageRow; replayed: boolean; seqs?: Map<number, number> };
    try {
      result = await inTransaction(db, async (tx) => {
        const { receiver, mine, theirs } = await openPair(tx, senderId, input.receiverId);
        const price = conversationPrice(sender, receiver, theirs.customPrice);
        if (!acceptsPrice(price, input.price)) throw new Refusal('notAcceptedPrice', { msgId: input.msgId, price });
        const chatMedia = input.mediaId === null ? null : await chatMediaOf(tx, senderId, input.mediaId);
        let gift: { id: number; gValue: number; cValue: number } | null = null;
        if (input.giftId !== null) {
          const [found] = await tx
            .select({ id: gifts.id, gValue: gifts.gValue, cValue: gifts.cValue })
            .from(gifts)
            .where(and(eq(gifts.id, input.giftId), eq(gifts.active, true)))
            .limit(1);
          if (found === undefined) throw new AppError('gift-not-found');
          // Gifts are earnings: only creators have earnings to pay out.
          if (!receiver.isSeller && !receiver.isPartner) throw new AppError('gift-send-error');
          gift = found;
        }

        // Every message of a pair is later than the one before, so paging by sendDt never splits two.
        const nowMs = now().getTime();
        const sentAt = new Date(Math.max(nowMs, (mine.lastMessageAt?.getTime() ?? 0) + 1));
        const suspected = isSuspected(input.text, sender, receiver);
        const fanAmount = price > 0 ? fanPriceCents(price, ctx.config.priceSalt) : 0;
        // A salt below 1 × would make the fan pay less than the price; the seller never earns more than was paid.
        const earnerCents = Math.min(price, fanAmount);
        const earned = (price > 0 ? earnerCents : 0) + (gift?.cValue ?? 0);
        // The message and both sides of the conversation in one statement; the payments below
        // roll it back with them when they are refused.
        const inserted = await storeMessage(tx, {
          msgId: input.msgId,
          senderId,
          receiverId: input.receiverId,
          text: input.text,
          price,
          giftId: gift?.id ?? null,
          mediaId: chatMedia?.id ?? null,
          suspectedUntil: suspected ? new Date(suspectedUntil(sentAt.getTime())) : null,
          sentAt,
          earned,
        });
        if (inserted === undefined) {
          // The same msgId was stored by a resend that got here first: this one is that one.
          const stored = await findMessage(tx, senderId, input.msgId);
          if (stored === undefined) throw new Error('a chat message vanished');
          return { row: stored, replayed: true };
        }
        // A message's price and its gift are one spend to the fan: a site asks him once, for both.
        let spendVia = via;
        if (via.channel === 'site' && !via.confirmed && fanAmount + (gift?.gValue ?? 0) > 0) {
          const grant = await authorizeSpend(tx, {
            fanId: senderId,
            kind: 'chat-message',
            amount: fanAmount + (gift?.gValue ?? 0),
            creatorId: input.receiverId,
            subject: `message:${input.msgId}`,
            details: { text: input.text.slice(0, 140), giftId: gift?.id ?? null, price: fanAmount },
            key: `chat-ask:${senderId}:${input.msgId}`,
            via,
          });
          spendVia = { channel: 'site', at: via.at, origin: via.origin, confirmed: grant?.confirmed ?? false, allowed: true };
        }
        if (price > 0) {
          await pay(tx, {
            key: `chat:${senderId}:${input.msgId}`,
            kind: 'chat-message',
            fanId: senderId,
            earnerId: input.receiverId,
            fanAmount,
            earnerCents,
            meta: { messageId: inserted.id },
            via: spendVia,
          });
        }
        if (gift !== null) {
          await pay(tx, {
            key: `chat-gift:${senderId}:${input.msgId}`,
            kind: 'gift',
            fanId: senderId,
            earnerId: input.receiverId,
            fanAmount: gift.gValue,
            earnerCents: gift.cValue,
            meta: { giftId: gift.id, messageId: inserted.id },
            via: spendVia,
          });
          await recordNotification(tx, { userId: input.receiverId, type: 'chatGift', fromUserId: senderId, giftId: gift.id });
        }
        if (earned > 0) balancesChanged(tx, [senderId, input.receiverId]);

        // Positions last: the receiver's stream head is the row every message to her waits
        // for, so it is locked only for this statement and the commit. A refusal above
        // (noMoney) never took one.
        const seqs = await takePositions(tx, inserted.id, [senderId, input.receiverId]);
        return { row: inserted, replayed: false, seqs };
      });
    } catch (error) {
      if (error instanceof Refusal) return { refused: error.event, receiverId: input.receiverId, data: error.data };
      if (error instanceof AppError && error.key === 'noMoney') return { refused: 'noCredit', receiverId: input.receiverId, data: { msgId: input.msgId } };
      throw error;
    }
    return { stored: await deliver(result.row, result.replayed, result.seqs), replayed: result.replayed };
  }

  const batches = createMessageBatches(ctx, delivery, sendOne);

  return {
    /**
     * A message from `senderId` (SPEC §7 chatMessage). Stored and paid in one transaction, then
     * echoed to the sender's sockets and delivered to the receiver's. A refusal the client
     * shows as a failed message (price raised, no credit, e-mail unverified) comes back as
     * `refused`; a broken rule throws its AppError.
     */
    async send(senderId: number, input: ChatMessageInput, via: SpendVia = { channel: 'platform', at: now() }): Promise<SendOutcome> {
      // A text on the platform's pages is written with the others that arrive meanwhile (batch.ts).
      return groupable(input, via) ? batches.send(senderId, input, via) : sendOne(senderId, input, via);
    },
  };
}
