import { createHash, randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, lt } from 'drizzle-orm';
import type { PaymentOrder } from '../../../../lib/contract/payments';
import type { PaymentStatus } from '../../../../lib/contract/constants';
import type { AppContext } from '../../context';
import { paymentCards, paymentOrders, type PaymentOrderRow } from '../../db/schema';
import { AppError } from '../../errors';
import { account, inTransaction, transfer, type Tx } from '../../ledger';
import { balancesChanged } from '../../realtime/after-commit';
import { settleSubscriptionOrder } from '../subscriptions/orders-hook';
import { createProcessors, type Processors } from './processors';
import type { ProcessorEvent } from './processors/types';

/** An order not paid within this time is given up (`payment-orders-expiry`). */
export const ORDER_LIFETIME_MS = 60 * 60_000;

/** Statuses an order can still leave; paid, declined, failed and expired are final. */
const openStatuses = ['created', 'challenge', 'processing'] as const;

const registries = new WeakMap<AppContext['config'], Processors>();

/** The processors of this server (one registry per configuration). */
export function processorsOf(ctx: AppContext): Processors {
  let registry = registries.get(ctx.config);
  if (!registry) {
    registry = createProcessors(ctx);
    registries.set(ctx.config, registry);
  }
  return registry;
}

export function newOrderId(): string {
  return `ord_${randomBytes(12).toString('hex')}`;
}

