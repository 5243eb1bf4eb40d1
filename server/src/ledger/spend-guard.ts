import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { embedConsents, ledgerTransfers, spendRequests, spendingControls, spends, users } from '../db/schema';
import { AppError } from '../errors';
import type { Tx } from './transfer';

/**
 * Where a spend of a fan's credits is made, and on whose word (docs/spending.md). Money leaves a
 * wallet only on the fan's own word: his click on the platform's pages, a site's spend within
 * the allowance he gave that site, a spend he confirmed in the platform's popup, or a payment he
 * agreed to earlier (a subscription's renewal).
 */
export type SpendVia =
  /** The platform's own pages. */
  | { channel: 'platform'; at: Date }
  /**
   * A widget on a partner site, whose token the site's own script holds: within the site's
   * monthly allowance, or with `confirmation`, a spend request the fan confirmed in the
   * platform's popup. `confirmed` says an earlier confirmation covers this spend (the next
   * minute of a call whose price he confirmed), `allowed` that the allowance was checked for
   * the whole of what this spend is part of (a message's price and its gift).
   */
  | { channel: 'site'; at: Date; origin: string; confirmation?: string | null; confirmed?: boolean; allowed?: boolean }
  /** A payment the fan agreed to before (a renewal); `origin` is where he agreed, if a site. */
  | { channel: 'recurring'; at: Date; origin?: string | null };

export interface SpendInput {
  fanId: number;
  /** gift (a tip is a gift with no post), unlock, chat-media, chat-message, subscription, call. */
  kind: string;
  /** Credits. */
  amount: number;
  creatorId: number | null;
  /** What is bought, which a confirmation must match besides kind, creator and amount: `gift:3`, `media:17`. */
  subject: string;
  /** What the confirmation popup shows of it (the gift, the post, the offer's name, the message). */
  details?: Record<string, string | number | null>;
  /** The ledger key the spend moves under: a replay of a spend made is not a new spend. */
  key: string;
  via: SpendVia;
}

/** What a spend the guard let through is recorded as. */
export interface SpendGrant {
  origin: string | null;
  confirmed: boolean;
}

/** What a widget's spend needs the fan to confirm: the spend request the route opens for it. */
export interface SpendAsk {
  origin: string;
  kind: string;
  amount: number;
  creatorId: number | null;
  subject: string;
  details: Record<string, string | number | null>;
}

/**
 * A widget's spend that neither an allowance nor a confirmation covers. Thrown inside the
 * spend's transaction, before anything is written, so the transaction rolls back whole; the
 * route that catches it opens a spend request (features/spending/requests.ts) and answers
 * `confirmation-required` with its id.
 */
export class ConfirmationNeeded extends AppError {
  readonly ask: SpendAsk;
  constructor(ask: SpendAsk) {
    super('confirmation-required');
    this.ask = ask;
  }
}

/** The refusals a spend meets before any money moves: callers that can carry on treat them as `noMoney`. */
export const spendRefusals: ReadonlySet<string> = new Set(['noMoney', 'spending-limit', 'spending-cooldown', 'confirmation-required', 'confirmation-invalid']);

export function isSpendRefusal(error: unknown): error is AppError {
  return error instanceof AppError && spendRefusals.has(error.key);
}

/** How long a limit raised (or removed) waits before it applies. */
export const LIMIT_RAISE_DELAY_MS = 24 * 60 * 60 * 1000;

export const startOfUtcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
export const startOfUtcMonth = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));

type ControlsRow = typeof spendingControls.$inferSelect;

/** The limits in force at `at`: a raise waits for its day, a lowering was applied when asked. */
export function limitsAt(row: Pick<ControlsRow, 'dailyLimit' | 'monthlyLimit' | 'dailyLimitNext' | 'dailyLimitNextAt' | 'monthlyLimitNext' | 'monthlyLimitNextAt'> | undefined, at: Date): { daily: number | null; monthly: number | null } {
  if (row === undefined) return { daily: null, monthly: null };
  const due = (next: Date | null) => next !== null && next.getTime() <= at.getTime();
  return {
    daily: due(row.dailyLimitNextAt) ? row.dailyLimitNext : row.dailyLimit,
    monthly: due(row.monthlyLimitNextAt) ? row.monthlyLimitNext : row.monthlyLimit,
  };
}

