import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { and, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { SpendReceipt, SpendRequest, SpendRequestRef, SpendRequestStatus, SpendingLimits, SpendingLimitsBody } from '../../../../lib/contract/spending';
import type { AppContext } from '../../context';
import { embedConsents, paymentOrders, spendRequests, spendingControls, spends } from '../../db/schema';
import { moneyUsersById } from '../payments/people';
import { AppError } from '../../errors';
import { isPlatformOrigin } from '../../http/origins';
import { ConfirmationNeeded, LIMIT_RAISE_DELAY_MS, limitsAt, spentAt, type SpendAsk, type SpendVia } from '../../ledger';
import { startOfUtcMonth } from '../../ledger/spend-guard';
import { viewerOf, type Viewer } from '../auth/guard';

/** How long the fan has to confirm a spend request, and the widget to use the confirmation. */
export const SPEND_REQUEST_MS = 10 * 60_000;

/** The header's name as Node hands it over (lower case). */
const CONFIRMATION_HEADER = 'fanstage-confirmation';

/** The confirmation a widget sent its spend again with, if any. */
function confirmationOf(request: FastifyRequest): string | null {
  const value = request.headers[CONFIRMATION_HEADER];
  return typeof value === 'string' && /^[A-Za-z0-9_-]{16,32}$/.test(value) ? value : null;
}

/** A widget session bound to a partner site (not the platform's own origin). */
export function siteOf(viewer: Viewer): string | null {
  return viewer.scope === 'widget' && viewer.consentId !== null && viewer.origin !== null ? viewer.origin : null;
}

/** Where the viewer of `request` spends, and on whose word (ledger/spend-guard.ts). */
export function viaOf(ctx: AppContext, request: FastifyRequest): SpendVia {
  const at = ctx.clock.now();
  const site = siteOf(viewerOf(request));
  return site === null ? { channel: 'platform', at } : { channel: 'site', at, origin: site, confirmation: confirmationOf(request) };
}

/** As `viaOf`, for a websocket connection bound to `origin` (null for the platform's pages). */
export function socketVia(ctx: AppContext, origin: string | null, confirmation: string | null = null): SpendVia {
  const at = ctx.clock.now();
  if (origin === null || isPlatformOrigin(ctx.config, origin)) return { channel: 'platform', at };
  return { channel: 'site', at, origin, confirmation };
}

const newId = () => randomBytes(16).toString('base64url');

export function createSpendRequests(ctx: AppContext) {
  const { db } = ctx;
  const now = () => ctx.clock.now();

  const moneyUsers = (ids: number[]) => moneyUsersById(db, ids);

  /**
   * Opens a spend request for what a widget asked (outside the spend's transaction, which
   * rolled back) and answers the refusal that carries it: `confirmation-required` with the
   * request's id and the platform page that asks the fan.
   */
  async function open(userId: number, ask: SpendAsk): Promise<AppError> {
    const [consent] = await db
      .select({ id: embedConsents.id })
      .from(embedConsents)
      .where(and(eq(embedConsents.userId, userId), eq(embedConsents.origin, ask.origin)))
      .limit(1);
    // The consent went while the spend was checked: the session is over.
    if (consent === undefined) return new AppError('unauthorized');
    const at = now();
    const id = newId();
    await db.insert(spendRequests).values({
      id,
      userId,
      origin: ask.origin,
      consentId: consent.id,
      kind: ask.kind,
      amount: ask.amount,
      creatorId: ask.creatorId,
      subject: ask.subject,
      details: ask.details,
      createdAt: at,
      expiresAt: new Date(at.getTime() + SPEND_REQUEST_MS),
    });
    const ref: SpendRequestRef = { id, url: `${ctx.config.publicUrl}/embed/confirm?request=${id}`, kind: ask.kind, amount: ask.amount };
    return new AppError('confirmation-required', { body: ref });
  }

  /**
   * Runs a spend for the viewer of `request` where it is made: a widget's spend that needs the
   * fan's word is refused with `confirmation-required`, naming the spend request to confirm.
   */
  async function guarded<T>(request: FastifyRequest, run: (via: SpendVia) => Promise<T>): Promise<T> {
    try {
      return await run(viaOf(ctx, request));
    } catch (error) {
      if (error instanceof ConfirmationNeeded) throw await open(viewerOf(request).id, error.ask);
      throw error;
    }
  }

  async function row(id: string) {
    const [found] = await db.select().from(spendRequests).where(eq(spendRequests.id, id)).limit(1);
    return found;
  }

  /** A card payment's request is completed by its order once paid. */
  async function statusOf(found: typeof spendRequests.$inferSelect): Promise<SpendRequestStatus> {
    if (found.orderId !== null) {
      const [order] = await db.select({ status: paymentOrders.status }).from(paymentOrders).where(eq(paymentOrders.id, found.orderId)).limit(1);
      if (order?.status === 'paid') return 'completed';
    }
    if ((found.status === 'pending' || found.status === 'confirmed') && found.expiresAt.getTime() <= now().getTime()) return 'expired';
    return found.status as SpendRequestStatus;
  }

  /**
   * The fan's own request: on the platform, or from a widget of the site that opened it.
   * Anyone else's (or a missing one) is `not-found`, so ids cannot be probed.
   */
  async function own(viewer: Viewer, id: string) {
    const found = await row(id);
    const site = siteOf(viewer);
    if (found === undefined || found.userId !== viewer.id || (site !== null && found.origin !== site)) throw new AppError('not-found');
    return found;
  }

  async function view(viewer: Viewer, id: string): Promise<SpendRequest> {
    const found = await own(viewer, id);
    const people = await moneyUsers(found.creatorId === null ? [] : [found.creatorId]);
    return {
      id: found.id,
      kind: found.kind,
      amount: found.amount,
      origin: found.origin,
      status: await statusOf(found),
      creator: found.creatorId === null ? null : (people.get(found.creatorId) ?? null),
      details: found.details,
      orderId: found.orderId,
      expiresAt: found.expiresAt.getTime(),
    };
  }

  /** Moves a request on from pending (or confirmed, for a cancel); anything else refuses. */
  async function decide(viewer: Viewer, id: string, to: 'confirmed' | 'cancelled'): Promise<SpendRequest> {
    const found = await own(viewer, id);
    const from = to === 'confirmed' ? ['pending'] : ['pending', 'confirmed'];
    const cardPayment = found.kind === 'topup' || found.kind === 'subscription-card';
    // A card payment is confirmed by paying it in the window, not by a button.
    if (to === 'confirmed' && cardPayment) throw new AppError('confirmation-invalid');
    const [moved] = await db
      .update(spendRequests)
      .set({ status: to, decidedAt: now() })
      .where(and(eq(spendRequests.id, found.id), inArray(spendRequests.status, from), gte(spendRequests.expiresAt, now())))
      .returning({ id: spendRequests.id });
    if (moved === undefined && !(to === 'cancelled' && found.status === 'cancelled')) throw new AppError('confirmation-invalid');
    return view(viewer, id);
  }

  /**
   * A card payment the platform's window makes for a site's request: the request must be the
   * fan's, still open, of that kind and for that subject; the order is linked to it, which
   * completes it once paid.
   */
  async function forCardPayment(userId: number, id: string, kind: 'topup' | 'subscription-card', subject: string): Promise<{ link(orderId: string): Promise<void> }> {
    const found = await row(id);
    // Once its order is paid the request is completed: a second payment for it is refused.
    if (found === undefined || found.userId !== userId || found.kind !== kind || found.subject !== subject || (await statusOf(found)) !== 'pending') {
      throw new AppError('confirmation-invalid');
    }
    return {
      async link(orderId: string) {
        await db.update(spendRequests).set({ orderId }).where(eq(spendRequests.id, id));
      },
    };
  }

  /**
   * What a widget's card payment becomes: without a confirmation, a spend request the fan pays in
   * the platform's card window (`confirmation-required`); with the id of a request he paid there,
   * the order that paid it. A widget never charges a card itself.
   */
  async function cardPaymentOfWidget(request: FastifyRequest, ask: Omit<SpendAsk, 'origin'>): Promise<string> {
    const viewer = viewerOf(request);
    const site = siteOf(viewer);
    if (site === null) throw new Error('cardPaymentOfWidget is for widget sessions');
    const confirmation = confirmationOf(request);
    if (confirmation === null) throw await open(viewer.id, { ...ask, origin: site });
    const found = await row(confirmation);
    if (found === undefined || found.userId !== viewer.id || found.origin !== site || found.kind !== ask.kind || found.subject !== ask.subject || found.orderId === null) {
      throw new AppError('confirmation-invalid');
    }
    return found.orderId;
  }

  /** Forgets requests a day past their expiry (run by the scheduler). */
  async function sweep(): Promise<number> {
    const gone = await db
      .delete(spendRequests)
      .where(lt(spendRequests.expiresAt, new Date(now().getTime() - 24 * 3_600_000)))
      .returning({ id: spendRequests.id });
    return gone.length;
  }

  return { open, guarded, view, decide, forCardPayment, cardPaymentOfWidget, moneyUsers, sweep };
}

export type SpendRequests = ReturnType<typeof createSpendRequests>;

/** The fan's own limits and cool-down, and the allowances and receipts of the sites he allowed. */
export function createSpendingControls(ctx: AppContext, requests: SpendRequests) {
  const { db } = ctx;
  const now = () => ctx.clock.now();

  async function limits(userId: number): Promise<SpendingLimits> {
    const at = now();
    const [row] = await db.select().from(spendingControls).where(eq(spendingControls.userId, userId)).limit(1);
    const inForce = limitsAt(row, at);
    const spent = await spentAt(db, userId, at, null);
    const pending = (limit: number | null, from: Date | null) => (from !== null && from.getTime() > at.getTime() ? { limit, at: from.getTime() } : null);
    return {
      daily: inForce.daily,
      monthly: inForce.monthly,
      pendingDaily: row ? pending(row.dailyLimitNext, row.dailyLimitNextAt) : null,
      pendingMonthly: row ? pending(row.monthlyLimitNext, row.monthlyLimitNextAt) : null,
      cooldownUntil: row?.cooldownUntil && row.cooldownUntil.getTime() > at.getTime() ? row.cooldownUntil.getTime() : null,
      spentToday: spent.day,
      spentThisMonth: spent.month,
    };
  }

  /**
   * Sets a limit: lower (or the same) applies at once, higher or none only a day later, so a
   * limit set in a calm moment holds through a heated one. A raise waiting is replaced by the
   * newer wish.
   */
  async function setLimits(userId: number, body: SpendingLimitsBody): Promise<SpendingLimits> {
    const at = now();
    await db.transaction(async (tx) => {
      await tx.insert(spendingControls).values({ userId }).onConflictDoNothing();
      const [row] = await tx.select().from(spendingControls).where(eq(spendingControls.userId, userId)).for('update');
      if (!row) throw new Error('spending controls vanished');
      const inForce = limitsAt(row, at);
      const next: Partial<typeof spendingControls.$inferInsert> = { updatedAt: at };
      const plan = (current: number | null, wanted: number | null) => {
        const lower = wanted !== null && (current === null || wanted <= current);
        return lower ? { now: wanted, next: null, nextAt: null } : { now: current, next: wanted, nextAt: new Date(at.getTime() + LIMIT_RAISE_DELAY_MS) };
      };
      if (body.daily !== undefined) {
        const step = plan(inForce.daily, body.daily);
        Object.assign(next, { dailyLimit: step.now, dailyLimitNext: step.next, dailyLimitNextAt: step.nextAt });
      }
      if (body.monthly !== undefined) {
        const step = plan(inForce.monthly, body.monthly);
        Object.assign(next, { monthlyLimit: step.now, monthlyLimitNext: step.next, monthlyLimitNextAt: step.nextAt });
      }
      await tx.update(spendingControls).set(next).where(eq(spendingControls.userId, userId));
    });
    return limits(userId);
  }

  /** A cool-down: no spending for `hours`; a longer one replaces a shorter, never the other way. */
  async function coolDown(userId: number, hours: number): Promise<SpendingLimits> {
    const until = new Date(now().getTime() + hours * 3_600_000);
    await db.insert(spendingControls).values({ userId, cooldownUntil: until }).onConflictDoUpdate({
      target: spendingControls.userId,
      set: { cooldownUntil: sql`greatest(coalesce(${spendingControls.cooldownUntil}, ${until.toISOString()}::timestamptz), ${until.toISOString()}::timestamptz)`, updatedAt: now() },
    });
    return limits(userId);
  }

  async function consentOf(userId: number, origin: string) {
    const [consent] = await db
      .select({ id: embedConsents.id, allowance: embedConsents.monthlyAllowance })
      .from(embedConsents)
      .where(and(eq(embedConsents.userId, userId), eq(embedConsents.origin, origin)))
      .limit(1);
    if (consent === undefined) throw new AppError('not-found');
    return consent;
  }

  /** Changes what a site the fan allowed may spend a month without asking. */
  async function setAllowance(userId: number, origin: string, allowance: number): Promise<void> {
    const consent = await consentOf(userId, origin);
    await db.update(embedConsents).set({ monthlyAllowance: allowance }).where(eq(embedConsents.id, consent.id));
  }

  /** This month's receipts of one site (or, with null, of every place), newest first. */
  async function receipts(userId: number, origin: string | null, limit = 100): Promise<SpendReceipt[]> {
    const month = startOfUtcMonth(now());
    const rows = await db
      .select()
      .from(spends)
      .where(and(eq(spends.userId, userId), gte(spends.createdAt, month), origin === null ? undefined : eq(spends.origin, origin)))
      .orderBy(desc(spends.createdAt), desc(spends.id))
      .limit(limit);
    const people = await requests.moneyUsers([...new Set(rows.map((r) => r.creatorId).filter((id): id is number => id !== null))]);
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      amount: r.amount,
      creator: r.creatorId === null ? null : (people.get(r.creatorId) ?? null),
      origin: r.origin,
      confirmed: r.confirmed,
      ts: r.createdAt.getTime(),
    }));
  }

  async function siteSpending(userId: number, origin: string) {
    const consent = await consentOf(userId, origin);
    const spent = await spentAt(db, userId, now(), origin);
    return { origin, allowance: consent.allowance, spentThisMonth: spent.site, receipts: await receipts(userId, origin) };
  }

  return { limits, setLimits, coolDown, setAllowance, receipts, siteSpending };
}
