import { createClient } from './client';
import { accountApi, publicApi, type AccountApi, type PublicApi } from './api';
import { createSettingsStore } from './stores/settings';
import { createProfileStore } from './stores/profiles';
import { createSessionStore, type SessionOptions } from './stores/session';
import { createRelationsStore, type RelationsStore } from './stores/relations';
import { createPostStore } from './stores/posts';
import { createFeedStore, type FeedStore } from './stores/feed';
import type { UploadStore } from './upload';
import { createSearchStore, type SearchStore } from './stores/search';
import type { NotificationsStore } from './stores/notifications';
import type { WalletStore } from './stores/wallet';
import type { EarningsStore } from './stores/earnings';
import type { SubscriptionsStore } from './stores/subscriptions';
import { createSocket, type FanstageSocket } from './socket';
import type { ChatStore } from './stores/chat';
import type { CallsStore } from './stores/calls';
import type { PushApi } from './push';
import type { HeavyStores } from './stores/heavy';
import type { Fanstage, FanstageOptions } from './fanstage';
import { effect, untracked } from '@preact/signals-core';
import { createPopupConfirmer, type SpendConfirmer } from './spendConfirm';
import { createActivity, reportCalls, reportChat, reportRelations, reportSession, reportSubscriptions, reportWallet } from './activity';

/**
 * As {@link createFanstage}, but the code of the stores a visitor's first screen does not use
 * (wallet, earnings, subscriptions, chat, calls, uploads, notifications, push) is fetched by
 * `load`, when `loadStores()` is first called or the realtime connection opens: a page's first
 * load goes without it. Touching one of those stores before `loadStores()` resolved throws.
 * `load` defaults to importing them (`fanstage/sdk` exports this for partners' apps); the site
 * passes its own.
 */
export function createLazyFanstage(options: FanstageOptions, load: () => Promise<HeavyStores> = loadHeavyStores): Fanstage {
  return createFanstageWith(options, load);
}

/** The stores' code as a chunk of its own: a partner's bundler splits it off at this import. */
function loadHeavyStores(): Promise<HeavyStores> {
  return import('./stores/heavy').then((module) => module.heavyStores);
}

