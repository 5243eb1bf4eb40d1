import { sql, type SQL } from 'drizzle-orm';
import { spendAttributions } from '../db/schema';
import type { SpendVia } from './spend-guard';
import type { Tx } from './transfer';

/** A tracking link brings a fan for this long after his first visit through it. */
export const LINK_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

export interface AttributionInput {
  transferId: number;
  /** gift, unlock, chat-message, chat-media, subscription, call. */
  kind: string;
  fanId: number;
  creatorId: number;
  /** The creator's entry of the transfer, in cents. */
  earnedCents: number;
  /**
   * Where the spend happened, as the server verified it: the widget session's origin (the
   * auth guard's binding, checked against the request's Origin) or the platform's pages. A
   * renewal (`recurring`) continues its subscription's place and link.
   */
  via: SpendVia | { channel: 'hold'; at: Date; origin: string | null };
  /** The subscription a renewal continues, whose first payment's origin it keeps. */
  subscriptionId?: number | null;
}

const rows = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []));

/**
 * The tracking link that brought `fan` to `creator` as of `at`, as an SQL expression: of the
 * creator's links the fan visited (his visits joined to his account at sign-up or sign-in), the
 * one visited last among those whose first visit by him is less than 30 days before `at`. The
 * three are SQL (values, or a batch's columns).
 */
export function linkOfFanSql(fan: SQL, creator: SQL, at: SQL): SQL {
  return sql`(
    select v.link_id from link_visits v join tracking_links l on l.id = v.link_id
    where v.user_id = ${fan} and l.creator_id = ${creator} and v.created_at <= ${at}
    group by v.link_id
    having min(v.created_at) > ${at} - make_interval(secs => ${LINK_WINDOW_MS / 1000})
    order by max(v.created_at) desc, v.link_id desc
    limit 1)`;
}

/** The tracking link that brought `fanId` to `creatorId` as of `at` (see linkOfFanSql), or null. */
export async function linkThatBrought(tx: Tx, fanId: number, creatorId: number, at: Date): Promise<number | null> {
  const [found] = rows<{ link_id: number | null }>(await tx.execute(sql`select ${linkOfFanSql(sql`${fanId}::integer`, sql`${creatorId}::integer`, sql`${at.toISOString()}::timestamptz`)} as link_id`));
  return found?.link_id == null ? null : Number(found.link_id);
}

interface Source {
  origin: string | null;
  /** The link a renewal keeps; undefined when the fan's visits decide. */
  linkId?: number | null;
}

/**
 * Where the spend happened. A renewal (`recurring`) continues its subscription: the place and
 * the link of its first payment, or for a free trial's first payment the trial's link.
 */
async function sourceOf(tx: Tx, input: AttributionInput): Promise<Source> {
  const { via } = input;
  if (via.channel === 'site' || via.channel === 'hold') return { origin: via.origin };
  if (via.channel === 'platform') return { origin: null };
  if (input.subscriptionId === undefined || input.subscriptionId === null) return { origin: via.origin ?? null };
  const [first] = rows<{ origin: string | null; link_id: number | null }>(
    await tx.execute(sql`
      select a.origin, a.link_id from spend_attributions a join ledger_transfers t on t.id = a.transfer_id
      where t.kind = 'subscription' and t.meta->>'subscriptionId' = ${String(input.subscriptionId)}
      order by a.transfer_id limit 1`),
  );
  if (first) return { origin: via.origin ?? first.origin, linkId: first.link_id === null ? null : Number(first.link_id) };
  const [trial] = rows<{ link_id: number }>(await tx.execute(sql`select link_id from link_trials where subscription_id = ${input.subscriptionId}::integer`));
  return { origin: via.origin ?? null, ...(trial ? { linkId: Number(trial.link_id) } : {}) };
}

/** Where the spend happened and the link that brought the fan, as SQL values for the insert. */
async function sourceValues(tx: Tx, input: Omit<AttributionInput, 'transferId'>): Promise<{ origin: string | null; link: SQL }> {
  const { origin, linkId: kept } = await sourceOf(tx, input as AttributionInput);
  // The link is looked up inside the insert itself.
  const link = kept !== undefined ? sql`${kept}::integer` : linkOfFanSql(sql`${input.fanId}::integer`, sql`${input.creatorId}::integer`, sql`${input.via.at.toISOString()}::timestamptz`);
  return { origin, link };
}

/**
 * Records where a spend happened and which tracking link brought the fan, in the spend's own
 * transaction (the caller's `tx`), from what the server knows alone: nothing a client sends
 * names the source. Called once per spend that moved money (not for a replay).
 */
export async function recordAttribution(tx: Tx, input: AttributionInput): Promise<void> {
  const { origin, link } = await sourceValues(tx, input);
  await tx.execute(sql`
    insert into ${spendAttributions} (transfer_id, creator_id, fan_id, kind, earned_cents, origin, link_id, created_at)
    values (${input.transferId}::integer, ${input.creatorId}::integer, ${input.fanId}::integer, ${input.kind}, ${input.earnedCents}::bigint, ${origin}, ${link}, ${input.via.at.toISOString()}::timestamptz)
    on conflict do nothing`);
}

/**
 * `recordAttribution` as an insert the transfer's own statement makes (`TransferInput.alongside`),
 * taking the new transfer's id from `t`: written only when the transfer is. A renewal reads its
 * subscription's first payment here, before the transfer; a spend of the moment reads nothing.
 */
export async function attributionRecord(tx: Tx, input: Omit<AttributionInput, 'transferId'>): Promise<SQL> {
  const { origin, link } = await sourceValues(tx, input);
  return sql`insert into ${spendAttributions} (transfer_id, creator_id, fan_id, kind, earned_cents, origin, link_id, created_at)
    select t.id, ${input.creatorId}::integer, ${input.fanId}::integer, ${input.kind}, ${input.earnedCents}::bigint, ${origin}, ${link}, ${input.via.at.toISOString()}::timestamptz
    from t
    on conflict do nothing
    returning 1`;
}
