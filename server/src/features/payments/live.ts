import type { AppContext } from '../../context';
import { createPaymentService } from './service';

/**
 * Sends each user their fresh `Balance` (`amountChange`) on their open sockets; call after the
 * transfer committed. Users with no socket anywhere are skipped without a query.
 */
export async function publishBalances(ctx: AppContext, userIds: readonly (number | null | undefined)[]): Promise<void> {
  const reachable = [...new Set(userIds)].filter((userId): userId is number => userId !== null && userId !== undefined && ctx.realtime.isReachable(userId));
  if (reachable.length === 0) return;
  try {
    // One read for them all: a batch of payments (chat/batch.ts) moves many people's money at once.
    const found = await createPaymentService(ctx).balances(reachable);
    for (const userId of reachable) {
      const b = found.get(userId);
      if (b === undefined) continue;
      ctx.realtime.publish(userId, {
        type: 'amountChange',
        balance: { gBalance: b.gBalance, cBalance: b.cBalance, cPayout: b.cPayout, ts: b.ts, myCbalance: b.myCbalance, myCbalance_acked: b.myCbalance_acked },
      });
    }
  } catch (error) {
    ctx.log.warn({ err: error, userIds: reachable }, 'realtime: could not read balances');
  }
}
