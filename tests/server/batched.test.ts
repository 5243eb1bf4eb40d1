import { describe, expect, it } from 'vitest';
import { batched } from '../../server/src/db/batched';

/** A `runMany` that notes each batch it was given and answers each key doubled. */
function doubling() {
  const batches: number[][] = [];
  const run = batched<number, number>(async (keys) => {
    batches.push([...keys]);
    return new Map(keys.filter((key) => key >= 0).map((key) => [key, key * 2]));
  }, { maxBatch: 3 });
  return { batches, run };
}

describe('work gathered by key (db/batched.ts)', () => {
  it('runs the keys asked in one turn together, each once, and answers every caller', async () => {
    const { batches, run } = doubling();
    const answers = await Promise.all([run(1), run(2), run(1), run(-5)]);
    expect(answers).toEqual([2, 4, 2, undefined]);
    expect(batches).toEqual([[1, 2, -5]]);
    // The next turn is a batch of its own.
    expect(await run(7)).toBe(14);
    expect(batches).toEqual([[1, 2, -5], [7]]);
  });

  it('splits a crowd into batches of the largest size, and a failure reaches only its batch', async () => {
    const calls: number[][] = [];
    const run = batched<number, number>(async (keys) => {
      calls.push([...keys]);
      if (keys.includes(4)) throw new Error('database away');
      return new Map(keys.map((key) => [key, key]));
    }, { maxBatch: 3 });
    const settled = await Promise.allSettled([1, 2, 3, 4, 5].map(run));
    expect(calls).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect((settled[3] as PromiseRejectedResult).reason).toEqual(new Error('database away'));
  });

  it('with one statement at a time, gathers everyone who asked while it ran into the next, and never answers a key from a statement begun before it was asked', async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    let reads = 0;
    const run = batched<number, number>(
      async (keys) => {
        batches.push([...keys]);
        reads += 1;
        const read = reads;
        if (read === 1) await new Promise<void>((resolve) => (release = resolve));
        return new Map(keys.map((key) => [key, read]));
      },
      { inFlight: 1 },
    );
    const first = run(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    // Asked over several turns while the first statement runs: none starts, and 1 is not answered by it.
    const later = [run(2)];
    await new Promise((resolve) => setImmediate(resolve));
    later.push(run(3), run(1));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    release();
    expect(await first).toBe(1);
    expect(await Promise.all(later)).toEqual([2, 2, 2]);
    expect(batches).toEqual([[1], [2, 3, 1]]);
  });

  it('with one statement at a time, runs a crowd larger than a batch one batch after another, and a failure frees the line', async () => {
    const batches: number[][] = [];
    let running = 0;
    let most = 0;
    const run = batched<number, number>(
      async (keys) => {
        batches.push([...keys]);
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
        if (keys.includes(1)) throw new Error('database away');
        return new Map(keys.map((key) => [key, key]));
      },
      { maxBatch: 2, inFlight: 1 },
    );
    const settled = await Promise.allSettled([1, 2, 3, 4, 5].map(run));
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
    expect(most).toBe(1);
    expect(settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : 'failed'))).toEqual(['failed', 'failed', 3, 4, 5]);
  });
});
