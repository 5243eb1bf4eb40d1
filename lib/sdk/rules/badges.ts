/**
 * Badges on the navigation and in the header (SPEC §9 "Balance badge", "Unacknowledged
 * earnings badge", SPEC §2 Timeline badge). Amounts are integer cents. Whole dollars are
 * cut, not rounded: a badge never shows more money than there is.
 */

function clampCents(cents: number): number {
  return Number.isFinite(cents) ? Math.max(0, Math.floor(cents)) : 0;
}

/** The wallet balance: '$0.50' under a dollar, '$12' from a dollar, '999+' over $999. */
export function balanceBadge(cents: number): string {
  const amount = clampCents(cents);
  if (amount < 100) return `$0.${String(amount).padStart(2, '0')}`;
  if (amount > 99_900) return '999+';
  return `$${Math.floor(amount / 100)}`;
}

/**
 * New earnings the creator has not seen yet: any amount under a dollar reads '$1' (a few
 * cents must still catch the eye), over $99 reads '$99+'. The badge is meant for positive
 * amounts; 0 gives '$0' so a caller that shows it anyway shows the truth.
 */
export function earningsBadge(cents: number): string {
  const amount = clampCents(cents);
  if (amount === 0) return '$0';
  if (amount < 100) return '$1';
  if (amount > 9_900) return '$99+';
  return `$${Math.floor(amount / 100)}`;
}

/**
 * The approved states (SPEC §4) in which the creator has something to act on — partner
 * registration (7) or a pending verification request (101, 105, 107) — so the Timeline
 * badge is flagged.
 */
const APPROVED_STATES_NEEDING_ACTION: ReadonlySet<number> = new Set([7, 101, 105, 107]);

export function timelineBadgeError(approvedState: number | null | undefined): boolean {
  return approvedState != null && APPROVED_STATES_NEEDING_ACTION.has(approvedState);
}
