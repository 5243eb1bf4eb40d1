import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../lib/sdk';

describe('a displayed duration', () => {
  it('is minutes and two-digit seconds', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(5)).toBe('0:05');
    expect(formatDuration(59)).toBe('0:59');
    expect(formatDuration(60)).toBe('1:00');
    expect(formatDuration(65)).toBe('1:05');
  });

  it('keeps counting minutes past an hour', () => {
    expect(formatDuration(3600)).toBe('60:00');
    expect(formatDuration(2100)).toBe('35:00'); // the longest video allowed
  });

  it('cuts fractions of a second like a media player clock', () => {
    expect(formatDuration(4.9)).toBe('0:04');
    expect(formatDuration(59.999)).toBe('0:59');
  });

  it('shows zero for a negative or unknown duration', () => {
    expect(formatDuration(-1)).toBe('0:00');
    expect(formatDuration(Number.NaN)).toBe('0:00');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('0:00');
  });
});
