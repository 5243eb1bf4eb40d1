/**
 * The call service, put together from its parts: the shared steps (`core.ts`), the parties'
 * moves (`moves.ts`), the clock, leases and sweepers (`upkeep.ts`) and the reads (`reads.ts`);
 * the record and outcome types live in `records.ts`.
 */
import type { AppContext } from '../../context';
import { createCallCore } from './core';
import { callMoves } from './moves';
import { callReads } from './reads';
import { callUpkeep } from './upkeep';

export { toCall, type CallRow, type ClockStep, type MoveOutcome, type OfferOutcome } from './records';

/**
 * The records, transitions and money of paid calls (docs/calls.md). Every change runs in one
 * transaction that first locks the call's row, so an answer, a hang-up, the billing clock and
 * the crash closer never interleave on one call; the ledger's keys (`call:<id>:hold:<n>`,
 * `call:<id>:minute:<n>`) make a minute held or paid once whoever gets there.
 *
 * `nodeId` names this server node in the leases it takes.
 */
export function createCallService(ctx: AppContext, nodeId: string) {
  const core = createCallCore(ctx);
  return { ...callMoves(ctx, nodeId, core), ...callUpkeep(nodeId, core), ...callReads(ctx, core) };
}

export type CallService = ReturnType<typeof createCallService>;
