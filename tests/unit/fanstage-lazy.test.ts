import { describe, expect, it } from 'vitest';
import { createFanstage } from '../../lib/sdk';
import { createLazyFanstage } from '../../lib/sdk/fanstageCore';
import { heavyStores, type HeavyStores } from '../../lib/sdk/stores/heavy';

// No request is made: building the stores asks the server nothing.
const options = { baseUrl: 'http://127.0.0.1:9' };

describe('stores built on first use', () => {
  it('createFanstage builds each store once, when first touched, and has them all at once', async () => {
    const fanstage = createFanstage(options);
    await expect(fanstage.loadStores()).resolves.toBeUndefined();
    const wallet = fanstage.wallet;
    expect(fanstage.wallet).toBe(wallet);
    expect(fanstage.earnings).toBe(fanstage.earnings);
    expect(fanstage.chat).toBe(fanstage.chat);
    expect(fanstage.calls.phase.value).toBe('idle');
    expect(wallet.balance.value).toBeNull();
  });

  it('createLazyFanstage fetches the stores’ code once, on loadStores(), and refuses them before', async () => {
    let loads = 0;
    const fanstage = createLazyFanstage(options, () => {
      loads += 1;
      return Promise.resolve(heavyStores);
    });
    // What a visitor's first screen uses is there at once.
    expect(fanstage.posts).toBe(fanstage.posts);
    expect(fanstage.session.isLoggedIn.value).toBe(false);
    expect(() => fanstage.wallet).toThrow(/fanstage\.wallet is not loaded yet/);
    expect(() => fanstage.chat).toThrow(/fanstage\.chat is not loaded yet/);
    expect(loads).toBe(0);

    await Promise.all([fanstage.loadStores(), fanstage.loadStores()]);
    expect(loads).toBe(1);
    expect(fanstage.wallet).toBe(fanstage.wallet);
    expect(fanstage.subscriptions).toBe(fanstage.subscriptions);
    expect(fanstage.uploads).toBe(fanstage.uploads);
    await fanstage.loadStores();
    expect(loads).toBe(1);
  });

  it('a failed fetch of the stores’ code may be tried again', async () => {
    let loads = 0;
    const fanstage = createLazyFanstage(options, (): Promise<HeavyStores> => {
      loads += 1;
      return loads === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(heavyStores);
    });
    await expect(fanstage.loadStores()).rejects.toThrow('offline');
    expect(() => fanstage.calls).toThrow(/not loaded yet/);
    await fanstage.loadStores();
    expect(loads).toBe(2);
    expect(fanstage.calls.phase.value).toBe('idle');
  });
});
