import { signal, type ReadonlySignal } from '@preact/signals-core';
import type { RelationsQuery } from '../../contract';
import { BlockedStatus } from '../../contract/constants';
import type { FanstageClient } from '../client';
import { socialApi } from '../api';
import { SdkError } from '../errors';
import type { KnownProfile, ProfileStore } from './profiles';
import type { SessionStore } from './session';

/**
 * Follow, block and hide, changing the profiles in the profile store at once so every card
 * and button that shows a profile agrees; a change the server refuses is rolled back.
 */
export function createRelationsStore(client: FanstageClient, profiles: ProfileStore, session: SessionStore) {
  const api = socialApi(client);
  const pending = signal<ReadonlySet<number>>(new Set());

  function setPending(id: number, on: boolean): void {
    const next = new Set(pending.peek());
    if (on) next.add(id);
    else next.delete(id);
    pending.value = next;
  }

  function requireLogin(): void {
    if (!session.isLoggedIn.peek()) throw new SdkError({ code: 'unauthorized', statusCode: -1, httpStatus: 401 });
  }

  /** Applies `change` now and `undo` if the call fails; one change per user at a time. */
  async function optimistic(id: number, call: () => Promise<unknown>, change: (p: KnownProfile) => KnownProfile, undo: (p: KnownProfile) => KnownProfile): Promise<void> {
    requireLogin();
    if (pending.peek().has(id)) return;
    const settled = profiles.changing(id);
    const applied = profiles.patch(id, change);
    setPending(id, true);
    try {
      await call();
    } catch (error) {
      if (applied) profiles.patch(id, undo);
      throw error;
    } finally {
      settled();
      setPending(id, false);
    }
  }

  function follow(id: number): Promise<void> {
    return optimistic(
      id,
      () => api.follow(id),
      (p) => (p.isFollowed ? p : { ...p, isFollowed: true, followersCount: p.followersCount + 1 }),
      (p) => (p.isFollowed ? { ...p, isFollowed: false, followersCount: Math.max(0, p.followersCount - 1) } : p),
    );
  }

  function unfollow(id: number): Promise<void> {
    return optimistic(
      id,
      () => api.unfollow(id),
      (p) => (p.isFollowed === false ? p : { ...p, isFollowed: false, followersCount: Math.max(0, p.followersCount - 1) }),
      (p) => (p.isFollowed ? p : { ...p, isFollowed: true, followersCount: p.followersCount + 1 }),
    );
  }

  /** Blocking also ends following both ways (SPEC §5). */
  function block(id: number): Promise<void> {
    const before = profiles.peek(id);
    return optimistic(
      id,
      () => api.block(id),
      (p) => ({
        ...p,
        blockedStatus: BlockedStatus.blockedByMe,
        isFollowed: false,
        followersCount: p.isFollowed ? Math.max(0, p.followersCount - 1) : p.followersCount,
      }),
      (p) => (before ? { ...p, blockedStatus: before.blockedStatus, isFollowed: before.isFollowed, followersCount: before.followersCount } : p),
    );
  }

  function unblock(id: number): Promise<void> {
    return optimistic(
      id,
      () => api.unblock(id),
      (p) => ({ ...p, blockedStatus: BlockedStatus.none }),
      (p) => ({ ...p, blockedStatus: BlockedStatus.blockedByMe }),
    );
  }

  function hide(id: number): Promise<void> {
    return optimistic(
      id,
      () => api.hide(id),
      (p) => ({ ...p, isHidden: true }),
      (p) => ({ ...p, isHidden: false }),
    );
  }

  /**
   * A page of 30 from a relation list: the viewer's own when logged in, or `userId`'s public
   * one. The profiles are remembered, so their cards render without another request.
   */
  async function relations(query: RelationsQuery): Promise<KnownProfile[]> {
    // Someone else's list is public; the viewer's own (no userId) needs the login.
    const list: KnownProfile[] = await api.relations(query, session.isLoggedIn.peek() && query.userId === undefined);
    profiles.remember(list);
    return list;
  }

  return {
    /** Ids of users with a follow, block or hide on its way to the server. */
    pending: pending as ReadonlySignal<ReadonlySet<number>>,
    follow,
    unfollow,
    block,
    unblock,
    hide,
    relations,
  };
}

export type RelationsStore = ReturnType<typeof createRelationsStore>;
