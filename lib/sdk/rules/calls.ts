import type { Account } from '../../contract';
import { SUPPORT_LEVEL } from './constants';
import { fanPriceCents } from './price';

/**
 * Why the viewer cannot call someone, for a disabled call button: logged out, one's own
 * profile, not a creator who takes calls, blocked either way, the e-mail not verified, or a
 * call already under way. `no-credit` (less than a minute's credits) is a reason to top up
 * first, not to hide the button.
 */
export type CallBlocker = 'logged-out' | 'self' | 'not-seller' | 'blocked' | 'email-unverified' | 'in-call' | 'no-credit' | 'unsupported';

/** Whether a profile takes calls: a creator (seller) or support. */
export function takesCalls(profile: { isSeller: boolean; level: number }): boolean {
  return profile.isSeller || profile.level === SUPPORT_LEVEL;
}

/**
 * Why the viewer cannot call `profile` now, or null when they can. The server checks all of it
 * again; this is for the button.
 */
export function callBlocker(
  profile: { id: number; isSeller: boolean; level: number; callPrice: number; blockedStatus?: number },
  viewer: { account: Pick<Account, 'id' | 'emailVerified'> | null; inCall: boolean; credits: number | null; salt: number | null; webrtc?: boolean },
): CallBlocker | null {
  if (!viewer.account) return 'logged-out';
  if (viewer.account.id === profile.id) return 'self';
  if (!takesCalls(profile)) return 'not-seller';
  if (profile.blockedStatus !== undefined && profile.blockedStatus !== 0) return 'blocked';
  if (!viewer.account.emailVerified) return 'email-unverified';
  if (viewer.webrtc === false) return 'unsupported';
  if (viewer.inCall) return 'in-call';
  if (viewer.credits !== null && viewer.salt !== null && viewer.credits < fanPriceCents(profile.callPrice, viewer.salt)) return 'no-credit';
  return null;
}

/** Whether this browser can make calls at all (WebRTC and a camera API). */
export function canUseWebRtc(): boolean {
  return typeof globalThis.RTCPeerConnection === 'function' && typeof globalThis.navigator?.mediaDevices?.getUserMedia === 'function';
}