export function createFanstageWith(options: FanstageOptions, source: HeavyStores | (() => Promise<HeavyStores>)): Fanstage {
  const { session: givenSession, payments: paymentOptions, socket: socketOptions, chat: chatOptions, calls: callOptions, spendConfirmation, ...clientOptions } = options;
  const sessionOptions = givenSession?.mode ? givenSession : { ...defaultSession(clientOptions.baseUrl), ...givenSession };
  // A body-token session is a widget's: it never relies on cookies, and other sites get no credentials.
  const client = createClient({ ...clientOptions, credentials: clientOptions.credentials ?? (sessionOptions?.mode === 'body' ? 'omit' : 'include') });
  const confirmer = spendConfirmerFor(client, sessionOptions?.mode === 'body', spendConfirmation);
  if (confirmer) client.setSpendConfirmer(confirmer);
  const session = createSessionStore(client, sessionOptions);
  const activity = createActivity();
  // What this object listens to (the socket's messages, effects on shared signals): undone by dispose().
  const stops: Array<() => void> = [reportSession(session, activity)];
  const profiles = createProfileStore(client, { isLoggedIn: () => session.isLoggedIn.peek() });
  const posts = createPostStore(client, profiles, session);
  const isLoggedIn = () => session.isLoggedIn.peek();
  const socket = createSocket(client, session, socketOptions);
  const settings = createSettingsStore(client);
  let push: PushApi | null = null;

  let disposed = false;
  let heavy: HeavyStores | null = typeof source === 'function' ? null : source;
  let loading: Promise<void> | null = heavy ? Promise.resolve() : null;
  function loadStores(): Promise<void> {
    loading ??= (source as () => Promise<HeavyStores>)().then(
      (loaded) => {
        heavy = loaded;
      },
      (error: unknown) => {
        // A failed fetch (offline, a deploy removed the old file) may be tried again.
        loading = null;
        throw error;
      },
    );
    return loading;
  }
  function code(name: string): HeavyStores {
    if (!heavy) throw new Error(`fanstage.${name} is not loaded yet: await fanstage.loadStores() first`);
    return heavy;
  }

  let wallet: WalletStore | null = null;
  let earnings: EarningsStore | null = null;
  let subscriptions: SubscriptionsStore | null = null;
  let chatStore: ChatStore | null = null;
  let calls: CallsStore | null = null;
  let uploads: UploadStore | null = null;
  // Stores are built outside whatever effect touched them first: their own signals and effects are theirs.
  const getWallet = () => (wallet ??= untracked(() => reportWallet(code('wallet').createWalletStore(client, { ...paymentOptions, isLoggedIn, cardWindow: confirmer !== null }), activity)));
  const getEarnings = () => (earnings ??= untracked(() => code('earnings').createEarningsStore(client, getWallet())));
  const getSubscriptions = () => (subscriptions ??= untracked(() => reportSubscriptions(code('subscriptions').createSubscriptionsStore(client, getWallet(), { isLoggedIn }), activity)));
  // `GET /api/count/` answers both badges: the notifications store asks, the chat takes its part
  // (the latest answer is kept for a chat built later).
  let lastCounts: Parameters<ChatStore['applyCounts']>[0] | null = null;
  const getChat = () =>
    (chatStore ??= untracked(() => {
      const chat = code('chat').createChatStore(client, socket, session, { ...chatOptions, refreshCounts: () => getNotifications().refreshCount() });
      if (lastCounts) chat.applyCounts(lastCounts);
      return reportChat(chat, activity);
    }));
  let notifications: NotificationsStore | null = null;
  const getNotifications = () =>
    (notifications ??= untracked(() =>
      code('notifications').createNotificationsStore(client, {
        isLoggedIn,
        onCounts: (counts) => {
          lastCounts = counts;
          chatStore?.applyCounts(counts);
        },
      }),
    ));
  const getCalls = () =>
    (calls ??= untracked(() => {
      const store = code('calls').createCallsStore(
        {
          client,
          socket,
          session,
          settings,
          tip: (userId, giftId) => getWallet().tip(userId, giftId),
        },
        callOptions,
      );
      stops.push(reportCalls(store, activity));
      return store;
    }));
  const getUploads = () => (uploads ??= untracked(() => code('uploads').createUploadStore(client, session)));

  // The chat and calls listen from the first connection on: a message or a ring is never missed.
  const buildLive = () => {
    getChat();
    getCalls();
  };
  stops.push(
    effect(() => {
      if (socket.connectedState.value === 'idle') return;
      if (heavy) buildLive();
      else void loadStores().then(() => (disposed ? undefined : buildLive()), () => undefined);
    }),
  );
  const listen: FanstageSocket['on'] = (type, handler) => {
    const off = socket.on(type, handler);
    stops.push(off);
    return off;
  };
  // Money pushed over the connection reaches the wallet (built for it once its code is in).
  listen('amountChange', (message) => void (heavy ? getWallet().apply(message.balance) : undefined));
  // Counts and the badge: the site connects only once the stores' code is in (host-web/session.ts).
  listen('updateCount', (message) => void (heavy ? getNotifications().setUnreadCount(message.notifications) : undefined));
  listen('notificationsRead', () => void (heavy ? getNotifications().setUnreadCount(0) : undefined));
  // The partner programme moved (docs/partners.md): the account's approved state, partner and
  // seller flags change with it, and the notification that came with it counts on the badge.
  // The viewer's own profile follows too (partner, seller, the verified badge an administrator
  // may revoke), and on approval (120, SPEC §4 "triggers media reload") their loaded posts are
  // read again, so their media show as a seller's.
  listen('eventMessage', (message) => {
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
    if (heavy) void getNotifications().refreshCount().catch(() => undefined);
  });
  // The server ends this session (an admin block, a password changed elsewhere).
  // SPEC §6, §8: an administrator's block ends it as `banned`, a password changed elsewhere as
  // `disconnected-password`; the reason stays in `session.logoutReason` for the page to tell.
  listen('beforeLogout', (message) =>
    void session.logout(message.reason === 'admin-blocked' ? 'banned' : message.reason === 'disconnected-password' ? 'disconnected-password' : 'logout'),
  );
  // Whatever changed while the connection was down came without a message: ask again.
  const refreshAfterGap = () => {
    if (!isLoggedIn()) return;
    if (heavy) void getWallet().refresh().catch(() => undefined);
    if (heavy) void getNotifications().refreshCount().catch(() => undefined);
  };
  listen('reconnected', refreshAfterGap);
  // The server missed what other nodes sent while its link to them was down.
  listen('catchUp', refreshAfterGap);
  // The money of one viewer is never shown to the next: a logout forgets it.
  let wasLoggedIn = session.isLoggedIn.peek();
  stops.push(
    effect(() => {
      const now = session.isLoggedIn.value;
      if (wasLoggedIn && !now) {
        socket.disconnect();
        wallet?.reset();
        earnings?.reset();
        subscriptions?.reset();
        chatStore?.reset();
        calls?.reset();
        lastCounts = null;
      }
      wasLoggedIn = now;
    }),
  );
  let relations: RelationsStore | null = null;
  let search: SearchStore | null = null;
  let feeds: FeedStore | null = null;
  let api: PublicApi | null = null;
  let account: AccountApi | null = null;
  // Someone the viewer follows published: the open timelines offer it ('Load New Posts'). No
  // feed built yet means no timeline open, so nothing to offer it to.
  listen('newPost', (message) => void feeds?.noticeNewPost(message.postId));
  // A media this viewer unlocked in another tab (or window) opens here too, in every list.
  listen('eventMessage', (message) => {
    if (message.event !== 'mediaUnlock') return;
    const { mediaId, mediaUnlockHash } = message.data;
    if (mediaUnlockHash) posts.applyUnlock(mediaId, mediaUnlockHash);
  });
  /** Everything this object set going stops; see `Fanstage.dispose`. */
  function dispose(): void {
    if (disposed) return;
    disposed = true;
    for (const stop of stops.splice(0)) stop();
    chatStore?.dispose();
    calls?.dispose();
    feeds?.dispose();
    notifications?.reset();
    socket.disconnect();
    session.dispose();
  }

  const fanstage = {
    client,
    activity,
    get api() {
      return (api ??= publicApi(client));
    },
    settings,
    profiles,
    session,
    get relations() {
      return (relations ??= reportRelations(createRelationsStore(client, profiles, session), activity));
    },
    get account() {
      return (account ??= accountApi(client));
    },
    get search() {
      return (search ??= untracked(() =>
        createSearchStore(client, {
          isLoggedIn: () => session.isLoggedIn.peek(),
          viewerId: () => session.userId.peek(),
          rememberProfiles: (list) => profiles.remember(list),
        }),
      ));
    },
    get notifications() {
      return getNotifications();
    },
    posts,
    get feeds() {
      return (feeds ??= untracked(() => createFeedStore(posts, session)));
    },
    get uploads() {
      return getUploads();
    },
    get wallet() {
      return getWallet();
    },
    get earnings() {
      return getEarnings();
    },
    get subscriptions() {
      return getSubscriptions();
    },
    socket,
    get push() {
      return (push ??= untracked(() => code('push').createPushApi(client, settings, session)));
    },
    get chat() {
      return getChat();
    },
    get calls() {
      return getCalls();
    },
    loadStores,
  };
  // A method, not a store: left out of the object's keys, as a class's methods are.
  return Object.defineProperty(fanstage, 'dispose', { value: dispose, enumerable: false }) as typeof fanstage & Pick<Fanstage, 'dispose'>;
}

