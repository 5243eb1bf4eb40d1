/**
 * A duration as minutes and seconds (SPEC §9 "duration minutes:seconds"): 65 → '1:05'.
 * Minutes are not folded into hours (3600 → '60:00'): videos are at most 35 minutes and
 * calls are billed per minute, so minutes are the unit people read.
 * Seconds are cut, not rounded, like a media player's clock: 4.9 s shows '0:04'.
 */
export function formatDuration(seconds: number): string {
  const total = Number.isFinite(seconds) ? Math.max(0, Math.floor(seconds)) : 0;
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, '0')}`;
}
