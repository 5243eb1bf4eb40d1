import { createWalletStore } from './wallet';
import { createEarningsStore } from './earnings';
import { createSubscriptionsStore } from './subscriptions';
import { createChatStore } from './chat';
import { createCallsStore } from './calls';
import { createUploadStore } from '../upload';
import { createPushApi } from '../push';
import { createNotificationsStore } from './notifications';

/**
 * The stores a visitor's first screen does not use: money (wallet, earnings, subscriptions),
 * the paid chat, calls, uploads, notifications and web push. `createFanstage` builds them from
 * here on first use; the site fetches this module on its own (`createLazyFanstage`) so its
 * first load goes without them.
 */
export const heavyStores = {
  createWalletStore,
  createEarningsStore,
  createSubscriptionsStore,
  createChatStore,
  createCallsStore,
  createUploadStore,
  createPushApi,
  createNotificationsStore,
};

export type HeavyStores = typeof heavyStores;
