import type { MoneyUser, Transaction } from '../../../../lib/contract/payments';

/** The smallest payout a creator may ask for, in cents ($20). */
export const MIN_PAYOUT_CENTS = 2000;

/**
 * A payout request identical to one the same creator made this recently (same amount, same
 * method) is taken for a resend of that request by the client and answers the first one.
 */
export const PAYOUT_RESEND_WINDOW_MS = 10_000;

/** How a card payout destination reads on a payout request: its brand and last digits. */
export function cardLabel(card: { brand: string; last4: string }): string {
  return `${card.brand} •••• ${card.last4}`;
}

/** Earnings lists, 30 a page (SPEC §9). */
export const EARNINGS_PAGE_SIZE = 30;

/** What a line of an earnings list is read from: one ledger entry with its transfer and payer. */
export interface EarningsLineRow {
  entryId: number;
  amount: number;
  createdAt: Date;
  kind: string;
  meta: Record<string, string | number | null>;
  payerId: number | null;
  counterpartyId: number | null;
  payerUsername: string | null;
  payerDisplayName: string | null;
  payerAvatarHash: string | null;
  payerAvatarFormat: string | null;
  /**
   * When the viewer both earned from the transfer and invited its payer: which of the viewer's
   * entries in it is the affiliate share (the other is the price earned); null otherwise.
   */
  ownAffiliateEntryId?: number | null;
}

const idOf = (value: string | number | null | undefined): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

/**
 * A line of `viewerId`'s earnings. The transfer kind names what happened (gift, unlock,
 * subscription, payout …); a fee share the viewer earned as the payer's affiliate is an
 * `affiliate` line, also beside the price when the viewer is both the payee and the affiliate.
 * `user` is who paid, left out when it is the viewer (a payout).
 */
export function toEarningsLine(row: EarningsLineRow, viewerId: number): Transaction {
  const affiliateShare = idOf(row.meta.affiliateId) === viewerId && (row.counterpartyId !== viewerId || row.entryId === row.ownAffiliateEntryId);
  const mediaId = idOf(row.meta.mediaId);
  const user: MoneyUser | null =
    row.payerId !== null && row.payerId !== viewerId && row.payerUsername !== null
      ? {
          id: row.payerId,
          username: row.payerUsername,
          displayName: row.payerDisplayName ?? row.payerUsername,
          avatarMedia: row.payerAvatarHash !== null && row.payerAvatarFormat !== null ? { mediaHash: row.payerAvatarHash, format: row.payerAvatarFormat } : null,
        }
      : null;
  // A paid call's minutes are settled out of the fan's holds (docs/calls.md).
  const call = row.kind === 'call' || (row.kind === 'hold-settle' && row.meta.purpose === 'call');
  return {
    id: row.entryId,
    transactionType: affiliateShare ? 'affiliate' : call ? 'call' : row.kind,
    transferType: call ? 'call' : 'earnings',
    amountCents: row.amount,
    user,
    giftId: idOf(row.meta.giftId),
    postId: idOf(row.meta.postId),
    media: mediaId === null ? null : { mediaId },
    ts: row.createdAt.getTime(),
  };
}
