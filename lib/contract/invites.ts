import { Type, type Static } from 'typebox';
import { INVITE_CODE_ALPHABET, INVITE_CODE_LENGTH } from './constants';
import { AvatarMedia } from './users';

export { INVITE_CODE_ALPHABET, INVITE_CODE_LENGTH, normalizeInviteCode } from './constants';

/** An invite code as the API answers it (upper case; SPEC §5). */
export const InviteCodePattern = `^[${INVITE_CODE_ALPHABET}]{${INVITE_CODE_LENGTH}}$`;

/**
 * `GET /papi/users/aff-code/{code}`: who invites, for the invitation prompt — only what a
 * visitor may know of anyone (username, display name, avatar).
 */
export const AffiliateInfo = Type.Object(
  {
    username: Type.String(),
    displayName: Type.String(),
    avatarMedia: Type.Union([AvatarMedia, Type.Null()]),
  },
  { $id: 'AffiliateInfo' },
);
export type AffiliateInfo = Static<typeof AffiliateInfo>;

/** `GET /api/users/invite`: the viewer's invite code, the link that carries it, and who invited the viewer. */
export const Invite = Type.Object(
  {
    code: Type.String({ pattern: InviteCodePattern }),
    /** `{PUBLIC_URL}/?aff={code}`: any landing page with `?aff=` works the same. */
    link: Type.String(),
    /** Whoever invited the viewer, or null. */
    invitedBy: Type.Union([AffiliateInfo, Type.Null()]),
  },
  { $id: 'Invite' },
);
export type Invite = Static<typeof Invite>;

