import { createClient, type ClientOptions, type FanstageClient } from './client';
import { accountApi, publicApi, type AccountApi, type PublicApi } from './api';
import { createSettingsStore, type SettingsStore } from './stores/settings';
import { createProfileStore, type ProfileStore } from './stores/profiles';
import { createSessionStore, type SessionOptions, type SessionStore } from './stores/session';
import { createRelationsStore, type RelationsStore } from './stores/relations';
import { createPostStore, type PostStore } from './stores/posts';
import { createFeedStore, type FeedStore } from './stores/feed';
import { createUploadStore, type UploadStore } from './upload';
import { createSearchStore, type SearchStore } from './stores/search';
import { createNotificationsStore, type NotificationsStore } from './stores/notifications';
import { createWalletStore, type WalletStore, type WalletStoreOptions } from './stores/wallet';
import { createEarningsStore, type EarningsStore } from './stores/earnings';
import { createSubscriptionsStore, type SubscriptionsStore } from './stores/subscriptions';
import { createSocket, type FanstageSocket, type SocketOptions } from './socket';
import { createChatStore, type ChatStore, type ChatStoreOptions } from './stores/chat';
import { createCallsStore, type CallsStore, type CallStoreOptions } from './stores/calls';
import { effect } from '@preact/signals-core';

/**
 * Everything a screen or widget needs, built on one client. Components receive this object
 * rather than building their own, so two widgets on a page share one settings request and
 * one profile cache. Translations are not part of it: they belong to the UI.
 */
export interface Fanstage {
  readonly client: FanstageClient;
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
}

export function createFanstage(options: FanstageOptions): Fanstage {
  const { session: sessionOptions, payments: paymentOptions, socket: socketOptions, chat: chatOptions, calls: callOptions, ...clientOptions } = options;
  // A body-token session is a widget's: it never relies on cookies, and other sites get no credentials.
  const client = createClient({ ...clientOptions, credentials: clientOptions.credentials ?? (sessionOptions?.mode === 'body' ? 'omit' : 'include') });
  const session = createSessionStore(client, sessionOptions);
  const profiles = createProfileStore(client, { isLoggedIn: () => session.isLoggedIn.peek() });
  const posts = createPostStore(client, profiles, session);
  const isLoggedIn = () => session.isLoggedIn.peek();
  const wallet = createWalletStore(client, { ...paymentOptions, isLoggedIn });
  const earnings = createEarningsStore(client, wallet);
  const subscriptions = createSubscriptionsStore(client, wallet, { isLoggedIn });
  const socket = createSocket(client, session, socketOptions);
  // `GET /api/count/` answers both badges: the notifications store asks, the chat takes its part.
  const chatStore = createChatStore(client, socket, session, { ...chatOptions, refreshCounts: () => notifications.refreshCount() });
  const notifications = createNotificationsStore(client, { isLoggedIn, onCounts: (counts) => chatStore.applyCounts(counts) });
  const settings = createSettingsStore(client);
  const calls = createCallsStore(
    {
      client,
      socket,
      session,
      settings,
      tip: (userId, giftId) => wallet.tip(userId, giftId),
    },
    callOptions,
  );
  socket.on('amountChange', (message) => void wallet.apply(message.balance));
  socket.on('updateCount', (message) => notifications.setUnreadCount(message.notifications));
  socket.on('notificationsRead', () => notifications.setUnreadCount(0));
  // The partner programme moved (docs/partners.md): the account's approved state, partner and
  // seller flags change with it, and the notification that came with it counts on the badge.
  // The viewer's own profile follows too (partner, seller, the verified badge an administrator
  // may revoke), and on approval (120, SPEC §4 "triggers media reload") their loaded posts are
  // read again, so their media show as a seller's.
  socket.on('eventMessage', (message) => {
    if (message.event !== 'partnerStatusChanged' || !isLoggedIn()) return;
    const before = session.account.peek()?.approvedState;
    void session
      .loadAccount()
      .then(() => {
        const me = session.account.peek();
        if (!me) return;
        void profiles.load(me.id).catch(() => undefined);
        if (me.approvedState === 120 && before !== 120) void posts.reloadBy(me.id);
      })
      .catch(() => undefined);
    void notifications.refreshCount().catch(() => undefined);
  });
  const feeds = createFeedStore(posts, session);
  // Someone the viewer follows published: the open timelines offer it ('Load New Posts').
  socket.on('newPost', (message) => void feeds.noticeNewPost(message.postId));
  // A media this viewer unlocked in another tab (or window) opens here too, in every list.
  socket.on('eventMessage', (message) => {
    if (message.event !== 'mediaUnlock') return;
    const mediaId = message.data?.mediaId;
    const key = message.data?.mediaUnlockHash;
    if (typeof mediaId === 'number' && typeof key === 'string' && key !== '') posts.applyUnlock(mediaId, key);
  });
  // The server ends this session (an admin block, a password changed elsewhere).
  socket.on('beforeLogout', () => void session.logout());
  // Whatever changed while the connection was down came without a message: ask again.
  socket.on('reconnected', () => {
    if (!isLoggedIn()) return;
    void wallet.refresh().catch(() => undefined);
    void notifications.refreshCount().catch(() => undefined);
  });
  // The money of one viewer is never shown to the next: a logout forgets it.
  let wasLoggedIn = session.isLoggedIn.peek();
  effect(() => {
    const now = session.isLoggedIn.value;
    if (wasLoggedIn && !now) {
      socket.disconnect();
      wallet.reset();
      earnings.reset();
      subscriptions.reset();
      chatStore.reset();
      calls.reset();
    }
    wasLoggedIn = now;
  });
  return {
    client,
    api: publicApi(client),
    settings,
    profiles,
    session,
    relations: createRelationsStore(client, profiles, session),
    account: accountApi(client),
    search: createSearchStore(client, {
      isLoggedIn: () => session.isLoggedIn.peek(),
      viewerId: () => session.userId.peek(),
      rememberProfiles: (list) => profiles.remember(list),
    }),
    notifications,
    posts,
    feeds,
    uploads: createUploadStore(client, session),
    wallet,
    earnings,
    subscriptions,
    socket,
    chat: chatStore,
    calls,
  };
}
