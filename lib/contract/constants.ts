/**
 * Plain values of the contract: no TypeBox here, so the SDK, the components and the widget
 * bundle import them without pulling the schema library in. The schema modules re-export them.
 */

/** 0 none, 1 the viewer blocked this user, 2 this user blocked the viewer. */
export const BlockedStatus = { none: 0, blockedByMe: 1, blockedMe: 2 } as const;

/** Relation types (SPEC §5): 1 people I follow, 2 my followers, -1 people I blocked. */
export const RelationType = { following: 1, followers: 2, blocked: -1 } as const;

/** The cookie names POST /papi/users/cookie accepts, with their lifetimes in days (SPEC §9). */
export const CookieNames = {
  genderfilter: 30,
  pushdis: 14,
  accept: 365,
  smstip: 7,
  robin: 31,
  affcode: 31,
  cookielang: 730,
  preference: 730,
} as const;

/** The terms version stamped in the `accept_18` consent (SPEC §9). */
export const TERMS_VERSION = '20240307';

export type CookieName = keyof typeof CookieNames;

/** Signup answers: 1 created (the client logs in next), -5 username taken, -2 e-mail taken. */
export const SignupStatus = { created: 1, usernameTaken: -5, emailTaken: -2 } as const;

/** SPEC §4 Media status: 3 ready, 4 rejected, 5 being added, 7 NSFW ready. */
export const MediaStatus = { ready: 3, rejected: 4, adding: 5, nsfwReady: 7 } as const;

/**
 * Variants a media file is served in (`?t=`): avatar sizes, picture widths, the blurred
 * preview of locked media, the Open Graph picture and a video's poster frame.
 */
export const MediaVariants = ['60', '120', '500', '320', '640', '1280', 'blur', 'og', 'poster'] as const;

/** Why an upload was refused (SPEC §8 upload error popup causes). */
export const UploadProblems = ['wrong_media_type', 'format', 'tooLong', 'lowRes'] as const;

export type MediaVariant = (typeof MediaVariants)[number];

export type UploadProblem = (typeof UploadProblems)[number];

/** Every notification type of SPEC §3; later features add rows of their types through the same function. */
export const NotificationTypes = [
  'follow',
  'postGift',
  'chatGift',
  'missedCall',
  'timeline',
  'postLike',
  'postComment',
  'postCommentReply',
  'postCommentLike',
  'postMediaUnlock',
  'chatMediaUnlock',
  'verificationApproved',
  'partnerApproved',
  'notificationDeletedByAdmin',
  'actionGirlOffer',
  'subscriptionNewSubscriber',
  'subscriptionSubscriberLost',
  'subscriptionWaitingPayment',
  'subscriptionPaymentFailed',
  'subscriptionExpiredDuePayment',
  'profileVisit',
] as const;

/** The tabs of /notifications and the types each shows (all shows every type). */
export const NotificationTabs = {
  follow: ['follow', 'profileVisit'],
  subscriptions: ['subscriptionNewSubscriber', 'subscriptionSubscriberLost', 'subscriptionWaitingPayment', 'subscriptionPaymentFailed', 'subscriptionExpiredDuePayment'],
  replies: ['postComment', 'postCommentReply'],
} as const satisfies Record<string, readonly NotificationType[]>;

export type NotificationType = (typeof NotificationTypes)[number];

/** The tabs of /discover (SPEC §2); the presets are search filters with fixed fields. */
export const DiscoverTabs = ['newposts', 'activeusers', 'hasBadge', 'teens', 'milf', 'boobs', 'blonde-girls', 'brunette-girls'] as const;

/** SPEC §9 age filter defaults and presets. */
export const AgeFilter = { min: 18, max: 42, teenMax: 25, milfMin: 30, milfMax: 50 } as const;

export type DiscoverTab = (typeof DiscoverTabs)[number];

/** Money (lib/contract/payments.ts, subscriptions.ts). */
export const PaymentStatuses = ['created', 'challenge', 'processing', 'paid', 'declined', 'failed', 'expired'] as const;
export const TransactionTypes = [
  'topup',
  'gift',
  'unlock',
  'subscription',
  'chat-message',
  'chat-media',
  'call',
  'hold',
  'hold-settle',
  'hold-release',
  'payout',
  'payout-sent',
  'payout-returned',
  'affiliate',
  'promotion',
  'correction',
] as const;
export const PayoutMethods = ['paypal', 'card'] as const;
export type PaymentStatus = (typeof PaymentStatuses)[number];
export type TransactionType = (typeof TransactionTypes)[number];
export type PayoutMethod = (typeof PayoutMethods)[number];