/** The order id of a charge named by an idempotency key: the same key, the same order. */
export function orderIdForKey(key: string): string {
  return `ord_k${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

export function toPaymentOrder(row: PaymentOrderRow, redirectUrl: string | null = null): PaymentOrder {
  return {
    id: row.id,
    processor: row.processor,
    purpose: row.purpose === 'subscription' ? 'subscription' : 'credits',
    amount: row.amount,
    credits: row.credits,
    status: row.status as PaymentStatus,
    redirectUrl,
    failureReason: row.failureReason,
    subscriptionId: row.subscriptionId,
    createdAt: row.createdAt.getTime(),
  };
}

export interface NewOrder {
  id?: string;
  userId: number;
  processor: string;
  purpose: 'credits' | 'subscription';
  packageId?: number | null;
  subscriptionId?: number | null;
  amount: number;
  credits: number;
  saveCard?: boolean;
  returnUrl?: string | null;
  cardId?: number | null;
}

function checkAmounts(amount: number, credits: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0 || !Number.isSafeInteger(credits) || credits < amount) throw new AppError('invalid-amount');
}

/** Writes a new order (status `created`); with an `id` that exists already, answers the existing one. */
export async function createOrder(ctx: AppContext, input: NewOrder): Promise<PaymentOrderRow> {
  checkAmounts(input.amount, input.credits);
  processorsOf(ctx).get(input.processor);
  const now = ctx.clock.now();
  const id = input.id ?? newOrderId();
  await ctx.db
    .insert(paymentOrders)
    .values({
      id,
      userId: input.userId,
      processor: input.processor,
      purpose: input.purpose,
      packageId: input.packageId ?? null,
      subscriptionId: input.subscriptionId ?? null,
      amount: input.amount,
      credits: input.credits,
      saveCard: input.saveCard ?? false,
      returnUrl: input.returnUrl ?? null,
      cardId: input.cardId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  const [row] = await ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, id));
  if (!row || row.userId !== input.userId) throw new AppError('idempotency-conflict');
  return row;
}

/** The order's processor page, for an order still waiting for the payer. */
export async function checkoutOf(ctx: AppContext, row: PaymentOrderRow, language: string): Promise<string | null> {
  if (row.status !== 'created') return null;
  return processorsOf(ctx).get(row.processor).createCheckout({ id: row.id, amount: row.amount, language });
}

/**
 * Applies what a processor reported about an order, once: the order row is locked, its status
 * only moves forward, and a payment credits the wallet under the key `topup:{orderId}` in the
 * same transaction (a bonus above the amount comes from the promotions account). A card the
 * payer asked to keep is saved once. Subscription orders are settled by the subscriptions
 * feature in the same transaction. Reports about a final order change nothing.
 */
export async function applyProcessorEvent(ctx: AppContext, processor: string, event: ProcessorEvent): Promise<PaymentOrderRow> {
  return inTransaction(ctx.db, async (tx) => {
    const [order] = await tx.select().from(paymentOrders).where(eq(paymentOrders.id, event.orderId)).for('update');
    if (!order || order.processor !== processor) throw new AppError('order-not-found');
    const now = ctx.clock.now();
    const open = (openStatuses as readonly string[]).includes(order.status);
    // A processor may still take the money of an order this server had given up on; it is credited.
    const payable = open || order.status === 'expired';
    if (event.status === 'processing') {
      if (order.status !== 'created' && order.status !== 'challenge') return order;
      const [updated] = await tx.update(paymentOrders).set({ status: 'processing', externalId: event.externalId, updatedAt: now }).where(eq(paymentOrders.id, order.id)).returning();
      return updated!;
    }
    if (event.status === 'declined') {
      if (!open) return order;
      const [updated] = await tx
        .update(paymentOrders)
        .set({ status: 'declined', externalId: event.externalId, failureReason: 'payment-declined', updatedAt: now })
        .where(eq(paymentOrders.id, order.id))
        .returning();
      if (updated!.purpose === 'subscription') await settleSubscriptionOrder(tx, ctx, updated!, 'declined');
      return updated!;
    }
    if (!payable) return order;
    const cardId = order.saveCard && event.card !== null ? await saveCard(tx, ctx, order.userId, processor, event.card) : order.cardId;
    await creditOrder(tx, order);
    const [updated] = await tx
      .update(paymentOrders)
      .set({ status: 'paid', externalId: event.externalId, failureReason: null, cardId, updatedAt: now })
      .where(eq(paymentOrders.id, order.id))
      .returning();
    if (updated!.purpose === 'subscription') await settleSubscriptionOrder(tx, ctx, updated!, 'paid');
    return updated!;
  });
}

async function creditOrder(tx: Tx, order: PaymentOrderRow): Promise<void> {
  const bonus = order.credits - order.amount;
  const { replayed } = await transfer(tx, {
    key: `topup:${order.id}`,
    kind: 'topup',
    userId: order.userId,
    meta: { orderId: order.id, packageId: order.packageId, subscriptionId: order.subscriptionId },
    legs: [
      { account: account.processor(order.processor), amount: -order.amount },
      { account: account.wallet(order.userId), amount: order.amount },
      ...(bonus > 0
        ? [
            { account: account.promotions, amount: -bonus },
            { account: account.wallet(order.userId), amount: bonus },
          ]
        : []),
    ],
  });
  if (!replayed) balancesChanged(tx, [order.userId]);
}

/** Keeps a card's token (never its number); the same token is kept once. */
async function saveCard(tx: Tx, ctx: AppContext, userId: number, processor: string, card: NonNullable<ProcessorEvent['card']>): Promise<number> {
  const [existing] = await tx
    .select({ id: paymentCards.id })
    .from(paymentCards)
    .where(and(eq(paymentCards.userId, userId), eq(paymentCards.processor, processor), eq(paymentCards.token, card.token), isNull(paymentCards.deletedAt)))
    .limit(1);
  if (existing) return existing.id;
  const [created] = await tx
    .insert(paymentCards)
    .values({
      userId,
      processor,
      token: card.token,
      brand: card.brand.slice(0, 40),
      last4: card.last4.slice(-4),
      expMonth: card.expMonth,
      expYear: card.expYear,
      createdAt: ctx.clock.now(),
    })
    .returning({ id: paymentCards.id });
  return created!.id;
}

/** A saved card of the user, not deleted; `card-not-found` otherwise. */
export async function ownCard(ctx: AppContext, userId: number, cardId: number) {
  const [card] = await ctx.db
    .select()
    .from(paymentCards)
    .where(and(eq(paymentCards.id, cardId), eq(paymentCards.userId, userId), isNull(paymentCards.deletedAt)))
    .limit(1);
  if (!card) throw new AppError('card-not-found');
  return card;
}

/**
 * Charges the order's saved card now. Paid and declined are applied at once, as if the
 * processor had called back; a second step leaves the order in `challenge` with the page to
 * visit. An order already decided answers as it is (a retried renewal charges once).
 */
async function chargeOrder(ctx: AppContext, order: PaymentOrderRow, token: string): Promise<PaymentOrder> {
  if (order.status !== 'created') return toPaymentOrder(order);
  const processor = processorsOf(ctx).get(order.processor);
  const result = await processor.chargeSavedCard(token, order.amount, order.id);
  if (result.status === 'challenge') {
    const [updated] = await ctx.db
      .update(paymentOrders)
      .set({ status: 'challenge', externalId: result.externalId, updatedAt: ctx.clock.now() })
      .where(and(eq(paymentOrders.id, order.id), eq(paymentOrders.status, 'created')))
      .returning();
    return toPaymentOrder(updated ?? order, result.redirectUrl ?? null);
  }
  const settled = await applyProcessorEvent(ctx, order.processor, { orderId: order.id, status: result.status, externalId: result.externalId, card: null });
  return toPaymentOrder(settled);
}

/** `pay-old-card`: a package bought with a saved card. */
export async function payWithSavedCard(ctx: AppContext, input: { userId: number; cardId: number; packageId: number | null; amount: number; credits: number; processor?: string }): Promise<PaymentOrder> {
  const card = await ownCard(ctx, input.userId, input.cardId);
  if (input.processor !== undefined && input.processor !== card.processor) throw new AppError('card-not-found');
  const order = await createOrder(ctx, {
    userId: input.userId,
    processor: card.processor,
    purpose: 'credits',
    packageId: input.packageId,
    amount: input.amount,
    credits: input.credits,
    cardId: card.id,
  });
  return chargeOrder(ctx, order, card.token);
}

export interface StartCardOrderInput {
  userId: number;
  purpose: 'subscription';
  subscriptionId: number;
  amount: number;
  credits: number;
  processor: string;
  returnUrl: string | null;
  saveCard: boolean;
  /** The payer's language for the processor's page (default English). */
  language?: string;
}

/** A subscription paid with a new card: the order and the processor page to send the payer to. */
export async function startCardOrder(ctx: AppContext, input: StartCardOrderInput): Promise<PaymentOrder> {
  const order = await createOrder(ctx, {
    userId: input.userId,
    processor: input.processor,
    purpose: input.purpose,
    subscriptionId: input.subscriptionId,
    amount: input.amount,
    credits: input.credits,
    saveCard: input.saveCard,
    returnUrl: input.returnUrl,
  });
  return toPaymentOrder(order, await checkoutOf(ctx, order, input.language ?? 'en'));
}

export interface ChargeSavedCardInput {
  userId: number;
  cardId: number;
  purpose: 'subscription' | 'credits';
  subscriptionId: number | null;
  amount: number;
  credits: number;
  /** Names the charge (e.g. `renewal:{subscriptionId}:{period}`): the same key charges once. */
  key: string;
}

/** A saved card charged without the payer (renewals): paid, declined, or challenge with the page. */
export async function chargeSavedCard(ctx: AppContext, input: ChargeSavedCardInput): Promise<PaymentOrder> {
  const card = await ownCard(ctx, input.userId, input.cardId);
  const order = await createOrder(ctx, {
    id: orderIdForKey(input.key),
    userId: input.userId,
    processor: card.processor,
    purpose: input.purpose,
    subscriptionId: input.subscriptionId,
    amount: input.amount,
    credits: input.credits,
    cardId: card.id,
  });
  if (order.amount !== input.amount || order.credits !== input.credits || order.cardId !== card.id) throw new AppError('idempotency-conflict');
  return chargeOrder(ctx, order, card.token);
}

/** Orders still waiting for the payer an hour after they were made are given up. */
export async function expireOrders(ctx: AppContext): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - ORDER_LIFETIME_MS);
  const expired = await ctx.db
    .update(paymentOrders)
    .set({ status: 'expired', updatedAt: ctx.clock.now() })
    .where(and(inArray(paymentOrders.status, ['created', 'challenge']), lt(paymentOrders.createdAt, cutoff)))
    .returning({ id: paymentOrders.id });
  return expired.length;
}
