import { describe, expect, it } from 'vitest';
import { relativeTime, relativeTimeRefreshMs } from '../../lib/sdk';

const now = Date.UTC(2024, 2, 7, 12, 0, 0);
const s = 1000;
const min = 60 * s;
const h = 60 * min;

describe('a relative time', () => {
  it('is just now under a minute', () => {
    expect(relativeTime(now, now)).toEqual({ key: 'justNow' });
    expect(relativeTime(now - 59 * s, now)).toEqual({ key: 'justNow' });
  });

  it('is just now for a moment ahead, since device clocks drift', () => {
    expect(relativeTime(now + 30 * s, now)).toEqual({ key: 'justNow' });
  });

  it('counts minutes from one minute to under 59', () => {
    expect(relativeTime(now - min, now)).toEqual({ key: 'minutes', count: 1 });
    expect(relativeTime(now - 90 * s, now)).toEqual({ key: 'minutes', count: 1 });
    expect(relativeTime(now - 58 * min - 59 * s, now)).toEqual({ key: 'minutes', count: 58 });
  });

  it('counts hours from 59 minutes, rounded to the nearest hour', () => {
    expect(relativeTime(now - 59 * min, now)).toEqual({ key: 'hours', count: 1 });
    expect(relativeTime(now - 89 * min, now)).toEqual({ key: 'hours', count: 1 });
    expect(relativeTime(now - 90 * min, now)).toEqual({ key: 'hours', count: 2 });
    expect(relativeTime(now - 23 * h, now)).toEqual({ key: 'hours', count: 23 });
  });

  it('is the date from a full day on', () => {
    expect(relativeTime(now - 24 * h, now)).toEqual({ key: 'date', date: new Date(now - 24 * h) });
    expect(relativeTime(now - 400 * 24 * h, now)).toMatchObject({ key: 'date' });
  });

  it('is the date for a time clearly in the future, such as a scheduled post', () => {
    expect(relativeTime(now + 2 * h, now)).toEqual({ key: 'date', date: new Date(now + 2 * h) });
  });

  it('accepts a Date as well as epoch milliseconds', () => {
    expect(relativeTime(new Date(now - 5 * min), now)).toEqual({ key: 'minutes', count: 5 });
  });

  it('measures from the current time by default', () => {
    expect(relativeTime(Date.now() - 3 * min)).toEqual({ key: 'minutes', count: 3 });
  });
});

describe('the refresh interval of a relative time', () => {
  it('is 20 s while it reads just now', () => {
    expect(relativeTimeRefreshMs(now - 10 * s, now)).toBe(20 * s);
  });

  it('is 60 s while it counts minutes', () => {
    expect(relativeTimeRefreshMs(now - 10 * min, now)).toBe(60 * s);
  });

  it('is 24 minutes while it counts hours', () => {
    expect(relativeTimeRefreshMs(now - 3 * h, now)).toBe(24 * min);
  });

  it('is none once it shows a date, which never changes', () => {
    expect(relativeTimeRefreshMs(now - 2 * 24 * h, now)).toBeNull();
  });
});
