/**
 * A count as shown next to followers, likes, posts (SPEC §9 "counts show k and mil"):
 * 999 → '999', 1500 → '1.5k', 12 000 → '12k', 1 200 000 → '1.2mil'.
 *
 * One decimal only while the whole part is a single digit (1.5k, 12k, 123k), the way
 * social apps keep counts short. Digits are cut, never rounded up, so a count never
 * claims more than is true and 999 999 stays '999k' instead of becoming '1000k'.
 * Counts are never negative or fractional; anything else is read as the nearest sane count.
 */
export function formatCount(n: number): string {
  const count = Number.isFinite(n) ? Math.max(0, Math.floor(n)) : 0;
  if (count < 1000) return String(count);
  if (count < 1_000_000) return abbreviate(count, 1000, 'k');
  return abbreviate(count, 1_000_000, 'mil');
}

function abbreviate(count: number, unit: number, suffix: string): string {
  const whole = Math.floor(count / unit);
  if (whole >= 10) return `${whole}${suffix}`;
  // Tenths in integer arithmetic: 1999 → 19 tenths → '1.9'.
  const tenths = Math.floor(count / (unit / 10)) % 10;
  return tenths === 0 ? `${whole}${suffix}` : `${whole}.${tenths}${suffix}`;
}
