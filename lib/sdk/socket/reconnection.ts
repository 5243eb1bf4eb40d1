/**
 * When the socket tries again, as plain values and one pure function: the close codes of `/ws/`
 * it acts on, the backoff after a server's 1013 (try again later), and `reconnectWait`, the wait
 * before the next try with its jitter. The connection (./connection.ts) decides when to call it.
 */
import { CloseCodes } from '../../contract/realtime';

/**
 * The close codes of `/ws/` the socket acts on, under the names the SDK has always given them:
 * the values are the contract's `CloseCodes` (lib/contract/realtime.ts), which the server closes with.
 */
export const SocketCloseCodes = { unauthorized: CloseCodes.unauthorized, originRefused: CloseCodes.forbiddenOrigin, tryAgainLater: CloseCodes.tryAgainLater } as const;

/** After a 1013: the first wait, and the longest one it doubles up to. */
export const unavailableBackoff = { firstMs: 5_000, maxMs: 60_000 } as const;

/**
 * How long to wait before trying again. After an ordinary drop: `reconnectMs` and up to a
 * quarter more. After the `inRow`-th close with 1013 in a row: `unavailableMs` doubled for each
 * one before it, at most `unavailableMaxMs`, and drawn between half of that and all of it —
 * spread wide, so a thousand pages waiting on one database do not return in the same second.
 * `random` gives numbers in [0, 1).
 */
export function reconnectWait(
  inRow: number,
  timing: { reconnectMs: number; unavailableMs: number; unavailableMaxMs: number },
  random: () => number,
): number {
  if (inRow <= 0) return timing.reconnectMs + random() * (timing.reconnectMs / 4);
  const wait = Math.min(timing.unavailableMaxMs, timing.unavailableMs * 2 ** Math.min(inRow - 1, 16));
  return wait / 2 + random() * (wait / 2);
}
