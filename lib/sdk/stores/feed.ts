import { batch, computed, effect, signal, type ReadonlySignal, type Signal } from '@preact/signals-core';
import type { Post } from '../../contract';
import type { PageParams } from '../api';
import type { SdkError } from '../errors';
import { asSdkError } from './shared/errors';
import { pageSizes } from '../rules/constants';
import type { PostStore } from './posts';
import type { SessionStore } from './session';

export type FeedType = 'public' | 'private' | 'profile' | 'hashtag' | 'unlocked' | 'scheduled';

/**
 * SPEC §4 timeline paging: not loaded (`idle`), `loading`, `ended` once a page came back
 * shorter than its limit; `ready` between pages and `error` after a failed page (the next
 * `loadMore` tries that page again).
 */
export type FeedStatus = 'idle' | 'loading' | 'ready' | 'ended' | 'error';

/** One row of a feed: a post, or the divider before public posts on a short private timeline. */
export type FeedItem = { kind: 'post'; id: number; key: string } | { kind: 'divider'; key: string };

export interface FeedOptions {
  /** Public timeline gender filter (SPEC §3): 0 all (logged in only), 1 default, up to 4. */
  gender?: number;
}

export interface PostFeed {
  readonly key: string;
  readonly type: FeedType;
  readonly status: ReadonlySignal<FeedStatus>;
  readonly error: ReadonlySignal<SdkError | null>;
  /** What to render, in order: deleted posts are gone, duplicates blanked. */
  readonly items: ReadonlySignal<readonly FeedItem[]>;
  /** Posts newer than the first one, found by `checkNew` and not shown yet. */
  readonly newCount: ReadonlySignal<number>;
  /** Loads the next page (the first when idle); does nothing while loading or once ended. */
  loadMore(): Promise<void>;
  /** Forgets the pages and loads the first again. */
  reload(): Promise<void>;
  /** Asks whether posts newer than the first one exist (for the 'Load New Posts' banner). */
  checkNew(): Promise<number>;
  /** Puts the posts `checkNew` found on top. */
  showNew(): void;
}

/** SPEC §9: a private timeline this short is followed by public posts. */
export const PRIVATE_FALLBACK_BELOW = 7;
/** SPEC §9: with more private posts than this, a divider separates them from the public ones. */
export const DIVIDER_ABOVE = 2;

export const feedPageSizes: Record<FeedType, number> = {
  public: pageSizes.timeline,
  private: pageSizes.timeline,
  profile: pageSizes.timeline,
  hashtag: pageSizes.hashtagTimeline,
  unlocked: pageSizes.timeline,
  scheduled: pageSizes.scheduledPosts,
};

interface InternalFeed extends PostFeed {
  reset(): void;
  prepend(id: number): void;
  /** A post announced over the socket joins the ones waiting behind 'Load New Posts'. */
  offerNew(post: Post): void;
}

interface FeedState {
  ids: Signal<readonly number[]>;
  status: Signal<FeedStatus>;
  error: Signal<SdkError | null>;
  newer: Signal<readonly Post[]>;
  /** Bumped by a reset, so a page that was on its way is dropped. */
  serial: number;
  pending: Promise<void> | null;
}

/**
 * The feeds of SPEC §4, one object per list (type and parameter), all holding post ids into
 * the shared post store. The lists reset when the viewer changes (login, logout), because
 * what a list holds depends on who asks.
 */
