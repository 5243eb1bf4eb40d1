import { describe, expect, it } from 'vitest';
import { balanceBadge, earningsBadge, timelineBadgeError } from '../../lib/sdk';

describe('the balance badge', () => {
  it('shows a fractional dollar under 100 cents', () => {
    expect(balanceBadge(0)).toBe('$0.00');
    expect(balanceBadge(5)).toBe('$0.05');
    expect(balanceBadge(50)).toBe('$0.50');
    expect(balanceBadge(99)).toBe('$0.99');
  });

  it('shows whole dollars, cut not rounded, from a dollar to $999', () => {
    expect(balanceBadge(100)).toBe('$1');
    expect(balanceBadge(199)).toBe('$1');
    expect(balanceBadge(1250)).toBe('$12');
    expect(balanceBadge(99_900)).toBe('$999');
  });

  it('shows 999+ over 99900 cents', () => {
    expect(balanceBadge(99_901)).toBe('999+');
    expect(balanceBadge(10_000_000)).toBe('999+');
  });

  it('never shows a negative balance', () => {
    expect(balanceBadge(-250)).toBe('$0.00');
  });
});

describe('the unacknowledged earnings badge', () => {
  it('shows $1 for any amount under 100 cents', () => {
    expect(earningsBadge(1)).toBe('$1');
    expect(earningsBadge(99)).toBe('$1');
  });

  it('shows whole dollars, cut not rounded, up to $99', () => {
    expect(earningsBadge(100)).toBe('$1');
    expect(earningsBadge(250)).toBe('$2');
    expect(earningsBadge(9_900)).toBe('$99');
  });

  it('shows $99+ over 9900 cents', () => {
    expect(earningsBadge(9_901)).toBe('$99+');
    expect(earningsBadge(500_000)).toBe('$99+');
  });

  it('shows $0 when there is nothing new, rather than inventing a dollar', () => {
    expect(earningsBadge(0)).toBe('$0');
    expect(earningsBadge(-5)).toBe('$0');
  });
});

describe('the Timeline badge error flag', () => {
  it('is raised for approved states 7, 101, 105 and 107', () => {
    for (const state of [7, 101, 105, 107]) expect(timelineBadgeError(state)).toBe(true);
  });

  it('is not raised for any other state or an unknown one', () => {
    for (const state of [0, 3, 100, 110, 120]) expect(timelineBadgeError(state)).toBe(false);
    expect(timelineBadgeError(null)).toBe(false);
    expect(timelineBadgeError(undefined)).toBe(false);
  });
});

describe('badges from whatever a balance message carries', () => {
  it('cut fractional cents and read anything that is not a number as nothing', () => {
    expect(balanceBadge(150.9)).toBe('$1');
    expect(balanceBadge(Number.NaN)).toBe('$0.00');
    expect(balanceBadge(Number.POSITIVE_INFINITY)).toBe('$0.00');
    expect(earningsBadge(99.99)).toBe('$1');
    expect(earningsBadge(9_900.5)).toBe('$99');
    expect(earningsBadge(Number.NaN)).toBe('$0');
  });
});
