import type { AppContext } from '../../context';
import { createNotificationService } from './service';

/**
 * Sends each user their fresh badge counts (`updateCount`: notifications, chats, reactions) on
 * their open sockets; call after the transaction that changed them committed. Users with no
 * socket anywhere are skipped without a query.
 */
export async function publishCounts(ctx: AppContext, userIds: readonly number[]): Promise<void> {
  const service = createNotificationService(ctx);
  for (const userId of new Set(userIds)) {
    if (!ctx.realtime.isReachable(userId)) continue;
    try {
      const counts = await service.counts(userId);
      ctx.realtime.publish(userId, { type: 'updateCount', ...counts });
    } catch (error) {
      ctx.log.warn({ err: error, userId }, 'realtime: could not count notifications');
    }
  }
}
