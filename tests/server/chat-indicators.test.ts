import { describe, expect, it } from 'vitest';
import { IndicatorPairs } from '../../server/src/features/chat/indicators';

function pairs(answer: (from: number, to: number) => boolean, options: { ttlMs?: number; maxEntries?: number } = {}) {
  let now = 1_000;
  const reads: string[] = [];
  const held = new IndicatorPairs(
    async (from, to) => {
      reads.push(`${from}>${to}`);
      return answer(from, to);
    },
    { ttlMs: options.ttlMs ?? 30_000, maxEntries: options.maxEntries ?? 100, now: () => now },
  );
  return { held, reads, advance: (ms: number) => (now += ms) };
}

describe('the pairs a node relays indicators for', () => {
  it('reads a yes once and holds it until it is too old', async () => {
    const { held, reads, advance } = pairs(() => true, { ttlMs: 30_000 });
    expect(await held.allows(1, 2)).toBe(true);
    expect(await held.allows(1, 2)).toBe(true);
    expect(reads).toEqual(['1>2']);
    advance(30_000);
    expect(await held.allows(1, 2)).toBe(true);
    expect(reads).toEqual(['1>2', '1>2']);
  });

  it('reads a no afresh every time, so the first message opens the way at once', async () => {
    let shared = false;
    const { held, reads } = pairs(() => shared);
    expect(await held.allows(1, 2)).toBe(false);
    expect(await held.allows(1, 2)).toBe(false);
    shared = true;
    expect(await held.allows(1, 2)).toBe(true);
    expect(reads).toHaveLength(3);
  });

  it('keeps each direction apart, and drops everything on forget', async () => {
    const { held, reads } = pairs(() => true);
    await held.allows(1, 2);
    await held.allows(2, 1);
    expect(reads).toEqual(['1>2', '2>1']);
    held.forget();
    await held.allows(1, 2);
    expect(reads).toEqual(['1>2', '2>1', '1>2']);
  });

  it('does not keep a yes whose read a forget overtook', async () => {
    let release: () => void = () => {};
    const held = new IndicatorPairs(() => new Promise((resolve) => (release = () => resolve(true))), { ttlMs: 30_000, maxEntries: 100, now: () => 0 });
    const pending = held.allows(1, 2);
    // A block answered while the read was on its way: what it read may be from before the block.
    held.forget();
    release();
    expect(await pending).toBe(true);
    expect(held.size).toBe(0);
  });

  it('holds at most its bound, dropping the oldest first', async () => {
    const { held, reads } = pairs(() => true, { maxEntries: 2 });
    await held.allows(1, 2);
    await held.allows(1, 3);
    await held.allows(1, 4);
    expect(held.size).toBe(2);
    await held.allows(1, 3);
    await held.allows(1, 4);
    expect(reads).toEqual(['1>2', '1>3', '1>4']);
    await held.allows(1, 2);
    expect(reads).toEqual(['1>2', '1>3', '1>4', '1>2']);
  });
});
