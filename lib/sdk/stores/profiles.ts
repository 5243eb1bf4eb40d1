import { batch, signal, type ReadonlySignal, type Signal } from '@preact/signals-core';
import type { PublicProfile, ViewedProfile } from '../../contract';
import type { FanstageClient } from '../client';
import { publicApi, socialApi } from '../api';
import type { SdkError } from '../errors';
import { asSdkError } from './shared/errors';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The viewer's relation to a profile; present only when it was loaded by a logged-in viewer. */
export type ViewerRelation = Pick<ViewedProfile, 'isFollowed' | 'blockedStatus' | 'isMySubscriber' | 'isHidden'>;

/** A profile as the store knows it: the public fields, plus the relation when logged in. */
export type KnownProfile = PublicProfile & Partial<ViewerRelation>;

export interface ProfileStoreOptions {
  /** Whether a viewer is logged in: then profiles load with the viewer's relation (`/api`). */
  isLoggedIn?: () => boolean;
}

export interface ProfileEntry {
  readonly status: ReadonlySignal<LoadStatus>;
  readonly profile: ReadonlySignal<KnownProfile | null>;
  readonly error: ReadonlySignal<SdkError | null>;
}

interface MutableEntry {
  status: Signal<LoadStatus>;
  profile: Signal<KnownProfile | null>;
  error: Signal<SdkError | null>;
  pending: Promise<void> | null;
  /** Whether the pending request asked as the logged-in viewer (with the relation). */
  pendingViewed: boolean;
  /** Bumped per request, so an older answer never replaces a newer one. */
  serial: number;
}

/** The fields a local change (follow, block, hide) sets, which an older server answer must not undo. */
function relationOf(profile: KnownProfile): Partial<KnownProfile> {
  const { isFollowed, blockedStatus, isHidden, isMySubscriber, followersCount } = profile;
  const relation: Partial<KnownProfile> = { followersCount };
  if (isFollowed !== undefined) relation.isFollowed = isFollowed;
  if (blockedStatus !== undefined) relation.blockedStatus = blockedStatus;
  if (isHidden !== undefined) relation.isHidden = isHidden;
  if (isMySubscriber !== undefined) relation.isMySubscriber = isMySubscriber;
  return relation;
}

/**
 * Profiles by username or id, shared by every component of one client: two cards of the
 * same creator make one request and show the same state.
 */
