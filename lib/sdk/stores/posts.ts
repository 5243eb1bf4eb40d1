import { batch, computed, signal, type ReadonlySignal, type Signal } from '@preact/signals-core';
import type { CreatedPost, CreatePostBody, Post, PostStatsBody, PublicProfile } from '../../contract';
import type { FanstageClient } from '../client';
import { postsApi } from '../api';
import { SdkError } from '../errors';
import { asSdkError } from './shared/errors';
import type { LoadStatus, ProfileStore } from './profiles';
import { createPagedList, type PagedList } from './shared/paged';
import { pageSizes } from '../rules/constants';
import type { SessionStore } from './session';

export interface PostEntry {
  /** The post as every list shows it; the author's `isFollowed` follows the profile store. */
  readonly post: ReadonlySignal<Post | null>;
  readonly status: ReadonlySignal<LoadStatus>;
  readonly error: ReadonlySignal<SdkError | null>;
}

interface MutableEntry {
  raw: Signal<Post | null>;
  status: Signal<LoadStatus>;
  error: Signal<SdkError | null>;
  view: ReadonlySignal<Post | null>;
  pending: Promise<void> | null;
  /** The store's clock at this viewer's last like or unlike of the post (0: never). */
  likedAt: number;
}

/** What a viewer saw of a post, for the seen statistics (SPEC §7 `/papi/ga/`). */
export type SeenStats = Omit<PostStatsBody, 'postId'>;

/**
 * One copy of every post, shared by all the feeds, the single-post page and the cards: a like
 * shows in every list at once, a deleted post leaves every list, and a follow of the author
 * (through the relations store) shows on all of that author's posts.
 */
