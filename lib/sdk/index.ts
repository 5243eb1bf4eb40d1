export { createClient, API_VERSION, DEFAULT_TIMEOUT } from './client';
export type { ClientAuthenticator, ClientOptions, FanstageClient, LanguageIso, Query, RequestOptions } from './client';
export { SdkError, isSdkError } from './errors';
export { publicApi, accountApi, socialApi } from './api';
export type { PublicApi, AccountApi, SocialApi } from './api';
export { createProfileStore } from './stores/profiles';
export type { ProfileEntry, ProfileStore, LoadStatus, KnownProfile, ViewerRelation, ProfileStoreOptions } from './stores/profiles';
export { createSessionStore, decodeAccessToken, REFRESH_AHEAD_MS, REFRESH_LOCK_NAME, REFRESH_RETRY_MS } from './stores/session';
export type { SessionStore, SessionOptions, SessionStatus, TokenMode, TokenStorage, LogoutReason } from './stores/session';
export { createRelationsStore } from './stores/relations';
export type { RelationsStore } from './stores/relations';
export { createSettingsStore } from './stores/settings';
export { discoverApi, notificationsApi } from './api-discover';
export type { DiscoverApi, NotificationsApi, PostPageQuery } from './api-discover';
export {
  createSearchStore,
  createPagedList,
  searchQuery,
  cleanFilter,
  isFilterSet,
  ageBoundsFor,
  genderChoices,
  isDiscoverTab,
  isPostTab,
  presetTabs,
  quickSearchTabs,
  DEFAULT_GENDER,
  FILTER_TEXT_KEY,
} from './stores/search';
export type {
  SearchStore,
  SearchStoreOptions,
  PagedList,
  PagedListOptions,
  PagedStatus,
  PageCursor,
  DiscoverFilter,
  SearchQueryInput,
  QuickSearchTab,
  QuickSearchResult,
  FilterStorage,
} from './stores/search';
export { createNotificationsStore } from './stores/notifications';
export {
  notificationGroups,
  notificationGroup,
  groupNotifications,
  notificationTabs,
  isNotificationTab,
  notificationTypesOf,
  notificationTarget,
  notificationHref,
  notificationMessage,
  mergedTypes,
} from './rules/notifications';
export type { NotificationGroup, NotificationSection, NotificationTab, NotificationTarget } from './rules/notifications';
export type { NotificationsStore, NotificationsStoreOptions } from './stores/notifications';
export type { SettingsStore } from './stores/settings';
export { createPostStore } from './stores/posts';
export type { PostStore, PostEntry, SeenStats } from './stores/posts';
export { createFeedStore, feedPageSizes, PRIVATE_FALLBACK_BELOW, DIVIDER_ABOVE } from './stores/feed';
export { createReleaseWatcher, RELEASE_CHECK_MS } from './stores/release';
export type { ReleaseWatcher, ReleaseWatcherOptions } from './stores/release';
export type { PostFeed, FeedStore, FeedType, FeedStatus, FeedItem, FeedOptions } from './stores/feed';
export {
  createUploadStore,
  checkFile,
  checkMeasured,
  mediaKindOf,
  browserMeasure,
  MIN_MEDIA_SIDE,
  MAX_VIDEO_SECONDS,
  SUPPORT_LEVEL,
  MEDIA_ACCEPT,
  VOICE_ACCEPT,
} from './upload';
export type { Upload, UploadStore, UploadStatus, UploadOptions, Measure, Measured, MediaKind, CheckedFile, CheckResult, CheckOptions, SendBinary, FileLike } from './upload';
export { postsApi, mediaApi } from './api';
export type { PostsApi, MediaApi, PageParams } from './api';
export { paymentsApi, spendingApi, earningsApi, subscriptionsApi, browserData } from './api-money';
export type { PaymentsApi, SpendingApi, EarningsApi, SubscriptionsApi, BrowserData } from './api-money';
export { createWalletStore, createCardPaymentFlow, newIdempotencyKey, paymentFailure, PAYMENT_MESSAGE, PAYMENT_POLL_MS } from './stores/wallet';
export type { WalletStore, WalletStoreOptions, TopUpOptions, PaymentMode, PaymentProgress, PaymentWaitOptions, BalanceUpdate, CardPaymentFlow } from './stores/wallet';
export { createEarningsStore } from './stores/earnings';
export type { EarningsStore } from './stores/earnings';
export { createStatisticsStore, linksApi, statisticsCsv, browserTimeZone } from './stores/statistics';
export type { StatisticsStore, LinksApi } from './stores/statistics';
export { createSubscriptionsStore } from './stores/subscriptions';
export type { SubscriptionsStore, SubscribeByCardOptions } from './stores/subscriptions';
export { createSocket, socketUrl, SocketCloseCodes } from './socket';
export { socketProtocols, REALTIME_PROTOCOL, CloseCodes, ClientEvents, CallMessageTypes } from '../contract/realtime';
export { createPushApi } from './push';
export type { PushApi, PushOutcome } from './push';
export type { FanstageSocket, SocketOptions, SocketSession, SocketMode, SocketEvent, SocketEventMap, SocketErrorCode, ConnectedState, WebSocketConstructor } from './socket';
export { createChatStore } from './stores/chat';
export type {
  ChatStore,
  ChatStoreOptions,
  ChatSession,
  ChatThread,
  ChatItem,
  ChatActivity,
  ChatDraftInput,
  ChatSendProblem,
  ChatSendResult,
  ChatPrompt,
  ChatFailureNotice,
  ChatCounts,
} from './stores/chat';
export { createChatDraftStore, defaultChatDraftStorage, CHAT_DRAFTS_KEY } from './stores/chatDrafts';
export type { ChatDraftStorage, ChatDraftLimits, StoredChatDraft, ChatDraftStore } from './stores/chatDrafts';
export { chatApi } from './api-chat';
export { createCallsStore, callBlocker, takesCalls, canUseWebRtc, mediaProblemOf, newCallId } from './stores/calls';
export type {
  CallsStore,
  CallStoreOptions,
  CallsDeps,
  CallPhase,
  CallDirection,
  CallProblem,
  CallSession,
  CallMeter,
  CallTotals,
  CallDevice,
  CallLine,
  CallCallee,
  CallStartResult,
  CallRingOutcome,
  CallStartProblem,
  CallBlocker,
  CallPeer,
  CallPeerOptions,
  CallPeerConstructor,
  CallMediaDevices,
} from './stores/calls';
export { callsApi } from './api-calls';
export { partnerApi, adminPartnersApi } from './api-partner';
export type { PartnerApi, AdminPartnersApi } from './api-partner';
export type { CallsApi } from './api-calls';
export { CallStatus, CallStates, CallEndReasons, CALL_RING_TIMEOUT_S, CALL_MINUTE_S, ClientCallTypes, ServerOnlyCallTypes, minutesBegun } from '../contract/rules/calls';
export type { ChatApi } from './api-chat';
export { createFanstage } from './createFanstage';
export { createLazyFanstage } from './fanstageCore';
export type { Fanstage, FanstageOptions } from './fanstage';
export type { Activity, ActivityDetails, ActivityType, ActivityListener } from './activity';
export * from './rules';
export type * from '../contract';
export { version } from './version';
export { signInWithPopup, requestEmbedCode, embedConsentState, listEmbedConsents, revokeEmbedConsent, EMBED_CODE_MESSAGE, POPUP_WIDTH, POPUP_HEIGHT } from './popupSignIn';
export type { PopupSignInOptions, PopupSignInTarget, PopupHandle, MessageSource, EmbedCodeMessage } from './popupSignIn';
export { createPopupConfirmer, spendRequestsApi, goesOn, SPEND_ANSWER_MESSAGE } from './spendConfirm';
export type { SpendConfirmer, PopupConfirmerOptions, SpendAnswerMessage } from './spendConfirm';
export { spendingControlsApi } from './api-spending';
export { verifyBadge, createBadgeVerifier, badgeVerifierFor } from './badge';
export type { BadgeClaims, BadgeJwk, BadgeKeyLookup, BadgeVerifier, VerifyBadgeOptions } from './badge';
export { siteProofApi } from './api-sites';
export type { SiteProofApi } from './api-sites';
export type { OriginProof, OriginProofToken, OriginProofProblem, BadgeAnswer } from '../contract/badge';
