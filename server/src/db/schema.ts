/**
 * The database schema, one module per domain (./schema/), each naming the migrations that made
 * its tables. drizzle.config.ts and the server read it from here.
 */
export * from './schema/people';
export * from './schema/media';
export * from './schema/posts';
export * from './schema/notifications';
export * from './schema/money';
export * from './schema/sessions';
export * from './schema/trust';
export * from './schema/spending';
export * from './schema/social';
export * from './schema/ledger';
export * from './schema/chat';
export * from './schema/calls';
export * from './schema/partner';
export * from './schema/abuse';
export * from './schema/sites';
export * from './schema/links';

import type { chatConversations, chatMessages } from './schema/chat';
import type { ledgerAccounts } from './schema/ledger';
import type { gifts, paymentOrders, subscriptions } from './schema/money';
import type { notifications } from './schema/notifications';
import type { media, users } from './schema/people';
import type { comments, posts } from './schema/posts';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type MediaRow = typeof media.$inferSelect;
export type GiftRow = typeof gifts.$inferSelect;
export type PostRow = typeof posts.$inferSelect;
export type CommentRow = typeof comments.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;
export type LedgerAccountRow = typeof ledgerAccounts.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type PaymentOrderRow = typeof paymentOrders.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;
export type ChatConversationRow = typeof chatConversations.$inferSelect;