/**
 * The fan's controls row, locked: every spend of one fan takes this lock first (before any
 * ledger account), so the sums below and the spend they allow are one step, however many
 * requests arrive at once. The same statement says whether a transfer was made under `key`
 * already and who referred the fan (the payment's affiliate share): one round trip.
 */
async function lockControls(tx: Tx, userId: number, key: string): Promise<{ controls: ControlsRow; made: boolean; referrerId: number | null }> {
  // An upsert that touches the row takes its lock, as SELECT … FOR UPDATE does, and opens it on
  // a fan's first spend.
  const [row] = await tx
    .insert(spendingControls)
    .values({ userId })
    .onConflictDoUpdate({ target: spendingControls.userId, set: { userId: sql`excluded.user_id` } })
    .returning({
      ...getTableColumns(spendingControls),
      made: sql<boolean>`exists (select 1 from ${ledgerTransfers} where ${ledgerTransfers.idempotencyKey} = ${key})`.mapWith(Boolean),
      referrer: sql<number | null>`(select ${users.referrerId} from ${users} where ${users.id} = ${userId})`,
    });
  if (!row) throw new Error(`Spending controls of user ${userId} could not be read`);
  const { made, referrer, ...controls } = row;
  return { controls, made, referrerId: referrer === null ? null : Number(referrer) };
}

/**
 * What the fan spent since the start of the UTC month and of the UTC day, and on `origin` this
 * month: in all, and without being asked (`unasked`, what the site's allowance covers; what he
 * confirmed in the popup was asked).
 */
export async function spentAt(tx: Tx, userId: number, at: Date, origin: string | null): Promise<{ day: number; month: number; site: number; unasked: number }> {
  const day = startOfUtcDay(at);
  const month = startOfUtcMonth(at);
  const [row] = await tx
    .select({
      day: sql<string>`coalesce(sum(${spends.amount}) filter (where ${spends.createdAt} >= ${day.toISOString()}::timestamptz), 0)`,
      month: sql<string>`coalesce(sum(${spends.amount}), 0)`,
      site: origin === null ? sql<string>`0` : sql<string>`coalesce(sum(${spends.amount}) filter (where ${spends.origin} = ${origin}), 0)`,
      unasked: origin === null ? sql<string>`0` : sql<string>`coalesce(sum(${spends.amount}) filter (where ${spends.origin} = ${origin} and not ${spends.confirmed}), 0)`,
    })
    .from(spends)
    .where(and(eq(spends.userId, userId), sql`${spends.createdAt} >= ${month.toISOString()}::timestamptz`));
  return { day: Number(row?.day ?? 0), month: Number(row?.month ?? 0), site: Number(row?.site ?? 0), unasked: Number(row?.unasked ?? 0) };
}

/**
 * Checks a spend against the fan's cool-down and limits and, for a widget, against the site's
 * allowance or the fan's confirmation, inside the spend's transaction and before anything moves.
 * Returns null for a replay of a spend already made (the ledger answers it), else what to record
 * once the money moved (`recordSpend`). Refuses with `spending-cooldown`, `spending-limit`,
 * `confirmation-invalid`, or `ConfirmationNeeded`.
 */
export async function authorizeSpend(tx: Tx, input: SpendInput): Promise<SpendGrant | null> {
  return (await guardSpend(tx, input)).grant;
}

/** `authorizeSpend`, also answering who referred the fan (read in the same statement). */
export async function guardSpend(tx: Tx, input: SpendInput): Promise<{ grant: SpendGrant | null; referrerId: number | null }> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new Error(`A spend needs a positive amount, got ${input.amount}`);
  const { controls, made, referrerId } = await lockControls(tx, input.fanId, input.key);
  if (made) return { grant: null, referrerId };
  return { grant: await checkSpend(tx, input, controls), referrerId };
}

