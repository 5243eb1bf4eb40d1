import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Account } from '../../../../lib/contract/account';
import type { AppContext } from '../../context';
import { chatMessages, comments, follows, ledgerAccounts, ledgerEntries, ledgerTransfers, posts, subscriptionOffers, subscriptions, users } from '../../db/schema';

/**
 * Everything the account holds of its own, for GET /api/users/me/export (the right of access
 * and portability): the profile, what the person wrote (posts, comments, chat messages sent),
 * whom they follow, their subscriptions and their money lines. Other people appear only by the
 * username the person already sees; messages received are the senders' words and are left out.
 */
export interface AccountExport {
  format: 'fanstage-account-export';
  version: 1;
  exportedAt: string;
  profile: Account & { phone: string | null; createdAt: string };
  posts: { id: number; text: string; createdAt: string; publishedAt: string; likesCount: number; commentsCount: number }[];
  comments: { id: number; postId: number; parentId: number | null; text: string; createdAt: string }[];
  messagesSent: { id: number; to: string; text: string; price: number; createdAt: string }[];
  follows: { username: string; since: string }[];
  subscriptions: { id: number; creator: string; status: number; priceCents: number; payWith: string; periodEnd: string | null; createdAt: string }[];
  transactions: { id: number; kind: string; account: string; amount: number; createdAt: string }[];
}

const iso = (date: Date) => date.toISOString();

export async function exportAccount(ctx: AppContext, userId: number, account: Account): Promise<AccountExport> {
  const { db } = ctx;
  const [extra] = await db.select({ phone: users.phone, createdAt: users.createdAt }).from(users).where(eq(users.id, userId)).limit(1);
  const ownPosts = await db
    .select({ id: posts.id, text: posts.text, createdAt: posts.createdAt, publishedAt: posts.publishedAt, likesCount: posts.likesCount, commentsCount: posts.commentsCount })
    .from(posts)
    .where(and(eq(posts.userId, userId), isNull(posts.deletedAt)))
    .orderBy(asc(posts.id));
  const ownComments = await db
    .select({ id: comments.id, postId: comments.postId, parentId: comments.parentId, text: comments.text, createdAt: comments.createdAt })
    .from(comments)
    .where(and(eq(comments.userId, userId), isNull(comments.deletedAt)))
    .orderBy(asc(comments.id));
  const sent = await db
    .select({ id: chatMessages.id, to: users.username, text: chatMessages.text, price: chatMessages.price, createdAt: chatMessages.createdAt })
    .from(chatMessages)
    .innerJoin(users, eq(users.id, chatMessages.receiverId))
    // Call entries are the calls' records, not messages the person wrote.
    .where(and(eq(chatMessages.senderId, userId), isNull(chatMessages.callId)))
    .orderBy(asc(chatMessages.id));
  const following = await db
    .select({ username: users.username, since: follows.createdAt })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.followedId))
    .where(eq(follows.followerId, userId))
    .orderBy(asc(follows.createdAt));
  const subscribed = await db
    .select({
      id: subscriptions.id,
      creator: users.username,
      status: subscriptions.status,
      priceCents: subscriptions.priceCents,
      payWith: subscriptions.payWith,
      periodEnd: subscriptions.periodEnd,
      createdAt: subscriptions.createdAt,
    })
    .from(subscriptions)
    .innerJoin(subscriptionOffers, eq(subscriptionOffers.id, subscriptions.offerId))
    .innerJoin(users, eq(users.id, subscriptions.creatorId))
    .where(eq(subscriptions.subscriberId, userId))
    .orderBy(asc(subscriptions.id));
  // One line per transfer and account of the person's own (wallet, earnings), signed from their side.
  const lines = await db
    .select({
      id: ledgerTransfers.id,
      kind: ledgerTransfers.kind,
      account: ledgerAccounts.kind,
      amount: sql<string>`sum(${ledgerEntries.amount})`,
      createdAt: ledgerTransfers.createdAt,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
    .where(eq(ledgerAccounts.userId, userId))
    .groupBy(ledgerTransfers.id, ledgerTransfers.kind, ledgerAccounts.kind, ledgerTransfers.createdAt)
    .orderBy(asc(ledgerTransfers.id), asc(ledgerAccounts.kind));

  return {
    format: 'fanstage-account-export',
    version: 1,
    exportedAt: iso(ctx.clock.now()),
    profile: { ...account, phone: extra?.phone ?? null, createdAt: extra === undefined ? '' : iso(extra.createdAt) },
    posts: ownPosts.map((p) => ({ ...p, createdAt: iso(p.createdAt), publishedAt: iso(p.publishedAt) })),
    comments: ownComments.map((c) => ({ ...c, createdAt: iso(c.createdAt) })),
    messagesSent: sent.map((m) => ({ ...m, createdAt: iso(m.createdAt) })),
    follows: following.map((f) => ({ username: f.username, since: iso(f.since) })),
    subscriptions: subscribed.map((s) => ({ ...s, periodEnd: s.periodEnd === null ? null : iso(s.periodEnd), createdAt: iso(s.createdAt) })),
    transactions: lines.map((l) => ({ ...l, amount: Number(l.amount), createdAt: iso(l.createdAt) })),
  };
}