export function createPostStore(client: FanstageClient, profiles: ProfileStore, session: SessionStore) {
  const api = postsApi(client);
  const entries = new Map<number, MutableEntry>();
  const removed = signal<ReadonlySet<number>>(new Set());
  const pendingLikes = signal<ReadonlySet<number>>(new Set());
  // Per page life, not per login: "once per session" (SPEC §4) is the visit, and a fan who
  // logs in halfway has still seen the posts they saw.
  const seen = new Set<number>();
  const createdListeners = new Set<(post: Post) => void>();
  // Counts this viewer's likes and unlikes. A list asked before one of them and answered after
  // it knows the post as it was: its like and count do not replace the newer ones.
  let clock = 0;

  function entryFor(id: number): MutableEntry {
    let entry = entries.get(id);
    if (!entry) {
      const raw = signal<Post | null>(null);
      const view = computed<Post | null>(() => {
        const post = raw.value;
        if (!post) return null;
        // The profile store is where follows land (relations store): the author's flag there
        // wins, so following from any card or profile shows on every post of that author.
        // `remember` filed the author before the post, so this never starts a request.
        const followed = profiles.get(post.user.id).profile.value?.isFollowed;
        return followed === undefined || followed === post.user.isFollowed ? post : { ...post, user: { ...post.user, isFollowed: followed } };
      });
      entry = { raw, status: signal<LoadStatus>('idle'), error: signal<SdkError | null>(null), view, pending: null, likedAt: 0 };
      entries.set(id, entry);
    }
    return entry;
  }

  /** The store's clock, to hand to `remember` with the answer of a request asked now. */
  function stamp(): number {
    return clock;
  }

  /**
   * Files the posts of a page (replacing older copies) and returns their ids in order.
   * `askedAt` is the `stamp()` taken when the page was asked: a like or unlike made since, or
   * still on its way, keeps its state over the page's.
   */
  function remember(list: readonly Post[], askedAt: number = clock): number[] {
    const loggedIn = session.isLoggedIn.peek();
    const liking = pendingLikes.peek();
    batch(() => {
      for (const post of list) {
        const entry = entryFor(post.id);
        const current = entry.raw.peek();
        const newerLike = current !== null && (entry.likedAt > askedAt || liking.has(post.id));
        entry.raw.value = newerLike ? { ...post, likedByMe: current.likedByMe, totalLikesCount: current.totalLikesCount } : post;
        entry.status.value = 'ready';
        entry.error.value = null;
        // A visitor's "not followed" is no relation at all: leave it out, so the follow button
        // asks for the real one after a login.
        const { isFollowed, ...author } = post.user;
        if (!profiles.absorb(author.id, { ...author, ...(loggedIn ? { isFollowed } : {}) })) {
          profiles.remember([loggedIn ? post.user : author]);
        }
      }
    });
    return list.map((post) => post.id);
  }

  /** The entry of a post; starts loading it when it is not known yet. */
  function get(id: number): PostEntry {
    const entry = entryFor(id);
    if (entry.status.peek() === 'idle') void load(id).catch(() => undefined);
    return { post: entry.view, status: entry.status, error: entry.error };
  }

  function peek(id: number): Post | null {
    return entries.get(id)?.view.peek() ?? null;
  }

  /** (Re)loads one post; concurrent calls share the request. */
  function load(id: number): Promise<void> {
    const entry = entryFor(id);
    if (entry.pending) return entry.pending;
    entry.status.value = 'loading';
    entry.error.value = null;
    const askedAt = clock;
    const pending = api
      .post(id, session.isLoggedIn.peek())
      .then(
        (post) => {
          remember([post], askedAt);
        },
        (error: unknown) => {
          entry.error.value = asSdkError(error);
          entry.status.value = 'error';
          throw entry.error.value;
        },
      )
      .finally(() => {
        entry.pending = null;
      });
    entry.pending = pending;
    return pending;
  }

  /**
   * Reads again every post of `userId` this page has loaded, so their media show as they now
   * are (SPEC §4: an account approved as a partner, 120, reloads its media). Answers how many.
   */
  function reloadBy(userId: number): Promise<number> {
    const ids = [...entries].filter(([, entry]) => entry.raw.peek()?.user.id === userId).map(([id]) => id);
    return Promise.all(ids.map((id) => load(id).catch(() => undefined))).then(() => ids.length);
  }

  function patch(id: number, change: (post: Post) => Post): Post | null {
    const entry = entries.get(id);
    const current = entry?.raw.peek();
    if (!entry || !current) return null;
    entry.raw.value = change(current);
    return current;
  }

  function setPending(set: Signal<ReadonlySet<number>>, id: number, on: boolean): void {
    const next = new Set(set.peek());
    if (on) next.add(id);
    else next.delete(id);
    set.value = next;
  }

  function requireLogin(): void {
    if (!session.isLoggedIn.peek()) throw new SdkError({ code: 'unauthorized', statusCode: -1, httpStatus: 401 });
  }

  /**
   * Likes or unlikes at once in every list; the server's counts replace the guess when it
   * answers, and a refusal puts the post back as it was.
   */
  async function toggleLike(id: number): Promise<void> {
    requireLogin();
    if (pendingLikes.peek().has(id)) return;
    const current = peek(id);
    if (!current) return;
    const liking = !current.likedByMe;
    const entry = entryFor(id);
    entry.likedAt = ++clock;
    const before = patch(id, (p) => ({ ...p, likedByMe: liking, totalLikesCount: Math.max(0, p.totalLikesCount + (liking ? 1 : -1)) }));
    setPending(pendingLikes, id, true);
    try {
      const state = liking ? await api.like(id) : await api.unlike(id);
      if (state) patch(id, (p) => ({ ...p, likedByMe: state.likedByMe, totalLikesCount: state.totalLikesCount }));
    } catch (error) {
      if (before) patch(id, (p) => ({ ...p, likedByMe: before.likedByMe, totalLikesCount: before.totalLikesCount }));
      throw error;
    } finally {
      entry.likedAt = ++clock;
      setPending(pendingLikes, id, false);
    }
  }

  /** Deletes a post: it leaves every list at once and comes back if the server refuses. */
  async function remove(id: number): Promise<void> {
    requireLogin();
    setPending(removed, id, true);
    try {
      await api.remove(id);
    } catch (error) {
      setPending(removed, id, false);
      throw error;
    }
  }

  async function update(id: number, text: string): Promise<Post> {
    requireLogin();
    const post = await api.update(id, text);
    remember([post]);
    return post;
  }

  /** Creates a post; the feeds that show the author's posts put it first. */
  async function create(body: CreatePostBody): Promise<CreatedPost> {
    requireLogin();
    const created = await api.create(body);
    remember([created]);
    for (const listener of createdListeners) listener(created);
    return created;
  }

  /** Changes a comment count after a comment was added or removed on the post's page. */
  function adjustComments(id: number, delta: number, topLevel: boolean): void {
    patch(id, (p) => ({
      ...p,
      totalCommentsCount: Math.max(0, p.totalCommentsCount + delta),
      commentsCount: topLevel ? Math.max(0, p.commentsCount + delta) : p.commentsCount,
    }));
  }

  /**
   * Shows an unlocked media in every list at once: each post holding the media gets its
   * unlock key, so its original loads wherever the post is shown. True when a post changed.
   */
  function applyUnlock(mediaId: number, mediaUnlockHash: string): boolean {
    let found = false;
    batch(() => {
      for (const [id, entry] of entries) {
        const post = entry.raw.peek();
        if (!post?.media.some((m) => m.mediaId === mediaId && m.mediaUnlockHash !== mediaUnlockHash)) continue;
        found = true;
        patch(id, (p) => ({ ...p, media: p.media.map((m) => (m.mediaId === mediaId ? { ...m, mediaUnlockHash } : m)) }));
      }
    });
    return found;
  }

  /**
   * Who liked a post, newest first, 15 a page (SPEC §7 `GET /api/posts/{id}/likes`, §9). The
   * server shows the list to the post's author only. The people land in the profile store, so
   * their follow buttons know the viewer's relation without asking.
   */
  function likers(id: number): PagedList<PublicProfile> {
    return createPagedList<PublicProfile>({
      pageSize: pageSizes.likes,
      idOf: (user) => user.id,
      fetchPage: (cursor) => api.likes(id, { limit: cursor.limit, offset: cursor.offset }),
      onPage: (list) => profiles.remember(list),
    });
  }

  /**
   * Reports a post seen, once per page session (SPEC §4); true when this call sent it. The
   * UI decides when a post counts as seen (SPEC §9: 400 ms at half visibility).
   */
  function markSeen(id: number, stats: SeenStats): boolean {
    if (seen.has(id)) return false;
    seen.add(id);
    api.stats({ postId: id, duration: Math.max(0, Math.round(stats.duration)), visibleRatio: clampRatio(stats.visibleRatio), ...pick(stats) }).catch(() => {
      // Statistics are best effort; a lost report is not worth a second request or a message.
    });
    return true;
  }

  return {
    get,
    peek,
    load,
    reloadBy,
    stamp,
    remember,
    toggleLike,
    remove,
    update,
    create,
    adjustComments,
    applyUnlock,
    likers,
    markSeen,
    wasSeen: (id: number) => seen.has(id),
    /** Ids of posts deleted in this session (and on their way to being deleted). */
    removed: removed as ReadonlySignal<ReadonlySet<number>>,
    /** Ids of posts with a like or unlike on its way. */
    pendingLikes: pendingLikes as ReadonlySignal<ReadonlySet<number>>,
    /** Called with every post this viewer creates; returns the unsubscribe. */
    onCreated(listener: (post: Post) => void): () => void {
      createdListeners.add(listener);
      return () => createdListeners.delete(listener);
    },
    api,
  };
}

function clampRatio(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

function pick(stats: SeenStats): Partial<SeenStats> {
  return {
    ...(stats.fullscreen !== undefined ? { fullscreen: stats.fullscreen } : {}),
    ...(stats.cta !== undefined ? { cta: stats.cta } : {}),
  };
}

export type PostStore = ReturnType<typeof createPostStore>;