export function createProfileStore(client: FanstageClient, options: ProfileStoreOptions = {}) {
  const api = publicApi(client);
  const social = socialApi(client);
  const entries = new Map<string, MutableEntry>();
  /** Counts local changes (`patch`); per user id, the count at its latest change. */
  let changes = 0;
  const changedAt = new Map<number, number>();
  /** Per user id, how many relation changes are on their way to the server (`changing`). */
  const unsettled = new Map<number, number>();

  function entryFor(key: string): MutableEntry {
    let entry = entries.get(key);
    if (!entry) {
      entry = { status: signal<LoadStatus>('idle'), profile: signal<KnownProfile | null>(null), error: signal<SdkError | null>(null), pending: null, pendingViewed: false, serial: 0 };
      entries.set(key, entry);
    }
    return entry;
  }

  function normalise(idOrUsername: string | number): string {
    return String(idOrUsername).trim().replace(/^@/, '').toLowerCase();
  }

  /** The entry for a profile; starts loading it unless it is loaded or loading already. */
  function get(idOrUsername: string | number): ProfileEntry {
    const key = normalise(idOrUsername);
    const entry = entryFor(key);
    if (entry.status.peek() === 'idle') void load(key);
    return entry;
  }

  /** Files a profile under both of its names: the same profile is reachable by id and by username. */
  function store(profile: KnownProfile): void {
    batch(() => {
      for (const alias of [String(profile.id), profile.username.toLowerCase()]) {
        const entry = entryFor(alias);
        entry.profile.value = profile;
        entry.error.value = null;
        entry.status.value = 'ready';
      }
    });
  }

  /**
   * Keeps profiles that arrived in a list (who-to-follow, search, ...), so the cards that show
   * them render at once instead of asking for each profile again. A relation the viewer changed
   * here is kept over the list's, as `absorb` does: the list may have been read before it.
   */
  function remember(profiles: readonly KnownProfile[]): void {
    for (const profile of profiles) {
      const current = changedAt.has(profile.id) ? peek(profile.id) : null;
      store(current ? { ...profile, ...relationOf(current) } : profile);
    }
  }

  /**
   * Changes a known profile wherever it is filed (by id and by username), e.g. a follow that
   * the server has not confirmed yet. Returns false when no loaded profile has that id.
   */
  function patch(id: number, change: (profile: KnownProfile) => KnownProfile): boolean {
    const current = entries.get(String(id))?.profile.peek();
    if (!current) return false;
    changedAt.set(id, ++changes);
    store(change(current));
    return true;
  }

  /**
   * Marks a relation change (follow, block, hide) as on its way to the server until the returned
   * function is called, once it is stored or refused. Answers that arrive meanwhile, or were
   * asked before it ended, may have been read before the server stored it: they keep the local
   * relation, as an answer asked before the change does.
   */
  function changing(id: number): () => void {
    unsettled.set(id, (unsettled.get(id) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (unsettled.get(id) ?? 1) - 1;
      if (left > 0) unsettled.set(id, left);
      else unsettled.delete(id);
      changedAt.set(id, ++changes);
    };
  }

  /**
   * Takes what a list says about a known profile (a post's author, say). A relation the viewer
   * changed here (follow, block) is newer than any list that may still be on its way, so those
   * fields stay as they are; everything else is taken. Returns false when no loaded profile has
   * that id.
   */
  function absorb(id: number, incoming: Partial<KnownProfile>): boolean {
    const current = entries.get(String(id))?.profile.peek();
    if (!current) return false;
    store(changedAt.has(id) ? { ...current, ...incoming, ...relationOf(current) } : { ...current, ...incoming });
    return true;
  }

  /** The loaded profile with this id, if any. */
  function peek(id: number): KnownProfile | null {
    return entries.get(String(id))?.profile.peek() ?? null;
  }

  /** (Re)loads a profile; concurrent calls share one request. */
  function load(idOrUsername: string | number): Promise<void> {
    const key = normalise(idOrUsername);
    const entry = entryFor(key);
    const viewed = options.isLoggedIn?.() ?? false;
    // A visitor's request still on its way when the viewer logs in lacks the relation: ask again.
    if (entry.pending && (entry.pendingViewed || !viewed)) return entry.pending;
    entry.status.value = 'loading';
    entry.error.value = null;
    const serial = ++entry.serial;
    const changesBefore = changes;
    entry.pendingViewed = viewed;
    const request: Promise<KnownProfile> = viewed ? social.viewedUser(key) : api.user(key);
    const pending = request
      .then(
        (profile) => {
          if (entry.serial !== serial) return;
          // A follow or block made while this answer was on its way is newer than the answer.
          const newer = (changedAt.get(profile.id) ?? 0) > changesBefore || unsettled.has(profile.id);
          const current = newer ? peek(profile.id) : null;
          const fresh = current ? { ...profile, ...relationOf(current) } : profile;
          store(fresh);
          entry.profile.value = fresh;
          entry.status.value = 'ready';
        },
        (error: unknown) => {
          if (entry.serial !== serial) return;
          entry.error.value = asSdkError(error);
          entry.status.value = 'error';
        },
      )
      .finally(() => {
        if (entry.pending === pending) entry.pending = null;
      });
    entry.pending = pending;
    return pending;
  }

  return { get, load, remember, patch, changing, absorb, peek };
}

export type ProfileStore = ReturnType<typeof createProfileStore>;
