import { describe, expect, it } from 'vitest';
import { batched } from '../../server/src/db/batched';

/** A `runMany` that notes each batch it was given and answers each key doubled. */
function doubling() {
  const batches: number[][] = [];
  const run = batched<number, number>(async (keys) => {
    batches.push([...keys]);
    return new Map(keys.filter((key) => key >= 0).map((key) => [key, key * 2]));
  }, 3);
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
    }, 3);
    const settled = await Promise.allSettled([1, 2, 3, 4, 5].map(run));
    expect(calls).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect((settled[3] as PromiseRejectedResult).reason).toEqual(new Error('database away'));
  });
});
