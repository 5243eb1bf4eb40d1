import { describe, expect, it } from 'vitest';
import { formatCount } from '../../lib/sdk';

describe('a displayed count', () => {
  it('is the plain number under a thousand', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(7)).toBe('7');
    expect(formatCount(999)).toBe('999');
  });

  it('uses k from a thousand, with one decimal while the whole part is one digit', () => {
    expect(formatCount(1000)).toBe('1k');
    expect(formatCount(1500)).toBe('1.5k');
    expect(formatCount(9_900)).toBe('9.9k');
  });

  it('drops a zero decimal', () => {
    expect(formatCount(1_050)).toBe('1k');
    expect(formatCount(2_000)).toBe('2k');
  });

  it('uses whole thousands from ten thousand', () => {
    expect(formatCount(10_000)).toBe('10k');
    expect(formatCount(12_000)).toBe('12k');
    expect(formatCount(12_999)).toBe('12k');
    expect(formatCount(123_456)).toBe('123k');
  });

  it('cuts digits rather than rounding up, so it never claims more than is true', () => {
    expect(formatCount(1_999)).toBe('1.9k');
    expect(formatCount(999_999)).toBe('999k');
  });

  it('uses mil from a million', () => {
    expect(formatCount(1_000_000)).toBe('1mil');
    expect(formatCount(1_200_000)).toBe('1.2mil');
    expect(formatCount(9_999_999)).toBe('9.9mil');
    expect(formatCount(12_000_000)).toBe('12mil');
    expect(formatCount(1_500_000_000)).toBe('1500mil');
  });

  it('reads a negative, fractional or missing count as the nearest sane count', () => {
    expect(formatCount(-3)).toBe('0');
    expect(formatCount(1499.9)).toBe('1.4k');
    expect(formatCount(Number.NaN)).toBe('0');
  });
});
