/**
 * Group commit of gifts on posts (docs/performance.md "Group commit"): the gifts that arrive
 * while a batch is being written are written together in ONE transaction — the posts, gifts
 * and blocks checked for all in one statement, the payments by ledger/batch.ts, each gift's
 * notification, and each post's count moved once — each gift keeping its own key and
 * its own refusal, and answered only after the batch committed. Locks in the order a gift alone
 * takes them: the fans' spending controls, their wallets, the posts' rows last.
 *
 * What the batch does not decide goes alone (`giftAlone`): a gift whose key was used already (a
 * resend, which `pay` answers as a replay), and every gift of a batch whose transaction failed.
 */
import { sql } from 'drizzle-orm';
import type { GiftPostBody, GiftResult } from '../../../../lib/contract/payments';
import type { AppContext } from '../../context';
import { rowsOf } from '../../db';
import { pgArray } from '../../db/arrays';
import { groupCommit } from '../../db/group-commit';
import { gifts, posts, users } from '../../db/schema';
import { AppError } from '../../errors';
import { inTransaction, type SpendVia } from '../../ledger';
import { planPayments, writePayments } from '../../ledger/batch';
import type { PaymentInput } from '../../ledger/pay';
import { balancesChanged } from '../../realtime/after-commit';
import { recordNotifications } from '../notifications/service';
import { blockedWith, postDoesntExist } from '../posts/access';

/** Most gifts in one batch. */
const maxBatch = 256;

interface Waiting {
  fanId: number;
  body: GiftPostBody;
  via: SpendVia;
  key: string;
  resolve: (result: GiftResult) => void;
  reject: (error: unknown) => void;
}

/** Whether a gift may join a batch: given on the platform's own pages. */
export function groupableGift(via: SpendVia): boolean {
  return via.channel === 'platform';
}

type Alone = (fanId: number, body: GiftPostBody, via: SpendVia, key: string) => Promise<GiftResult>;

interface CheckRow {
  ord: number;
  post_id: number | null;
  creator_id: number | null;
  published_at: Date | string | null;
  blocked: boolean | null;
  creator: boolean | null;
  gift_id: number | null;
  g_value: number | null;
  c_value: number | null;
}