async function checkSpend(tx: Tx, input: SpendInput, controls: ControlsRow): Promise<SpendGrant> {
  const { via } = input;
  const at = via.at;
  if (controls.cooldownUntil !== null && controls.cooldownUntil.getTime() > at.getTime()) {
    throw new AppError('spending-cooldown', { body: { until: controls.cooldownUntil.getTime() } });
  }
  const limits = limitsAt(controls, at);
  const site = via.channel === 'site' ? via.origin : null;
  const needsAllowance = via.channel === 'site' && !via.confirmed && !via.allowed && !via.confirmation;
  if (limits.daily !== null || limits.monthly !== null || needsAllowance) {
    const spent = await spentAt(tx, input.fanId, at, site);
    if (limits.daily !== null && spent.day + input.amount > limits.daily) {
      throw new AppError('spending-limit', { body: { period: 'day', limit: limits.daily, remaining: Math.max(0, limits.daily - spent.day) } });
    }
    if (limits.monthly !== null && spent.month + input.amount > limits.monthly) {
      throw new AppError('spending-limit', { body: { period: 'month', limit: limits.monthly, remaining: Math.max(0, limits.monthly - spent.month) } });
    }
    if (needsAllowance && site !== null) {
      const [consent] = await tx
        .select({ allowance: embedConsents.monthlyAllowance })
        .from(embedConsents)
        .where(and(eq(embedConsents.userId, input.fanId), eq(embedConsents.origin, site)))
        .limit(1);
      const allowance = consent?.allowance ?? 0;
      if (allowance <= 0 || spent.unasked + input.amount > allowance) {
        throw new ConfirmationNeeded({ origin: site, kind: input.kind, amount: input.amount, creatorId: input.creatorId, subject: input.subject, details: input.details ?? {} });
      }
    }
  }
  if (via.channel === 'site') {
    if (via.confirmation) await useConfirmation(tx, input, via.origin, via.confirmation);
    return { origin: via.origin, confirmed: Boolean(via.confirmation) || Boolean(via.confirmed) };
  }
  return { origin: via.channel === 'recurring' ? (via.origin ?? null) : null, confirmed: false };
}

/**
 * Takes a confirmed spend request for this very spend (the fan's, the site's, unexpired, the
 * same kind, creator, amount and subject) and marks it used: a confirmation pays once.
 */
async function useConfirmation(tx: Tx, input: SpendInput, origin: string, id: string): Promise<void> {
  const [request] = await tx.select().from(spendRequests).where(eq(spendRequests.id, id)).for('update').limit(1);
  const matches =
    request !== undefined &&
    request.userId === input.fanId &&
    request.origin === origin &&
    request.status === 'confirmed' &&
    request.expiresAt.getTime() > input.via.at.getTime() &&
    request.kind === input.kind &&
    request.creatorId === input.creatorId &&
    request.amount === input.amount &&
    request.subject === input.subject;
  if (!matches) throw new AppError('confirmation-invalid');
  await tx.update(spendRequests).set({ status: 'used', decidedAt: input.via.at }).where(eq(spendRequests.id, id));
}

/**
 * `recordSpend` as the insert a transfer writes alongside itself (`TransferInput.alongside`),
 * for a spend moved by that transfer.
 */
export function spendRecord(input: SpendInput, grant: SpendGrant, transferKey: string): SQL {
  return sql`insert into ${spends} (user_id, kind, amount, creator_id, origin, confirmed, transfer_key, hold_id, created_at)
    select ${input.fanId}::int, ${input.kind}, ${input.amount}::int, ${input.creatorId}::int, ${grant.origin}, ${grant.confirmed}, ${transferKey}, null::int, ${input.via.at.toISOString()}::timestamptz
    from t
    on conflict do nothing
    returning 1`;
}

/** Records a spend the guard allowed, once its money moved (a transfer, or a call minute's hold). */
export async function recordSpend(tx: Tx, input: SpendInput, grant: SpendGrant, transferKey: string, holdId: number | null = null): Promise<void> {
  await tx
    .insert(spends)
    .values({
      userId: input.fanId,
      kind: input.kind,
      amount: input.amount,
      creatorId: input.creatorId,
      origin: grant.origin,
      confirmed: grant.confirmed,
      transferKey,
      holdId,
      createdAt: input.via.at,
    })
    .onConflictDoNothing();
}

/** A hold given back lowers what its spend came to; one given back whole leaves no spend. */
export async function releaseSpend(tx: Tx, holdId: number, released: number): Promise<void> {
  if (released <= 0) return;
  await tx.update(spends).set({ amount: sql`${spends.amount} - ${released}` }).where(eq(spends.holdId, holdId));
  await tx.delete(spends).where(and(eq(spends.holdId, holdId), sql`${spends.amount} <= 0`));
}