/**
 * SPEC §4 statuses: 11 waiting for payment, 12 payment processing, 21 active, 23 renewal
 * payment failed (still active until the end date; paying again continues it), 24 cancelled
 * (active until the end date; revert-cancel continues it), 50 expired.
 */
export const SubscriptionStatus = {
  waitingPayment: 11,
  processing: 12,
  active: 21,
  paymentFailed: 23,
  cancelled: 24,
  expired: 50,
} as const;

/** Chat (lib/contract/chat.ts): the groups a creator's mass message goes to (SPEC §7). */
export const MassGroups = ['followers', 'subscribers', 'expired-subscribers'] as const;
export type MassGroupName = (typeof MassGroups)[number];

/** A message's `suspectedState`: 1 while marked (SPEC §4: a suspected chat is marked 24 h). */
export const SuspectedState = { none: 0, suspected: 1 } as const;

/**
 * Why a chat message the client sent was not delivered (SPEC §4 failed draft states):
 * `not_delivered` the seller's price rose above what the sender accepted (acknowledge and resend),
 * `no_credit` the wallet could not pay, `waiting_for_email` the sender's e-mail is not verified,
 * `not_delivered-general` anything else.
 */
export const ChatFailures = ['not_delivered', 'no_credit', 'waiting_for_email', 'not_delivered-general'] as const;
export type ChatFailure = (typeof ChatFailures)[number];

/**
 * Unread counts (the badges, a conversation's unread messages) are exact up to 99 and stop at
 * this number, which the screens show as "99+" (SPEC §9): the server counts no further than
 * a badge can show, so a creator with half a million unread costs what one with a hundred does.
 */
export const UNREAD_COUNT_CAP = 100;

/** SPEC §9: time-gap markers after 15 min, suspected marks for 24 h, 8 conversations in the aside, pages of 30. */
export const ChatLimits = {
  timeGapMs: 15 * 60_000,
  suspectedMs: 24 * 60 * 60_000,
  asideConversations: 8,
  pageSize: 30,
  /** The longest text of one message, in characters. */
  maxTextLength: 2_000,
} as const;

/** The websocket (lib/contract/realtime.ts). */
/** SPEC §9: heartbeat 50 s, reconnect after 2 s, the site reloads above 6 reconnections; widgets wait 10 s, up to 10 attempts. */
export const RealtimeTiming = {
  heartbeatMs: 50_000,
  reconnectMs: 2_000,
  siteReloadAfter: 6,
  widgetReconnectMs: 10_000,
  widgetMaxAttempts: 10,
} as const;

/**
 * Invite codes (SPEC §5 Affiliate code): 8 characters from an alphabet without look-alikes
 * (no 0/O, 1/I/L), so a code read aloud or typed from a screenshot is the code meant. They
 * are kept upper case and read in any case. 10-character `C-` codes are partner codes.
 */
export const INVITE_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const INVITE_CODE_LENGTH = 8;

/** The invite code `value` stands for (upper case), or null when it is not one. */
export function normalizeInviteCode(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const code = value.trim().toUpperCase();
  if (code.length !== INVITE_CODE_LENGTH) return null;
  for (const char of code) if (!INVITE_CODE_ALPHABET.includes(char)) return null;
  return code;
}

// Spending on the fan's word (docs/spending.md).

/** A tip is a gift with no post. */
export const SpendRequestKinds = ['gift', 'unlock', 'chat-media', 'chat-message', 'subscription', 'call', 'topup', 'subscription-card'] as const;
export type SpendRequestKind = (typeof SpendRequestKinds)[number];

/** pending → confirmed → used (the widget sent its spend again), or cancelled; a card payment's request is completed by its order. */
export const SpendRequestStatuses = ['pending', 'confirmed', 'used', 'cancelled', 'expired', 'completed'] as const;
export type SpendRequestStatus = (typeof SpendRequestStatuses)[number];

/** The header a widget sends its spend again with, naming the spend request the fan confirmed. */
export const SPEND_CONFIRMATION_HEADER = 'Fanstage-Confirmation';

/** The amounts a site's allowance may be set to (credits a month); 0 asks every time. */
export const ALLOWANCE_STEPS = [0, 500, 1000, 2000, 5000, 10000] as const;


/** Failed daily rechecks in a row after which a site's proof of ownership is withdrawn (docs/embedding.md, "Proving a site"). */
export const ORIGIN_PROOF_MAX_FAILURES = 3;
