import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { throttleEvents } from '../db/schema';
import { AppError } from '../errors';

/** A limit: at most `limit` events per key within the last `windowMs`. */
export interface ThrottleLimit {
  limit: number;
  windowMs: number;
}

/**
 * The limits of the routes that mail someone (reset mails, contact messages) or tell whether an address has an account
 * (docs/auth.md). Per address, so nobody floods one mailbox or probes one address from many
 * places; per requester, so one client cannot walk through a list of addresses.
 */
export const throttles = {
  'reset-mail-address': { limit: 5, windowMs: 60 * 60_000 },
  'reset-mail-requester': { limit: 20, windowMs: 60 * 60_000 },
  'check-email-address': { limit: 10, windowMs: 10 * 60_000 },
  'check-email-requester': { limit: 30, windowMs: 10 * 60_000 },
  // The contact form: a person writes a few messages an hour at most.
  'contact-address': { limit: 5, windowMs: 60 * 60_000 },
  'contact-requester': { limit: 10, windowMs: 60 * 60_000 },
  // Phone codes (SMS costs money and reaches a stranger's phone): a few per account and per number.
  'sms-code-user': { limit: 5, windowMs: 60 * 60_000 },
  'sms-code-phone': { limit: 5, windowMs: 60 * 60_000 },
  // Reports of content: more than this an hour is a script, not a person reading the site.
  'abuse-reporter': { limit: 20, windowMs: 60 * 60_000 },
} as const satisfies Record<string, ThrottleLimit>;
export type ThrottleBucket = keyof typeof throttles;

// The first key of the two-key advisory locks the throttles take; the second is the key's hash.
const lockClass = 722_061_002;

/**
 * Counts an event of `bucket` for `key` and records it, or throws 429 too-many-requests when
 * the key already had its limit within the window. Counting and recording happen under a
 * transaction-scoped advisory lock on the key, so concurrent requests on any node cannot all
 * slip under the limit together. A refused event is not recorded: a client that keeps trying
 * gets in again once the window has moved past its allowed events, and cannot grow the table.
 * The time is the context's clock, so tests can move past a window.
 */
export async function hit(ctx: AppContext, bucket: ThrottleBucket, key: string, limit: ThrottleLimit = throttles[bucket]): Promise<void> {
  const now = ctx.clock.now();
  const allowed = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${lockClass}, hashtext(${`${bucket}\n${key}`}))`);
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(throttleEvents)
      .where(and(eq(throttleEvents.bucket, bucket), eq(throttleEvents.key, key), gt(throttleEvents.createdAt, new Date(now.getTime() - limit.windowMs))));
    if ((row?.n ?? 0) >= limit.limit) return false;
    await tx.insert(throttleEvents).values({ bucket, key, createdAt: now });
    return true;
  });
  if (!allowed) throw new AppError('too-many-requests');
}

/** Deletes events older than the longest window: no limit looks at them any more. */
export async function pruneThrottleEvents(ctx: AppContext, now = ctx.clock.now().getTime()): Promise<void> {
  const longest = Math.max(...Object.values(throttles).map((t) => t.windowMs));
  await ctx.db.delete(throttleEvents).where(lt(throttleEvents.createdAt, new Date(now - longest)));
}
