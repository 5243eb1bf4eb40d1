import { and, eq, isNull } from 'drizzle-orm';
import type { CheckedClientMessage } from '../../../../lib/contract/socket';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { AppError } from '../../errors';
import type { SocketFeature } from '../../realtime/transport';
import { createNotificationService, recordProfileVisit } from './service';

/**
 * Notifications over the websocket: `notificationsRead` (the other tabs learn it too) and
 * `profileVisit`, which the profile screen sends when it is opened: recorded once a day per
 * visitor and profile, never one's own, and only for creators (sellers and partners), whose
 * audience it is news about. A fan is not told who looked at him.
 */
export function notificationSocketFeature(ctx: AppContext): SocketFeature {
  const service = createNotificationService(ctx);
  return {
    name: 'notifications',
    types: ['notificationsRead', 'profileVisit'],
    async handle(peer, type, fields) {
      if (type === 'notificationsRead') {
        await service.markRead(peer.userId, { exceptConnection: peer.key });
        return;
      }
      // Checked against the contract's schema by the transport before it got here.
      const { profileUserId: profileId } = fields as CheckedClientMessage<'profileVisit'>;
      if (profileId === peer.userId) return;
      const [profile] = await ctx.db
        .select({ id: users.id, isSeller: users.isSeller, isPartner: users.isPartner })
        .from(users)
        .where(and(eq(users.id, profileId), isNull(users.deletedAt)))
        .limit(1);
      if (profile === undefined) throw new AppError('user-not-found');
      if (profile.isSeller || profile.isPartner) await recordProfileVisit(ctx.db, peer.userId, profileId);
    },
  };
}
