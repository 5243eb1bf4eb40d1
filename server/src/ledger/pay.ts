import { attributionRecord } from './attribution';
import { guardSpend, spendRecord, type SpendVia } from './spend-guard';
import { account, sortedMeta, transfer, type Leg, type TransferResult, type Tx } from './transfer';

/** The affiliate's share of the platform's fee on what a referred fan spends, in per cent. */
export const AFFILIATE_SHARE_PERCENT = 10;

export interface PaymentInput {
  /** The business event (see `transfer`). */
  key: string;
  /** gift, unlock, subscription, chat-message, chat-media, call … */
  kind: string;
  fanId: number;
  earnerId: number;
  /** Credits taken from the fan's wallet (the salted price, or a gift's gValue). */
  fanAmount: number;
  /** Cents the earner receives (the stored price, or a gift's cValue); the rest is the platform's fee. */
  earnerCents: number;
  meta?: Record<string, string | number | null>;
  /** Where the fan spends and on whose word: checked against his limits and the site's allowance. */
  via: SpendVia;
  /** What is bought, which a confirmation must match (`gift:3`, `media:17`); default the kind. */
  subject?: string;
  /** What the confirmation popup shows of it. */
  details?: Record<string, string | number | null>;
}

export function feeLegs(fanId: number, fee: number, referrerId: number | null): { legs: Leg[]; affiliate: number } {
  const affiliate = referrerId !== null && referrerId !== fanId ? Math.floor((fee * AFFILIATE_SHARE_PERCENT) / 100) : 0;
  const legs: Leg[] = [];
  if (fee - affiliate > 0) legs.push({ account: account.fees, amount: fee - affiliate });
  if (affiliate > 0 && referrerId !== null) legs.push({ account: account.earnings(referrerId), amount: affiliate });
  return { legs, affiliate };
}

/**
 * A fan pays a creator: the fan's wallet gives `fanAmount`, the creator's earnings get
 * `earnerCents`, the platform keeps the difference, of which the fan's affiliate (if any) gets
 * their share — all one transfer. Refused with `noMoney` when the wallet cannot pay, and by the
 * spend guard (./spend-guard.ts) when the fan's limits, cool-down or the site's allowance say no.
 */
export async function pay(tx: Tx, input: PaymentInput): Promise<TransferResult> {
  const { fanAmount, earnerCents } = input;
  if (!Number.isSafeInteger(fanAmount) || !Number.isSafeInteger(earnerCents) || earnerCents < 0 || fanAmount < earnerCents || fanAmount <= 0) {
    throw new Error(`A payment needs 0 < earnerCents <= fanAmount, got ${earnerCents} of ${fanAmount}`);
  }
  const spend = { fanId: input.fanId, kind: input.kind, amount: fanAmount, creatorId: input.earnerId, subject: input.subject ?? input.kind, details: input.details, key: input.key, via: input.via };
  const { grant, referrerId } = await guardSpend(tx, spend);
  const { legs: fees, affiliate } = feeLegs(input.fanId, fanAmount - earnerCents, referrerId);
  const legs: Leg[] = [{ account: account.wallet(input.fanId), amount: -fanAmount }];
  if (earnerCents > 0) legs.push({ account: account.earnings(input.earnerId), amount: earnerCents });
  legs.push(...fees);
  // Where it happened: the guard's verified origin (a site) or the way the fan paid. Recorded,
  // like the spend, by the transfer's own statement and only when it moves the money.
  const where = grant?.origin ? { channel: 'site' as const, at: input.via.at, origin: grant.origin } : input.via;
  const subscriptionId = typeof input.meta?.subscriptionId === 'number' ? input.meta.subscriptionId : null;
  const attribution = await attributionRecord(tx, { kind: input.kind, fanId: input.fanId, creatorId: input.earnerId, earnedCents: earnerCents, via: where, subscriptionId });
  return transfer(tx, {
    key: input.key,
    kind: input.kind,
    userId: input.fanId,
    counterpartyId: input.earnerId,
    meta: {
      ...input.meta,
      ...(affiliate > 0 ? { affiliateId: referrerId, affiliateCents: affiliate } : {}),
      // Where it was spent, for the receipts; not part of what makes a resend the same request.
      ...(grant?.origin ? { site: grant.origin } : {}),
    },
    legs,
    fingerprint: ['pay', input.kind, input.fanId, input.earnerId, fanAmount, earnerCents, sortedMeta(input.meta)],
    alongside: grant === null ? [attribution] : [spendRecord(spend, grant, input.key), attribution],
  });
}