/**
 * A widget's spends beyond what the fan allowed its site go to the platform's popup: on by
 * default for a body-token session (a partner's page), off for the platform's own pages.
 */
function spendConfirmerFor(client: ReturnType<typeof createClient>, bodyTokens: boolean, option: FanstageOptions['spendConfirmation']): SpendConfirmer | null {
  if (option === false) return null;
  if (option !== undefined && 'confirm' in option) return option;
  if (!bodyTokens && option === undefined) return null;
  const platformOrigin = option?.platformOrigin ?? originOf(client.baseUrl);
  if (platformOrigin === null) return null;
  return createPopupConfirmer(client, { ...option, platformOrigin });
}

function originOf(baseUrl: string): string | null {
  try {
    return new URL(baseUrl || globalThis.location?.href).origin;
  } catch {
    return null;
  }
}

/**
 * The session a page gets when it does not choose one. On the API's own origin, the refresh
 * cookie (the platform's pages). Anywhere else, a partner's page or a server rendering one:
 * tokens in the body and no credentials, because the public API answers other origins with
 * `Access-Control-Allow-Origin: *`, which browsers refuse for a credentialed request. The
 * refresh token then stays in memory: keeping it across reloads (`storage`) is the page's call.
 */
export function defaultSession(baseUrl: string): SessionOptions {
  const page = globalThis.location?.origin;
  const api = originOf(baseUrl);
  return page !== undefined && page !== 'null' && (api === null || api === page) ? { mode: 'cookie' } : { mode: 'body' };
}