export function createGiftBatches(ctx: AppContext, alone: Alone) {
  const { db } = ctx;
  const goAlone = (waiting: Waiting) => alone(waiting.fanId, waiting.body, waiting.via, waiting.key).then(waiting.resolve, waiting.reject);

  async function writeBatch(batch: Waiting[]): Promise<void> {
    let outcome: { answered: Map<Waiting, GiftResult>; failed: Map<Waiting, unknown>; alone: Set<Waiting> };
    try {
      outcome = await inTransaction(db, async (tx) => {
        const answered = new Map<Waiting, GiftResult>();
        const failed = new Map<Waiting, unknown>();
        const leftAlone = new Set<Waiting>();
        // The post as `visiblePost` finds it for the fan (not deleted, its author active, no block
        // either way, published), its author a creator, the gift active: one statement for all.
        const checks = rowsOf<CheckRow>(
          await tx.execute(sql`
            select v.ord, p.id as post_id, p.user_id as creator_id, p.published_at, ${blockedWith(sql`v.fan_id`, sql`p.user_id`)} as blocked,
              u.is_seller or u.is_partner as creator, g.id as gift_id, g.g_value, g.c_value
            from unnest(${pgArray(batch.map((_, i) => i))}::int[], ${pgArray(batch.map((w) => w.fanId))}::int[], ${pgArray(batch.map((w) => w.body.postId))}::int[],
              ${pgArray(batch.map((w) => w.body.giftId))}::int[]) as v(ord, fan_id, post_id, gift_id)
            left join ${posts} p on p.id = v.post_id and p.deleted_at is null
            left join ${users} u on u.id = p.user_id and u.deleted_at is null and u.banned_at is null
            left join ${gifts} g on g.id = v.gift_id and g.active
            order by v.ord`),
        );
        const nowMs = ctx.clock.now().getTime();
        const giving: { waiting: Waiting; postId: number; creatorId: number; giftId: number; gValue: number; cValue: number }[] = [];
        for (const row of checks) {
          const waiting = batch[Number(row.ord)]!;
          // As a gift alone refuses, in the same order (visiblePost, then the target, then giftTo).
          if (row.post_id === null || row.creator === null || row.blocked) {
            failed.set(waiting, postDoesntExist());
            continue;
          }
          const creatorId = Number(row.creator_id);
          if (new Date(row.published_at!).getTime() > nowMs) {
            failed.set(waiting, creatorId === waiting.fanId ? new AppError('post-scheduled') : postDoesntExist());
            continue;
          }
          if (creatorId === waiting.fanId) failed.set(waiting, new AppError('cannot-target-self'));
          else if (!row.creator) failed.set(waiting, new AppError('gift-send-error'));
          else if (row.gift_id === null) failed.set(waiting, new AppError('gift-not-found'));
          else giving.push({ waiting, postId: Number(row.post_id), creatorId, giftId: Number(row.gift_id), gValue: Number(row.g_value), cValue: Number(row.c_value) });
        }
        const payments: PaymentInput[] = giving.map((gift) => ({
            key: gift.waiting.key,
            kind: 'gift',
            fanId: gift.waiting.fanId,
            earnerId: gift.creatorId,
            fanAmount: gift.gValue,
            earnerCents: gift.cValue,
            meta: { postId: gift.postId, giftId: gift.giftId },
            via: gift.waiting.via,
            subject: `gift:${gift.giftId}:post:${gift.postId}`,
            details: { giftId: gift.giftId, postId: gift.postId },
        }));
        const plan = await planPayments(tx, payments);
        const kept: number[] = [];
        for (const [i, planned] of plan.items.entries()) {
          const { waiting } = giving[i]!;
          if (planned.status === 'accepted') kept.push(i);
          else if (planned.status === 'refused' && planned.error.key !== 'idempotency-conflict') failed.set(waiting, planned.error);
          // A resend of a gift made (or its key twice in the batch): `pay` alone answers it as a replay.
          else leftAlone.add(waiting);
        }
        if (kept.length === 0) return { answered, failed, alone: leftAlone };
        await writePayments(tx, plan, kept);
        // Each gift's notification (gifts never merge), one statement for them all.
        await recordNotifications(
          tx,
          kept.map((i) => ({ userId: giving[i]!.creatorId, type: 'postGift' as const, fromUserId: giving[i]!.waiting.fanId, postId: giving[i]!.postId, giftId: giving[i]!.giftId })),
        );
        const byPost = new Map<number, number[]>();
        for (const i of kept) byPost.set(giving[i]!.postId, [...(byPost.get(giving[i]!.postId) ?? []), i]);
        // The posts' rows last, as a gift alone takes its post's: each moved once, lowest id first.
        const postIds = [...byPost.keys()].sort((a, b) => a - b);
        const counted = rowsOf<{ id: number; gifts_count: number }>(
          await tx.execute(sql`
            update ${posts} p set gifts_count = p.gifts_count + c.n
            from (select * from unnest(${pgArray(postIds)}::int[], ${pgArray(postIds.map((id) => byPost.get(id)!.length))}::int[]) as c(id, n) order by id) c
            where p.id = c.id
            returning p.id, p.gifts_count`),
        );
        const countOf = new Map(counted.map((row) => [Number(row.id), Number(row.gifts_count)]));
        for (const [postId, indices] of byPost) {
          const total = countOf.get(postId) ?? 0;
          for (const [rank, i] of indices.entries()) {
            const gift = giving[i]!;
            const planned = plan.items[i]!;
            if (planned.status !== 'accepted') continue;
            balancesChanged(tx, [gift.waiting.fanId, gift.creatorId]);
            answered.set(gift.waiting, { gBalance: planned.walletAfter, ts: nowMs, totalGiftsCount: total - (indices.length - 1 - rank) });
          }
        }
        return { answered, failed, alone: leftAlone };
      });
    } catch (error) {
      // The batch as a whole failed: each gift goes alone under its own key.
      ctx.log.warn({ err: error, gifts: batch.length }, 'spending: a batch of gifts failed; giving them one by one');
      for (const waiting of batch) void goAlone(waiting);
      return;
    }
    for (const [waiting, result] of outcome.answered) waiting.resolve(result);
    for (const [waiting, error] of outcome.failed) waiting.reject(error);
    for (const waiting of outcome.alone) void goAlone(waiting);
  }

  const submit = groupCommit<Waiting>(writeBatch, {
    maxBatch,
    failed: (batch, error) => {
      for (const waiting of batch) waiting.reject(error);
    },
  });

  return {
    /** A gift given with the others that arrive meanwhile; answered once its batch committed. */
    give(fanId: number, body: GiftPostBody, via: SpendVia, key: string): Promise<GiftResult> {
      return new Promise<GiftResult>((resolve, reject) => submit({ fanId, body, via, key, resolve, reject }));
    },
  };
}
