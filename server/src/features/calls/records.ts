/**
 * A call's record and what the service's steps answer: the row's type, the outcomes of an offer,
 * of a move and of a clock step, the parties as the messages show them, the block check and the
 * `Call` either party reads. Plain functions over a transaction, no state of their own.
 */
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Call, CallParty, CallState, CallStatusCode } from '../../../../lib/contract/calls';
import { avatarUrl } from '../../../../lib/contract/rules/media';
import { blocks, calls, media, users } from '../../db/schema';
import type { SpendVia, Tx } from '../../ledger';

export type CallRow = typeof calls.$inferSelect;

/** Where a call's minute is spent: from the site the fan called on, covered by his confirmation of its price or by the site's allowance. */
export function minuteVia(row: Pick<CallRow, 'spendOrigin' | 'spendConfirmed'>, at: Date): SpendVia {
  return row.spendOrigin === null ? { channel: 'platform', at } : { channel: 'site', at, origin: row.spendOrigin, confirmed: row.spendConfirmed };
}

/** The open states, written as the partial indexes have them so the planner can use those. */
export const isOpen = sql`${calls.state} in ('ringing', 'live')`;

/** What a call offer came to. */
export type OfferOutcome =
  /** Stored ringing: the callee's sockets get `preOffer` with the caller and the prices. */
  | { kind: 'ringing'; call: CallRow; caller: CallParty }
  /** Stored as busy or noCredit: the caller is answered `preAnswer {accept: false, status}`. */
  | { kind: 'refused'; call: CallRow; status: CallStatusCode }
  /** The same offer again (a resend): nothing more happens. */
  | { kind: 'replayed'; call: CallRow };

/** What a message that moves a call (answer, hang-up) came to. */
export type MoveOutcome =
  /** The call went live: the first minute is held. */
  | { kind: 'live'; call: CallRow }
  /** The call ended now, with this reason. */
  | { kind: 'ended'; call: CallRow }
  /** The call had ended before: the sender is told how. */
  | { kind: 'over'; call: CallRow }
  /** Accepted already, by another of the callee's pages or devices: this answer takes nothing. */
  | { kind: 'taken'; call: CallRow };

/** A step of the billing clock: the call is no longer this node's to run when `gone`. */
export type ClockStep = { gone: true } | { gone: false; ok: boolean; call: CallRow };

/** The party to a call as its messages and `Call` show them. */
export async function partiesOf(tx: Tx, ids: readonly number[], mediaCDN: string): Promise<Map<number, CallParty>> {
  const rows = await tx
    .select({ id: users.id, username: users.username, displayName: users.displayName, avatarHash: media.hash, avatarFormat: media.format })
    .from(users)
    .leftJoin(media, eq(media.id, users.avatarMediaId))
    .where(inArray(users.id, [...ids]));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        username: row.username,
        displayName: row.displayName,
        avatarUrl: row.avatarHash !== null && row.avatarFormat !== null ? avatarUrl(mediaCDN, { mediaHash: row.avatarHash, format: row.avatarFormat }, 120) : null,
      },
    ]),
  );
}

export async function blockedEitherWay(tx: Tx, a: number, b: number): Promise<boolean> {
  const rows = await tx
    .select({ one: sql<number>`1` })
    .from(blocks)
    .where(or(and(eq(blocks.blockerId, a), eq(blocks.blockedId, b)), and(eq(blocks.blockerId, b), eq(blocks.blockedId, a))))
    .limit(1);
  return rows.length > 0;
}

/** The call's record as either party reads it (`GET /api/calls/{id}`). */
export function toCall(row: CallRow, viewerId: number, parties: ReadonlyMap<number, CallParty>): Call {
  const unknown = (id: number): CallParty => ({ id, username: '', displayName: '', avatarUrl: null });
  const incoming = row.calleeId === viewerId;
  return {
    callId: row.id,
    caller: parties.get(row.callerId) ?? unknown(row.callerId),
    callee: parties.get(row.calleeId) ?? unknown(row.calleeId),
    peerId: incoming ? row.callerId : row.calleeId,
    callIsIncoming: incoming,
    state: row.state as CallState,
    endReason: (row.endReason as Call['endReason']) ?? null,
    agreedPrice: row.agreedPrice,
    earningsPrice: row.earningsPrice,
    minutes: row.minutes,
    cost: row.cost,
    earnings: incoming ? row.earnings : 0,
    created: row.createdAt.getTime(),
    started: row.startedAt?.getTime() ?? null,
    ended: row.endedAt?.getTime() ?? null,
  };
}
