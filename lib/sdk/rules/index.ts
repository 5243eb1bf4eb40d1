export { SALT_UNIT, fanPriceCents, formatPrice, priceSteps, isPriceStep, legacyPriceMap, nearestPriceStep } from './price';
export type { PriceKind } from './price';
export { formatCount } from './count';
export { initialsOf } from './initials';
export { formatDuration } from './duration';
export { relativeTime, relativeTimeRefreshMs } from './time';
export type { RelativeTime } from './time';
export { balanceBadge, earningsBadge, timelineBadgeError } from './badges';
export { mediaUrl, avatarUrl, avatarSizes, isLocked, postMediaUrl, pictureWidths, pictureSrcSet } from './media';
export type { MediaRef, MediaUrlOptions, AvatarSize, PostMediaRef } from './media';
export { shareUrl, shareNetworks, SHARE_POPUP_WIDTH, SHARE_POPUP_HEIGHT, postShareUrl, shareUtm } from './share';
export type { ShareNetwork, ShareInput, ShareOptions } from './share';
export { HASHTAG_MAX_LENGTH, isValidHashtag } from './hashtag';
export { pageSizes, cookieExpiryDays, breakpoints, breakpointFor } from './constants';
export type { PageSizeKey, CookieName, Breakpoint } from './constants';
export {
  CHAT_TIME_GAP_MS,
  SUPPORT_CHAT_LEVEL,
  VERIFIED_BADGE_STATE,
  typingTimings,
  needsTimeGap,
  withTimeGaps,
  deliveryState,
  chatFailureOf,
  isSupportAccount,
  chatPriceBadge,
  offersMessagePriceSetting,
  chatRecipientProblem,
  chatDraftProblem,
  chatReactions,
  chatReactionOf,
} from './chat';
export type { ChatRow, DeliveryState, ChatRefusal, ChatPerson, ChatDraft, ChatReaction } from './chat';
