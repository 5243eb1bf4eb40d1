import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Unlock keys: the `k` query of a locked media's original address. A key names the media
 * hash and the viewer it was issued to and expires; it is an HMAC, so the server checks it
 * without a database read on every image request. Keys are bearer tokens for a few hours —
 * like signed CDN addresses — and are reissued every time the viewer loads the post.
 */
export const unlockKeyLifetimeMs = 6 * 60 * 60_000;

export interface UnlockKeys {
  issue(hash: string, viewerId: number, now?: number): string;
  /** True when `key` was issued for `hash` and has not expired. */
  verify(hash: string, key: string, now?: number): boolean;
}

const keyPattern = /^(\d{1,13})\.(\d{1,10})\.([A-Za-z0-9_-]{22})$/;

export function createUnlockKeys(secret: string): UnlockKeys {
  // A key of its own, derived from the server secret, so tokens and media keys never mix.
  const macKey = createHmac('sha256', secret).update('fanstage media unlock keys').digest();
  const mac = (hash: string, viewerId: number, expires: number) =>
    createHmac('sha256', macKey).update(`${hash}:${viewerId}:${expires}`).digest().subarray(0, 16);

  return {
    issue(hash, viewerId, now = Date.now()) {
      // Rounded up to the hour so one viewer's keys stay stable (and cacheable) for a while.
      const expires = Math.ceil((now + unlockKeyLifetimeMs) / 3_600_000) * 3_600_000;
      return `${expires}.${viewerId}.${mac(hash, viewerId, expires).toString('base64url')}`;
    },
    verify(hash, key, now = Date.now()) {
      const match = keyPattern.exec(key);
      if (!match) return false;
      const expires = Number(match[1]);
      const viewerId = Number(match[2]);
      if (expires <= now) return false;
      const given = Buffer.from(match[3]!, 'base64url');
      const expected = mac(hash, viewerId, expires);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
