import type { SpendRequest, SpendRequestRef, SpendRequestStatus } from '../contract';

/** What the widget's spend may go on with: the fan confirmed it, or paid it in the card window. */
const GOES_ON: ReadonlySet<SpendRequestStatus> = new Set(['confirmed', 'completed']);

/**
 * Asks the fan to confirm a spend a widget made on a partner site (docs/spending.md): resolves
 * with the request as it ended up. `goesOn(request)` says whether to send the spend again.
 * Apart from ./spendConfirm.ts (the popup that asks), which builds on the client.
 */
export interface SpendConfirmer {
  confirm(ref: SpendRequestRef, signal?: AbortSignal): Promise<SpendRequest>;
}

export const goesOn = (request: Pick<SpendRequest, 'status'>): boolean => GOES_ON.has(request.status);
