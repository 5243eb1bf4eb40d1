import { describe, expect, it } from 'vitest';
import { fanPriceCents, formatPrice, isPriceStep, nearestPriceStep, priceSteps, type PriceKind } from '../../lib/sdk';

describe('what a fan pays', () => {
  it('is the stored price when salt is 10000 (×1)', () => {
    expect(fanPriceCents(128, 10_000)).toBe(128);
  });

  it('is the stored price times salt / 10000, in whole cents', () => {
    expect(fanPriceCents(128, 15_000)).toBe(192);
    expect(fanPriceCents(3200, 12_500)).toBe(4000);
  });

  it('rounds half a cent up', () => {
    expect(fanPriceCents(13, 15_000)).toBe(20); // 19.5
    expect(fanPriceCents(955, 15_000)).toBe(1433); // 1432.5
    expect(fanPriceCents(1, 14_999)).toBe(1); // 1.4999
  });

  it('is zero for a free item', () => {
    expect(fanPriceCents(0, 15_000)).toBe(0);
  });

  it('never turns a priced item free through rounding', () => {
    expect(fanPriceCents(1, 1)).toBe(1);
  });

  it('stays exact for amounts whose product leaves the safe integer range', () => {
    expect(fanPriceCents(2 ** 40, 20_000)).toBe(2 ** 41);
    expect(fanPriceCents(Number.MAX_SAFE_INTEGER, 10_000)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses negative, fractional or non-numeric money and a salt below 1', () => {
    expect(() => fanPriceCents(-1, 10_000)).toThrow(RangeError);
    expect(() => fanPriceCents(1.5, 10_000)).toThrow(RangeError);
    expect(() => fanPriceCents(Number.NaN, 10_000)).toThrow(RangeError);
    expect(() => fanPriceCents(100, 0)).toThrow(RangeError);
    expect(() => fanPriceCents(100, 1.5)).toThrow(RangeError);
  });
});

describe('a displayed price', () => {
  it('shows whole dollars at $10 or more', () => {
    expect(formatPrice(1200, 10_000)).toBe('$12');
    expect(formatPrice(1000, 10_000)).toBe('$10');
    expect(formatPrice(1600, 10_000)).toBe('$16');
  });

  it('shows two decimals below $10', () => {
    expect(formatPrice(320, 10_000)).toBe('$3.20');
    expect(formatPrice(999, 10_000)).toBe('$9.99');
    expect(formatPrice(13, 10_000)).toBe('$0.13');
    expect(formatPrice(5, 10_000)).toBe('$0.05');
  });

  it('shows free at zero, in the words the caller gives', () => {
    expect(formatPrice(0, 15_000)).toBe('free');
    expect(formatPrice(0, 15_000, 'zdarma')).toBe('zdarma');
  });

  it('applies the salt before choosing the notation', () => {
    // 800 stored → 1200 paid: above the $10 line only after the salt.
    expect(formatPrice(800, 15_000)).toBe('$12');
    expect(formatPrice(128, 15_000)).toBe('$1.92');
    expect(formatPrice(13, 15_000)).toBe('$0.20');
  });

  it('rounds whole dollars half up from the cents the fan pays', () => {
    expect(formatPrice(1249, 10_000)).toBe('$12');
    expect(formatPrice(1250, 10_000)).toBe('$13');
    expect(formatPrice(955, 15_000)).toBe('$14'); // pays 1433 cents
  });
});

describe('price steps', () => {
  it('are the credit steps of SPEC §9 for each kind', () => {
    expect(priceSteps.chatMessage).toEqual([0, 13, 16, 24, 32, 48, 64, 95, 128]);
    expect(priceSteps.chatMedia).toEqual([0, 32, 48, 64, 95, 128, 160, 192, 320, 640, 1600, 3200]);
    expect(priceSteps.postMedia).toEqual([0, 32, 48, 64, 95, 128, 160, 192, 320, 640, 1280, 1600, 1920]);
    expect(priceSteps.callMinute).toEqual([0, 32, 48, 64, 95, 128, 160, 320, 640, 955, 1280]);
  });

  it('all start at free and rise strictly', () => {
    for (const steps of Object.values(priceSteps)) {
      expect(steps[0]).toBe(0);
      for (let i = 1; i < steps.length; i += 1) expect(steps[i]).toBeGreaterThan(steps[i - 1] ?? Infinity);
    }
  });

  it('tell which prices a creator may set', () => {
    expect(isPriceStep('callMinute', 955)).toBe(true);
    expect(isPriceStep('chatMessage', 955)).toBe(false);
    expect(isPriceStep('postMedia', 1920)).toBe(true);
    expect(isPriceStep('chatMedia', 1920)).toBe(false);
  });

  it('leave a price that is a step unchanged', () => {
    for (const kind of Object.keys(priceSteps) as PriceKind[]) {
      for (const step of priceSteps[kind]) expect(nearestPriceStep(kind, step)).toBe(step);
    }
  });

  it('snap another price to the nearest step', () => {
    expect(nearestPriceStep('chatMessage', 18)).toBe(16);
    expect(nearestPriceStep('chatMessage', 30)).toBe(32);
    expect(nearestPriceStep('chatMedia', 1000)).toBe(640);
    expect(nearestPriceStep('callMinute', 900)).toBe(955);
  });

  it('snap a tie to the higher step, so opening the selector never lowers a price', () => {
    expect(nearestPriceStep('chatMessage', 20)).toBe(24);
    expect(nearestPriceStep('postMedia', 16)).toBe(32);
  });

  it('cap prices above the last step and floor negative ones at free', () => {
    expect(nearestPriceStep('chatMessage', 10_000)).toBe(128);
    expect(nearestPriceStep('callMinute', -5)).toBe(0);
  });

  it('map a chat-message price of 6 to 16, not to the nearer free step', () => {
    expect(nearestPriceStep('chatMessage', 6)).toBe(16);
    expect(nearestPriceStep('chatMessage', 5)).toBe(0);
    expect(nearestPriceStep('chatMessage', 7)).toBe(13);
  });

  it('apply the 6 → 16 mapping to chat messages only, where 16 is a step', () => {
    expect(nearestPriceStep('chatMedia', 6)).toBe(0);
  });
});