export function createFeedStore(posts: PostStore, session: SessionStore) {
  const api = posts.api;
  const feeds = new Map<string, InternalFeed>();

  function fetchPage(type: FeedType, param: string, options: FeedOptions, query: PageParams): Promise<Post[]> {
    switch (type) {
      case 'public':
        return api.publicTimeline({ ...query, ...(options.gender !== undefined ? { gender: options.gender } : {}) });
      case 'private':
        return api.privateTimeline(query);
      case 'profile':
        return api.userPosts(param, query);
      case 'hashtag':
        return api.hashtag(param, query);
      case 'unlocked':
        return api.unlocked(query);
      case 'scheduled':
        return api.scheduled(query);
    }
  }

  function makeFeed(type: FeedType, param: string, options: FeedOptions, key: string): InternalFeed {
    const limit = feedPageSizes[type];
    const state: FeedState = {
      ids: signal<readonly number[]>([]),
      status: signal<FeedStatus>('idle'),
      error: signal<SdkError | null>(null),
      newer: signal<readonly Post[]>([]),
      serial: 0,
      pending: null,
    };

    // A short private timeline continues with the public one (SPEC §9); that list is the
    // shared public feed, so its likes and pages are the same objects.
    const fallback = type === 'private' ? computed(() => state.status.value === 'ended' && state.ids.value.length < PRIVATE_FALLBACK_BELOW) : null;
    const publicFeed = () => feed('public', undefined, options);

    const ownItems = computed<FeedItem[]>(() => {
      const gone = posts.removed.value;
      return state.ids.value.filter((id) => !gone.has(id)).map((id) => ({ kind: 'post' as const, id, key: `p${id}` }));
    });

    const items = computed<readonly FeedItem[]>(() => {
      const mine = ownItems.value;
      if (!fallback?.value) return mine;
      const shown = new Set(mine.map((item) => (item.kind === 'post' ? item.id : 0)));
      // Duplicates between the two timelines are blanked by id (SPEC §5).
      const others = publicFeed().items.value.filter((item) => item.kind === 'post' && !shown.has(item.id));
      return mine.length > DIVIDER_ABOVE ? [...mine, { kind: 'divider' as const, key: 'divider' }, ...others] : [...mine, ...others];
    });

    const status = computed<FeedStatus>(() => {
      if (!fallback?.value) return state.status.value;
      const other = publicFeed().status.value;
      // Until the public part has loaded, the private list is not at its end yet.
      return other === 'idle' ? 'loading' : other;
    });

    const error = computed(() => (fallback?.value ? publicFeed().error.value : state.error.value));

    function lastTs(): number | undefined {
      const ids = state.ids.peek();
      for (let i = ids.length - 1; i >= 0; i--) {
        const post = posts.peek(ids[i] as number);
        if (post) return post.ts;
      }
      return undefined;
    }

    async function loadMore(): Promise<void> {
      if (fallback?.peek()) return publicFeed().loadMore();
      const current = state.status.peek();
      if (current === 'loading' || current === 'ended') return state.pending ?? undefined;
      const serial = state.serial;
      const ts = lastTs();
      const askedAt = posts.stamp();
      state.status.value = 'loading';
      state.error.value = null;
      const pending = fetchPage(type, param, options, { limit, ...(ts !== undefined ? { ts } : {}) }).then(
        (page) => {
          if (serial !== state.serial) return;
          const known = new Set(state.ids.peek());
          // Posts with the same ts may straddle two pages; one copy is enough.
          const fresh = posts.remember(page, askedAt).filter((id) => !known.has(id));
          batch(() => {
            state.ids.value = [...state.ids.peek(), ...fresh];
            state.status.value = page.length < limit ? 'ended' : 'ready';
          });
          if (fallback?.peek()) void publicFeed().loadMore();
        },
        (failure: unknown) => {
          if (serial !== state.serial) return;
          batch(() => {
            state.error.value = asSdkError(failure);
            state.status.value = 'error';
          });
        },
      );
      state.pending = pending.finally(() => {
        if (serial === state.serial) state.pending = null;
      });
      return state.pending;
    }

    function reset(): void {
      state.serial += 1;
      state.pending = null;
      batch(() => {
        state.ids.value = [];
        state.newer.value = [];
        state.error.value = null;
        state.status.value = 'idle';
      });
    }

    async function checkNew(): Promise<number> {
      const firstId = state.ids.peek()[0];
      const first = firstId !== undefined ? posts.peek(firstId) : null;
      if (!first) return 0;
      const serial = state.serial;
      const page = await fetchPage(type, param, options, { limit });
      if (serial !== state.serial) return 0;
      const known = new Set(state.ids.peek());
      const newer = page.filter((post) => post.ts > first.ts && !known.has(post.id));
      state.newer.value = newer;
      return newer.length;
    }

    function showNew(): void {
      const newer = state.newer.peek();
      if (newer.length === 0) return;
      const ids = posts.remember(newer);
      batch(() => {
        // A full page of new posts may have a gap behind it: start over from them.
        if (newer.length >= limit) {
          state.serial += 1;
          state.ids.value = ids;
          state.status.value = 'ready';
        } else {
          state.ids.value = [...ids, ...state.ids.peek()];
        }
        state.newer.value = [];
      });
    }

    function offerNew(post: Post): void {
      if (state.status.peek() === 'idle' || state.ids.peek().includes(post.id)) return;
      const waiting = state.newer.peek();
      if (waiting.some((other) => other.id === post.id)) return;
      // Newest first, as a page of the timeline would have them.
      state.newer.value = [...waiting, post].sort((a, b) => b.ts - a.ts || b.id - a.id);
    }

    /** A post the viewer just made goes on top of the lists it belongs to. */
    function prepend(id: number): void {
      if (state.status.peek() === 'idle' || state.ids.peek().includes(id)) return;
      state.ids.value = [id, ...state.ids.peek()];
    }

    const created: InternalFeed = {
      key,
      type,
      status,
      error,
      items,
      newCount: computed(() => state.newer.value.length),
      loadMore,
      reload: () => {
        reset();
        return loadMore();
      },
      checkNew,
      showNew,
      reset,
      prepend,
      offerNew,
    };
    return created;
  }

  /** The feed of a type; `param` is the username (profile) or the tag (hashtag). */
  function feed(type: FeedType, param?: string, options: FeedOptions = {}): PostFeed {
    const normalised = (param ?? '').trim().replace(/^[@#]/, '');
    // The private timeline takes the filter for the public posts that continue a short one.
    const gender = type === 'public' || type === 'private' ? options.gender : undefined;
    const key = `${type}:${type === 'profile' || type === 'hashtag' ? normalised.toLowerCase() : ''}:${gender ?? ''}`;
    let existing = feeds.get(key);
    if (!existing) {
      existing = makeFeed(type, normalised, gender !== undefined ? { gender } : {}, key);
      feeds.set(key, existing);
    }
    return existing;
  }

  // Lists depend on who asks (private timeline, flags, blocked users): start over on a change.
  let viewer: number | null | undefined;
  const stopWatching = effect(() => {
    const next = session.userId.value;
    if (viewer !== undefined && next !== viewer) for (const f of feeds.values()) f.reset();
    viewer = next;
  });

  const stopHearing = posts.onCreated((post) => {
    const username = post.user.username.toLowerCase();
    for (const f of feeds.values()) {
      if (post.startDate !== null && post.startDate > Date.now()) {
        if (f.type === 'scheduled') f.prepend(post.id);
      } else if (f.type === 'private' || (f.type === 'profile' && f.key === `profile:${username}:`)) {
        f.prepend(post.id);
      }
    }
  });

  /**
   * `newPost` over the socket (SPEC §7): someone the viewer follows published. The post is read
   * once and offered to the private timelines that are open, which show 'Load New Posts'; a
   * post that is no longer there (deleted meanwhile, blocked) is left out quietly.
   */
  async function noticeNewPost(postId: number): Promise<void> {
    const open = [...feeds.values()].filter((f) => f.type === 'private' && f.status.peek() !== 'idle');
    if (open.length === 0 || !session.isLoggedIn.peek()) return;
    const viewer = session.userId.peek();
    let post: Post;
    try {
      post = await api.post(postId, true);
    } catch {
      return;
    }
    // The answer of one viewer is not the next one's.
    if (session.userId.peek() !== viewer || post.user.id === viewer) return;
    if (post.startDate !== null && post.startDate > Date.now()) return;
    posts.remember([post]);
    for (const f of open) f.offerNew(post);
  }

  return {
    feed,
    noticeNewPost,
    /** Stops following the viewer and the post store (a Fanstage object that is thrown away). */
    dispose(): void {
      stopWatching();
      stopHearing();
    },
  };
}

export type FeedStore = ReturnType<typeof createFeedStore>;
