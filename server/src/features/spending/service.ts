import { randomBytes } from 'node:crypto';
import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import type { GiftPostBody, GiftResult, TipBody, UnlockBody, UnlockResult } from '../../../../lib/contract/payments';
import { fanPriceCents } from '../../../../lib/contract/rules/price';
import type { AppContext } from '../../context';
import { rowsOf } from '../../db';
import { gifts, media, mediaUnlocks, postMedia, posts, users } from '../../db/schema';
import { AppError } from '../../errors';
import { account, balanceOf, inTransaction, pay, type SpendVia, type Tx } from '../../ledger';
import { balancesChanged } from '../../realtime/after-commit';
import { servableStatuses } from '../media/domain';
import { recordNotification } from '../notifications/service';
import { blockedWith, postDoesntExist, visiblePost } from '../posts/access';
import { unlockedMediaIds } from '../posts/views';
import { addConversationEarnings, chatMessageWithMedia, lockConversation } from '../chat/service';
import { createGiftBatches, groupableGift } from './gift-batch';

/**
 * Spending credits: gifts on posts, tips to creators and unlocks of locked media (SPEC §7).
 * Every payment moves money with `pay` inside the transaction that records what it paid for,
 * under an idempotency key naming the event, so a resend never charges twice.
 */
export function createSpendingService(ctx: AppContext) {
  async function activeGift(tx: Tx, giftId: number) {
    const [gift] = await tx
      .select({ id: gifts.id, gValue: gifts.gValue, cValue: gifts.cValue })
      .from(gifts)
      .where(and(eq(gifts.id, giftId), eq(gifts.active, true)))
      .limit(1);
    if (gift === undefined) throw new AppError('gift-not-found');
    return gift;
  }

  /** A gift to `creatorId`, who must be a creator (only creators are paid), and the gift's values: one statement. */
  async function giftTo(tx: Tx, creatorId: number, giftId: number) {
    const [row] = rowsOf<{ creator: boolean | null; id: number | null; g_value: number; c_value: number }>(
      await tx.execute(sql`
        select (select ${users.isSeller} or ${users.isPartner} from ${users} where ${users.id} = ${creatorId}::int) as creator, g.id, g.g_value, g.c_value
        from (select 1) one left join ${gifts} g on g.id = ${giftId}::int and g.active`),
    );
    if (row?.creator !== true) throw new AppError('gift-send-error');
    if (row.id === null) throw new AppError('gift-not-found');
    return { id: Number(row.id), gValue: Number(row.g_value), cValue: Number(row.c_value) };
  }

  /** The key of a gift: the client's key when given (so a resend gives once), else a fresh one. */
  const giftKey = (fanId: number, clientKey: string | undefined) => `gift:${fanId}:${clientKey ?? randomBytes(12).toString('base64url')}`;

  const walletAnswer = async (tx: Tx, fanId: number) => ({ gBalance: await balanceOf(tx, account.wallet(fanId)), ts: ctx.clock.now().getTime() });

  /** A gift alone, in a transaction of its own (a site's gift, a resend, or what a batch left). */
  async function giftAlone(fanId: number, body: GiftPostBody, via: SpendVia, key: string): Promise<GiftResult> {
    return inTransaction(ctx.db, async (tx) => {
      const post = await visiblePost(tx, body.postId, fanId, { action: true, now: ctx.clock.now().getTime() });
      if (post.userId === fanId) throw new AppError('cannot-target-self');
      const gift = await giftTo(tx, post.userId, body.giftId);
      const { replayed } = await pay(tx, {
        key,
        kind: 'gift',
        fanId,
        earnerId: post.userId,
        fanAmount: gift.gValue,
        earnerCents: gift.cValue,
        meta: { postId: post.id, giftId: gift.id },
        via,
        subject: `gift:${gift.id}:post:${post.id}`,
        details: { giftId: gift.id, postId: post.id },
      });
      if (!replayed) balancesChanged(tx, [fanId, post.userId]);
      // The wallet is read before the post's row is taken: every gift on the post waits for
      // that row until this one commits, so it is the last thing locked.
      const wallet = await walletAnswer(tx, fanId);
      let totalGiftsCount: number;
      if (replayed) {
        const [row] = await tx.select({ count: posts.giftsCount }).from(posts).where(eq(posts.id, post.id));
        totalGiftsCount = row?.count ?? 0;
      } else {
        await recordNotification(tx, { userId: post.userId, type: 'postGift', fromUserId: fanId, postId: post.id, giftId: gift.id });
        const [row] = await tx
          .update(posts)
          .set({ giftsCount: sql`${posts.giftsCount} + 1` })
          .where(eq(posts.id, post.id))
          .returning({ count: posts.giftsCount });
        totalGiftsCount = row?.count ?? 0;
      }
      return { ...wallet, totalGiftsCount };
    });
  }

  const giftBatches = createGiftBatches(ctx, giftAlone);

  return {
    /**
     * A gift on someone else's visible post: the fan pays gValue, the creator earns cValue. As
     * with tips and chat gifts, only a creator (seller or partner) is paid: a post of anyone else
     * — a fan, an applicant not approved — takes no gifts (gift-send-error).
     */
    async giftPost(fanId: number, body: GiftPostBody, via: SpendVia): Promise<GiftResult> {
      const key = giftKey(fanId, body.idempotencyKey);
      // A gift on the platform's pages is written with the others that arrive meanwhile (gift-batch.ts).
      return groupableGift(via) ? giftBatches.give(fanId, body, via, key) : giftAlone(fanId, body, via, key);
    },

    /**
     * A tip from a tip button: a gift to a creator (a seller or partner) with no post. It is
     * announced as a `postGift` notification without a post: `chatGift` would point the
     * creator at a conversation that does not exist.
     */
    async tip(fanId: number, body: TipBody, via: SpendVia): Promise<GiftResult> {
      if (body.userId === fanId) throw new AppError('cannot-target-self');
      return inTransaction(ctx.db, async (tx) => {
        const [creator] = await tx
          .select({ id: users.id, isSeller: users.isSeller, isPartner: users.isPartner, blocked: blockedWith(fanId, users.id).mapWith(Boolean) })
          .from(users)
          .where(and(eq(users.id, body.userId), isNull(users.deletedAt), isNull(users.bannedAt)))
          .limit(1);
        if (creator === undefined || creator.blocked) throw new AppError('user-not-found');
        if (!creator.isSeller && !creator.isPartner) throw new AppError('gift-send-error');
        const gift = await activeGift(tx, body.giftId);
        const { replayed } = await pay(tx, {
          key: giftKey(fanId, body.idempotencyKey),
          kind: 'gift',
          fanId,
          earnerId: creator.id,
          fanAmount: gift.gValue,
          earnerCents: gift.cValue,
          meta: { giftId: gift.id },
          via,
          subject: `gift:${gift.id}`,
          details: { giftId: gift.id },
        });
        if (!replayed) balancesChanged(tx, [fanId, creator.id]);
        if (!replayed) await recordNotification(tx, { userId: creator.id, type: 'postGift', fromUserId: fanId, giftId: gift.id });
        return walletAnswer(tx, fanId);
      });
    },

    /**
     * Unlocks a priced post media for the fan at the price the fan was shown. The media row is
     * read under a share lock, so its price cannot change between the check and the payment.
     * Owners, fans who unlocked it before and subscribers get the key without paying.
     */
    async unlock(fanId: number, body: UnlockBody, via: SpendVia): Promise<UnlockResult> {
      // A chat media unlocked: both people's chats show it open once the payment committed.
      let chatUnlock: { ownerId: number; messageId: number } | null = null;
      // A post media opened for the fan: the fan's other tabs show it open too.
      let postUnlock: { ownerId: number } | null = null;
      const result = await inTransaction(ctx.db, async (tx) => {
        chatUnlock = null;
        postUnlock = null;
        const now = ctx.clock.now();
        const [row] = await tx
          .select({ id: media.id, hash: media.hash, ownerId: media.ownerId, price: media.price, status: media.status, kind: media.kind })
          .from(media)
          .where(eq(media.id, body.id))
          .for('share', { of: media })
          .limit(1);
        if (row === undefined || row.ownerId === null) throw postDoesntExist();
        const answer = async (): Promise<UnlockResult> => ({
          mediaId: row.id,
          mediaUnlockHash: ctx.unlockKeys.issue(row.hash, fanId, now.getTime()),
          ...(await walletAnswer(tx, fanId)),
        });
        if (row.ownerId === fanId) return answer();
        const ownerId = row.ownerId;

        /** The checks and the payment both kinds share, once the media was found shown to the fan. */
        const payFor = async (kind: 'unlock' | 'chat-media', meta: Record<string, number>) => {
          if (!servableStatuses.includes(row.status)) throw new AppError('media-not-ready');
          if ((await unlockedMediaIds(ctx, fanId, [row.id], tx)).has(row.id)) return null;
          if (body.price !== row.price) throw new AppError('price-changed', { body: { mediaId: row.id, price: row.price } });
          if (row.price <= 0) throw new AppError('invalid-price');
          const [fan] = await tx.select({ nsfwAgreement: users.nsfwAgreement }).from(users).where(eq(users.id, fanId));
          if (fan?.nsfwAgreement !== 1) throw new AppError('nsfw-agreement-required');
          const fanAmount = fanPriceCents(row.price, ctx.config.priceSalt);
          // A salt below 1 × would make the fan pay less than the price; the creator never earns more than was paid.
          const earnerCents = Math.min(row.price, fanAmount);
          const { replayed } = await pay(tx, {
            key: `unlock:${fanId}:${row.id}`,
            kind,
            fanId,
            earnerId: ownerId,
            fanAmount,
            earnerCents,
            meta: { mediaId: row.id, ...meta },
            via,
            subject: `media:${row.id}`,
            details: { mediaId: row.id, ...meta },
          });
          await tx.insert(mediaUnlocks).values({ userId: fanId, mediaId: row.id, pricePaid: fanAmount }).onConflictDoNothing();
          if (!replayed) balancesChanged(tx, [fanId, ownerId]);
          return { replayed, earnerCents };
        };

        if (row.kind === 'chat') {
          // A chat media opens to whoever received it in a chat message from its owner.
          const received = await chatMessageWithMedia(tx, fanId, ownerId, row.id);
          if (received === undefined) throw postDoesntExist();
          await lockConversation(tx, ownerId, fanId);
          const paid = await payFor('chat-media', { messageId: received.messageId });
          if (paid !== null && !paid.replayed) {
            await addConversationEarnings(tx, ownerId, fanId, paid.earnerCents);
            await recordNotification(tx, { userId: ownerId, type: 'chatMediaUnlock', fromUserId: fanId, mediaId: row.id });
            chatUnlock = { ownerId, messageId: received.messageId };
          }
          return answer();
        }

        // A post of the owner that the fan may see: published, not deleted, no block either way.
        const [shown] = await tx
          .select({ postId: posts.id })
          .from(postMedia)
          .innerJoin(posts, eq(posts.id, postMedia.postId))
          .innerJoin(users, eq(users.id, posts.userId))
          .where(
            and(
              eq(postMedia.mediaId, row.id),
              eq(posts.userId, row.ownerId),
              isNull(posts.deletedAt),
              isNull(users.deletedAt),
              lte(posts.publishedAt, now),
              sql`not ${blockedWith(fanId, posts.userId)}`,
            ),
          )
          .orderBy(posts.id)
          .limit(1);
        if (shown === undefined) throw postDoesntExist();
        const paid = await payFor('unlock', { postId: shown.postId });
        if (paid !== null && !paid.replayed) await recordNotification(tx, { userId: ownerId, type: 'postMediaUnlock', fromUserId: fanId, postId: shown.postId, mediaId: row.id });
        postUnlock = { ownerId };
        return answer();
      });
      const unlocked = chatUnlock as { ownerId: number; messageId: number } | null;
      if (unlocked !== null) {
        const data = { mediaId: body.id, messageId: unlocked.messageId };
        ctx.realtime.publish(unlocked.ownerId, { type: 'eventMessage', event: 'mediaUnlock', userId: fanId, data });
        ctx.realtime.publish(fanId, { type: 'eventMessage', event: 'mediaUnlock', userId: unlocked.ownerId, data: { ...data, mediaUnlockHash: result.mediaUnlockHash } });
      }
      const opened = postUnlock as { ownerId: number } | null;
      if (opened !== null) {
        // Only the fan hears it: the key opens the original for this fan alone.
        ctx.realtime.publish(fanId, { type: 'eventMessage', event: 'mediaUnlock', userId: opened.ownerId, data: { mediaId: result.mediaId, mediaUnlockHash: result.mediaUnlockHash } });
      }
      return result;
    },
  };
}
