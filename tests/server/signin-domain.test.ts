import { describe, expect, it } from 'vitest';
import {
  deviceCookie,
  deviceCookieAfterSignIn,
  deviceKey,
  deviceOf,
  heldUntil,
  issueDeviceToken,
  requesterOf,
  signInDelayMs,
  signInThrottle,
} from '../../server/src/features/auth/domain';

describe('the sign-in delay', () => {
  it('is nothing for the free failures, then 1 s doubling with each failure up to 15 minutes', () => {
    const free = signInThrottle.pair.free;
    expect([0, 1, free - 1].map((n) => signInDelayMs(n, free))).toEqual([0, 0, 0]);
    expect([free, free + 1, free + 2, free + 3].map((n) => signInDelayMs(n, free))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(signInDelayMs(free + 9, free)).toBe(512_000);
    expect(signInDelayMs(free + 10, free)).toBe(15 * 60_000);
    expect(signInDelayMs(1_000_000, free)).toBe(15 * 60_000);
  });

  it('runs from the latest failure', () => {
    const latest = new Date('2030-01-01T12:00:00Z');
    expect(heldUntil(5, latest, 5, new Date(latest.getTime() + 999))).toEqual(new Date(latest.getTime() + 1_000));
    expect(heldUntil(5, latest, 5, new Date(latest.getTime() + 1_000))).toBeNull();
    expect(heldUntil(4, latest, 5, latest)).toBeNull();
    expect(heldUntil(0, null, 5, latest)).toBeNull();
  });
});

describe('the requester of a sign-in', () => {
  it('is the IPv4 address, also when written as IPv6', () => {
    expect(requesterOf('203.0.113.7')).toBe('203.0.113.7');
    expect(requesterOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(requesterOf('::FFFF:127.0.0.2')).toBe('127.0.0.2');
  });

  it('is the /64 of an IPv6 address, however it is written', () => {
    const network = '2001:db8:1:2::/64';
    for (const ip of ['2001:db8:1:2::1', '2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:DB8:1:2:0:0:0:9', '2001:db8:1:2::a%eth0']) expect(requesterOf(ip)).toBe(network);
    expect(requesterOf('2001:db8:1:3::1')).not.toBe(network);
    expect(requesterOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(requesterOf('::1')).toBe('0:0:0:0::/64');
  });
});

describe('device tokens', () => {
  const key = deviceKey('a server secret of at least thirty-two characters');
  const now = new Date('2030-01-01T12:00:00Z');

  it('are bound to their account and to the server’s key', () => {
    const token = issueDeviceToken(key, 42, now);
    const id = token.split('.')[2];
    expect(deviceOf(key, token, 42, null, now)).toBe(id);
    expect(deviceOf(key, token, 43, null, now)).toBeNull();
    expect(deviceOf(deviceKey('another server secret, thirty-two characters at least'), token, 42, null, now)).toBeNull();
    const [user, issued, nonce, mac] = token.split('.') as [string, string, string, string];
    expect(deviceOf(key, `43.${issued}.${nonce}.${mac}`, 43, null, now)).toBeNull();
    expect(deviceOf(key, `${user}.${issued}.${nonce}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, 42, null, now)).toBeNull();
    expect(deviceOf(key, undefined, 42, null, now)).toBeNull();
    expect(deviceOf(key, 'x'.repeat(5_000), 42, null, now)).toBeNull();
  });

  it('run out after a year, and with the account’s sessions', () => {
    const token = issueDeviceToken(key, 42, now);
    expect(deviceOf(key, token, 42, null, new Date(now.getTime() + deviceCookie.lifetimeMs))).not.toBeNull();
    expect(deviceOf(key, token, 42, null, new Date(now.getTime() + deviceCookie.lifetimeMs + 1))).toBeNull();
    expect(deviceOf(key, token, 42, new Date(now.getTime() - 1), now)).not.toBeNull();
    // Issued in the very millisecond the sessions ended: perhaps before, so no longer good.
    expect(deviceOf(key, token, 42, now, now)).toBeNull();
    expect(deviceOf(key, token, 42, new Date(now.getTime() + 1), now)).toBeNull();
  });

  it('of the last five accounts share one cookie, the newest sign-in first', () => {
    let cookie: string | undefined;
    for (let user = 1; user <= 6; user++) cookie = deviceCookieAfterSignIn(key, cookie, user, now);
    expect(cookie!.split('~').map((t) => Number(t.split('.')[0]))).toEqual([6, 5, 4, 3, 2]);
    const again = deviceCookieAfterSignIn(key, `${cookie!}~not a token`, 4, now);
    expect(again.split('~').map((t) => Number(t.split('.')[0]))).toEqual([4, 6, 5, 3, 2]);
    expect(deviceOf(key, again, 4, null, now)).not.toBe(deviceOf(key, cookie, 4, null, now));
  });
});
