import type { PublicProfile } from '../../../lib/contract';

/** A public profile as the server answers it, with the fields a test cares about overridden. */
export function profile(overrides: Partial<PublicProfile> = {}): PublicProfile {
  return {
    id: 42,
    username: 'Alice',
    displayName: 'Alice Nováková',
    bio: 'Painter.',
    avatarMedia: { mediaHash: 'abc123', format: 'jpg' },
    level: 1,
    hasBadge: true,
    badgeVerifiedState: 3,
    online: false,
    followersCount: 1500,
    postsCount: 12,
    isPartner: true,
    isSeller: true,
    messagePrice: 16,
    callPrice: 128,
    gender: 2,
    offersSubscriptions: false,
    ...overrides,
  };
}
