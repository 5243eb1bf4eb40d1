import { Type, type Static } from 'typebox';
import { Int } from './bounds';

/** An avatar: the media hash and the sizes it exists in (60, 120, 500 px, WebP). */
export const AvatarMedia = Type.Object({
  mediaHash: Type.String(),
  format: Type.String(),
});
export type AvatarMedia = Static<typeof AvatarMedia>;

/** The profile fields a visitor may see (SPEC §3 Profile). */
export const PublicProfile = Type.Object(
  {
    id: Type.Integer(),
    username: Type.String(),
    displayName: Type.String(),
    bio: Type.String(),
    avatarMedia: Type.Union([AvatarMedia, Type.Null()]),
    level: Type.Integer(),
    hasBadge: Type.Boolean(),
    badgeVerifiedState: Type.Integer(),
    online: Type.Boolean(),
    followersCount: Type.Integer({ minimum: 0 }),
    postsCount: Type.Integer({ minimum: 0 }),
    isPartner: Type.Boolean(),
    isSeller: Type.Boolean(),
    /** Price of one chat message in cents (SPEC §9: displayed with salt). */
    messagePrice: Type.Integer({ minimum: 0 }),
    /** Price of one call minute in cents. */
    callPrice: Type.Integer({ minimum: 0 }),
    gender: Type.Integer({ minimum: 1, maximum: 2 }),
    offersSubscriptions: Type.Boolean(),
  },
  { $id: 'PublicProfile' },
);
export type PublicProfile = Static<typeof PublicProfile>;

export const UserIdParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'A username or a numeric user id.' }),
});
export type UserIdParams = Static<typeof UserIdParams>;

export const UserSourceQuery = Type.Object({
  source: Type.Optional(Type.String({ maxLength: 32 })),
});

export const WhoToFollowQuery = Type.Object({
  limit: Type.Optional(Int({ minimum: 1, maximum: 30, default: 10 })),
  offset: Type.Optional(Int({ minimum: 0, default: 0 })),
  seed: Type.Optional(Int({ minimum: 0 })),
});
export type WhoToFollowQuery = Static<typeof WhoToFollowQuery>;

export const ProfileList = Type.Array(PublicProfile);
export type ProfileList = Static<typeof ProfileList>;
