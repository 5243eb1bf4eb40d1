import { describe, expect, it } from 'vitest';
import { RefreshingCache } from '../../server/src/http/refreshing-cache';

describe('the refreshing cache of hot shared answers', () => {
  it('loads once for any number of simultaneous requests, then answers from memory while fresh', async () => {
    let now = 0;
    let loads = 0;
    const cache = new RefreshingCache<string, number>(1000, 5000, 10, () => now);
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 5));
      return loads;
    };
    expect(await Promise.all([1, 2, 3, 4].map(() => cache.get('k', load)))).toEqual([1, 1, 1, 1]);
    now = 999;
    expect(await cache.get('k', load)).toBe(1);
    expect(loads).toBe(1);
  });

  it('answers the stale value while one reload runs, and waits once it is too old', async () => {
    let now = 0;
    let loads = 0;
    const cache = new RefreshingCache<string, number>(1000, 5000, 10, () => now);
    const load = async () => ++loads;
    await cache.get('k', load);
    now = 1500;
    expect(await Promise.all([cache.get('k', load), cache.get('k', load)])).toEqual([1, 1]);
    await new Promise((r) => setTimeout(r, 1));
    expect(loads).toBe(2);
    expect(await cache.get('k', load)).toBe(2);
    now = 1500 + 7000;
    expect(await cache.get('k', load)).toBe(3);
  });

  it('lets a failed load fail the waiting request and retries on the next', async () => {
    let now = 0;
    let fail = true;
    const cache = new RefreshingCache<string, string>(1000, 5000, 10, () => now);
    const load = async () => {
      if (fail) throw new Error('database away');
      return 'ok';
    };
    await expect(cache.get('k', load)).rejects.toThrow('database away');
    fail = false;
    expect(await cache.get('k', load)).toBe('ok');
    now = 2000;
    fail = true;
    expect(await cache.get('k', load)).toBe('ok');
  });

  it('keeps at most its number of entries, dropping the oldest', async () => {
    const cache = new RefreshingCache<number, number>(1000, 0, 2, () => 0);
    let loads = 0;
    for (const key of [1, 2, 3]) await cache.get(key, async () => (++loads, key));
    await cache.get(1, async () => (++loads, 1));
    expect(loads).toBe(4);
  });
});
