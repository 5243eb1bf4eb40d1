import type { PopupConfirmerOptions, SpendConfirmer } from './spendConfirm';
import type { ClientOptions, FanstageClient } from './client';
import type { AccountApi, PublicApi } from './api';
import type { SettingsStore } from './stores/settings';
import type { ProfileStore } from './stores/profiles';
import type { SessionOptions, SessionStore } from './stores/session';
import type { RelationsStore } from './stores/relations';
import type { PostStore } from './stores/posts';
import type { FeedStore } from './stores/feed';
import type { UploadStore } from './upload';
import type { SearchStore } from './stores/search';
import type { NotificationsStore } from './stores/notifications';
import type { WalletStoreOptions, WalletStore } from './stores/wallet';
import type { EarningsStore } from './stores/earnings';
import type { SubscriptionsStore } from './stores/subscriptions';
import type { FanstageSocket, SocketOptions } from './socket';
import type { ChatStore, ChatStoreOptions } from './stores/chat';
import type { CallsStore, CallStoreOptions } from './stores/calls';
import type { PushApi } from './push';
import type { Activity } from './activity';

/**
 * Everything a screen or widget needs, built on one client. Components receive this object
 * rather than building their own, so two widgets on a page share one settings request and
 * one profile cache. Translations are not part of it: they belong to the UI.
 */
export interface Fanstage {
  readonly client: FanstageClient;
  /**
   * What the viewer did through this object, once the server agreed: follow, unfollow, tip,
   * unlock, subscribe, messagesent, callstart, callend, signin, signout (`activity.on(type, fn)`).
   */
  readonly activity: Activity;
  readonly api: PublicApi;
  readonly settings: SettingsStore;
  readonly profiles: ProfileStore;
  /** The logged-in user and the tokens; authorizes every `/api` call of `client`. */
  readonly session: SessionStore;
  /** Follow, block, hide and relation lists, kept in step with `profiles`. */
  readonly relations: RelationsStore;
  /** Typed calls of accounts: password reset, mailed actions, verification, profile edits. */
  readonly account: AccountApi;
  /** Discover tabs and filters, quick search, who-to-follow and their lists. */
  readonly search: SearchStore;
  /** The viewer's notifications by tab and the Notifications badge count. */
  readonly notifications: NotificationsStore;
  /** Every post the page has seen, shared by all lists: likes, deletions and follows show everywhere. */
  readonly posts: PostStore;
  /** The timelines and post lists (SPEC §4 paging), by type. */
  readonly feeds: FeedStore;
  /** The media upload flow (SPEC §4): checks, progress, outcome. */
  readonly uploads: UploadStore;
  /** The viewer's balance, cards, history, card top-ups, gifts, tips and unlocks. */
  readonly wallet: WalletStore;
  /** A creator's earnings, the earnings badge, payouts (built on the wallet's balance). */
  readonly earnings: EarningsStore;
  /** Subscription offers, subscribing with credits or by card, and the lists. */
  readonly subscriptions: SubscriptionsStore;
  /**
   * The realtime connection (`/ws/`). It does not connect by itself: call `connect()` once the
   * page wants live updates. Its balance and badge messages feed `wallet` and `notifications`.
   */
  readonly socket: FanstageSocket;
  /**
   * The paid chat: conversations, open threads, sending with read states and refusals,
   * reactions, typing and the Chat badge. Live once `socket` is connected.
   */
  readonly chat: ChatStore;
  /**
   * Paid video calls: ringing and answering, the meter the server feeds, camera and microphone,
   * and WebRTC (simple-peer, loaded with the first call). Live once `socket` is connected.
   */
  readonly calls: CallsStore;
  /** Web push: ask the browser, subscribe with the platform's key, register it (POST /api/device). */
  readonly push: PushApi;
  /**
   * Resolves once the code of the stores built on first use (wallet, earnings, subscriptions,
   * chat, calls, uploads, notifications, push) is in: at once for `createFanstage`, which
   * bundles it. An object from `createLazyFanstage` fetches it here; touching one of those
   * stores before that throws.
   */
  loadStores(): Promise<void>;
  /**
   * Stops everything this object set going: the realtime connection is closed, the session's
   * refresh timer stopped, and every listener the stores put on the socket, the window and the
   * document removed (each store's `dispose()`). For a page or widget that throws the object
   * away (an unmounted widget, a test); the object is not to be used after.
   */
  dispose(): void;
}

export interface FanstageOptions extends ClientOptions {
  /** How the session keeps its refresh token; the default suits the site (`'cookie'`). */
  session?: SessionOptions;
  /** How card payments open the processor's page (tests and unusual hosts replace the window). */
  payments?: Omit<WalletStoreOptions, 'isLoggedIn'>;
  /** The realtime connection: `mode: 'widget'` and `onFailure` for widgets, `WebSocketImpl` outside browsers. */
  socket?: SocketOptions;
  /**
   * Chat timings (acknowledgement and resume waits), mostly for tests, and where unsent drafts
   * are kept across reloads (`draftStorage`: `sessionStorage` by default, `null` for none).
   */
  chat?: Omit<ChatStoreOptions, 'refreshCounts'>;
  /** Calls: the peer class, ICE servers and a candidate filter, the camera (tests and unusual hosts). */
  calls?: CallStoreOptions;
  /**
   * How a spend from a partner site is confirmed by the fan (docs/spending.md). A session in
   * `'body'` mode — a widget, or a partner's app — asks in the platform's popup by default
   * (`baseUrl`'s origin); give other popup options, your own confirmer, or `false` for none.
   */
  spendConfirmation?: SpendConfirmer | Partial<PopupConfirmerOptions> | false;
}
