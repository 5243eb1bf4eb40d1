import { Type, type Static } from 'typebox';
import { Int } from './bounds';

/**
 * Reports and moderation (SPEC §1 "report", §6 "report by non-authors", §7 POST /api/abuse):
 * a signed-in person reports a profile, a post, a comment or a chat message; administrators
 * work through the queue of open reports. docs/moderation.md describes the rules.
 */

/** What can be reported. */
export const AbuseTypes = ['user', 'post', 'comment', 'message'] as const;
export type AbuseType = (typeof AbuseTypes)[number];

/** Why: the reasons a reporter chooses from. */
export const AbuseReasons = ['spam', 'harassment', 'underage', 'non-consensual', 'illegal', 'impersonation', 'copyright', 'other'] as const;
export type AbuseReason = (typeof AbuseReasons)[number];

/** Bounds of a report's free text (characters). */
export const abuseLimits = { text: 1000 } as const;

/** `POST /api/abuse`. */
export const AbuseReportBody = Type.Object(
  {
    type: Type.Enum(AbuseTypes),
    id: Int({ minimum: 1 }),
    reason: Type.Enum(AbuseReasons),
    text: Type.Optional(Type.String({ maxLength: abuseLimits.text })),
  },
  { additionalProperties: false },
);
export type AbuseReportBody = Static<typeof AbuseReportBody>;

/** The reported thing as it was when reported: kept with the report even if it is edited or removed later. */
export const AbuseSnapshot = Type.Object({
  /** The post's, comment's or message's text; a profile's display name and bio. */
  text: Type.String(),
  /** Who wrote or owns it (for a profile, the profile itself). */
  authorId: Type.Integer(),
  authorUsername: Type.String(),
  /** The media of a post, a message's media, a profile's avatar. */
  mediaIds: Type.Array(Type.Integer()),
  /** The post a comment is under. */
  postId: Type.Optional(Type.Integer()),
  /** The other party of a chat message (its receiver). */
  receiverId: Type.Optional(Type.Integer()),
});
export type AbuseSnapshot = Static<typeof AbuseSnapshot>;

/** `GET /api/abuse/target`: the thing to report, as the report form shows it. */
export const AbuseTargetQuery = Type.Object({ type: Type.Enum(AbuseTypes), id: Int({ minimum: 1 }) });

export const AbusePreview = Type.Object({
  type: Type.Enum(AbuseTypes),
  id: Type.Integer(),
  /** The post's, comment's or message's text; a profile's display name and bio. */
  text: Type.String(),
  author: Type.Object({ id: Type.Integer(), username: Type.String(), displayName: Type.String() }),
  /** How many pictures or videos it carries (a profile: its avatar). */
  mediaCount: Type.Integer(),
});
export type AbusePreview = Static<typeof AbusePreview>;

/** `POST /api/abuse`'s answer: the stored report. */
export const AbuseReportReceipt = Type.Object({ id: Type.Integer(), ts: Type.Integer() });
export type AbuseReportReceipt = Static<typeof AbuseReportReceipt>;

const Person = Type.Object({ id: Type.Integer(), username: Type.String(), displayName: Type.String() });

/** One open report in the administrators' queue. */
export const AdminAbuseReport = Type.Object({
  id: Type.Integer(),
  type: Type.Enum(AbuseTypes),
  targetId: Type.Integer(),
  reason: Type.Enum(AbuseReasons),
  text: Type.Union([Type.String(), Type.Null()]),
  snapshot: AbuseSnapshot,
  reporter: Person,
  /** The author of the reported thing, as the account is now. */
  author: Type.Object({ ...Person.properties, banned: Type.Boolean() }),
  /** Whether the thing is still there (a post not hidden, a comment or message not deleted). */
  present: Type.Boolean(),
  ts: Type.Integer(),
});
export type AdminAbuseReport = Static<typeof AdminAbuseReport>;

export const AdminAbuseQuery = Type.Object({
  limit: Type.Optional(Int({ minimum: 1, maximum: 100 })),
  offset: Type.Optional(Int({ minimum: 0 })),
});

/** The administrators' actions on a report; each closes it (and every other open report of the same thing). */
export const ModerationActions = ['hide-post', 'delete-comment', 'delete-message', 'ban', 'dismiss'] as const;
export type ModerationAction = (typeof ModerationActions)[number];

export const ModerationActionParams = Type.Object({ id: Int({ minimum: 1 }), action: Type.Enum(ModerationActions) });

/** What an action did: the reports it closed. */
export const ModerationResult = Type.Object({ action: Type.Enum(ModerationActions), closedReports: Type.Array(Type.Integer()) });
export type ModerationResult = Static<typeof ModerationResult>;
