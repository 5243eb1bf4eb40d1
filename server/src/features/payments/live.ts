import type { AppContext } from '../../context';
import { createPaymentService } from './service';

/**
 * Sends each user their fresh `Balance` (`amountChange`) on their open sockets; call after the
 * transfer committed. Users with no socket anywhere are skipped without a query.
 */
export async function publishBalances(ctx: AppContext, userIds: readonly (number | null | undefined)[]): Promise<void> {
  const service = createPaymentService(ctx);
  for (const userId of new Set(userIds)) {
    if (userId === null || userId === undefined || !ctx.realtime.isReachable(userId)) continue;
    try {
      const b = await service.balance(userId);
      ctx.realtime.publish(userId, {
        type: 'amountChange',
        balance: { gBalance: b.gBalance, cBalance: b.cBalance, cPayout: b.cPayout, ts: b.ts, myCbalance: b.myCbalance, myCbalance_acked: b.myCbalance_acked },
      });
    } catch (error) {
      ctx.log.warn({ err: error, userId }, 'realtime: could not read a balance');
    }
  }
}
