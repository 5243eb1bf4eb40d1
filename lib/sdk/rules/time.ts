/**
 * Relative timestamps (SPEC §9): 'just now' under a minute, minutes under 59, then hours.
 * The result is a translation key and its count, not text, so the UI says it in the
 * reader's language (`time.justNow`, `time.minutes`, `time.hours` with i18next plurals)
 * and formats a `date` with Intl.
 */
export type RelativeTime =
  | { key: 'justNow' }
  | { key: 'minutes' | 'hours'; count: number }
  | { key: 'date'; date: Date };

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function toMs(ts: number | Date): number {
  return ts instanceof Date ? ts.getTime() : ts;
}

/**
 * `ts` and `now` are epoch milliseconds (or a Date).
 * - A time up to a minute in the future is 'just now': device clocks drift from the server's.
 * - From 59 minutes the count is in hours, rounded to the nearest hour, which is why 59
 *   minutes already reads '1 hour'.
 * - From a full day on (and for a time clearly in the future, like a scheduled post) the
 *   result is the date itself: 'n hours ago' beyond 24 says less than the date does.
 */
export function relativeTime(ts: number | Date, now: number = Date.now()): RelativeTime {
  const at = toMs(ts);
  const age = now - at;
  if (age < MINUTE && age > -MINUTE) return { key: 'justNow' };
  if (age >= MINUTE && age < 59 * MINUTE) return { key: 'minutes', count: Math.floor(age / MINUTE) };
  if (age >= 59 * MINUTE && age < DAY) return { key: 'hours', count: Math.max(1, Math.round(age / HOUR)) };
  return { key: 'date', date: new Date(at) };
}

/**
 * How often a shown relative time must be recomputed (SPEC §9: 20 s, 60 s, 24 min):
 * every 20 s while it says 'just now', every minute while it counts minutes, every 24
 * minutes while it counts hours (well within the half hour at which the rounded hour
 * changes), and never once it shows a date, which does not change.
 */
export function relativeTimeRefreshMs(ts: number | Date, now: number = Date.now()): number | null {
  switch (relativeTime(ts, now).key) {
    case 'justNow':
      return 20 * SECOND;
    case 'minutes':
      return MINUTE;
    case 'hours':
      return 24 * MINUTE;
    case 'date':
      return null;
  }
}
