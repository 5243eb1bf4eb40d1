import { effect } from '@preact/signals-core';
import type { GiftResult, UnlockResult } from '../contract';
import type { RelationsStore } from './stores/relations';
import type { WalletStore } from './stores/wallet';
import type { SubscriptionsStore } from './stores/subscriptions';
import type { ChatStore } from './stores/chat';
import type { CallsStore } from './stores/calls';
import type { SessionStore } from './stores/session';

/**
 * What a page may want to react to, by name, with what it tells (`detail`). The same names are
 * the DOM events the custom elements dispatch (docs/embedding.md, "Events").
 */
export interface ActivityDetails {
  /** The viewer now follows `userId`. */
  follow: { userId: number };
  unfollow: { userId: number };
  /** A tip went through: the gift, to whom, and the fan's balance after it. */
  tip: { userId: number; giftId: number; balance: number };
  /** A priced media was unlocked. */
  unlock: { mediaId: number; price: number; balance: number };
  /** A subscription to an offer started, paid with credits. */
  subscribe: { offerId: number; creatorId: number; subscriptionId: number };
  /** A chat message was handed to the connection (`msgId` is this page's id of it). */
  messagesent: { userId: number; msgId: string };
  /** A call became live. */
  callstart: { callId: string; userId: number };
  /** A call ended, with why and the minutes begun. */
  callend: { callId: string; userId: number; reason: string | null; minutes: number };
  signin: { userId: number };
  signout: { userId: number | null };
}

export type ActivityType = keyof ActivityDetails;
export type ActivityListener<T extends ActivityType> = (detail: ActivityDetails[T]) => void;

export interface Activity {
  /** Calls `listener` each time it happens on this `Fanstage`; returns the unsubscribe. */
  on<T extends ActivityType>(type: T, listener: ActivityListener<T>): () => void;
  /** Calls `listener` with every activity and its name (the elements dispatch them all). */
  onAny(listener: <T extends ActivityType>(type: T, detail: ActivityDetails[T]) => void): () => void;
}

export interface ActivityEmitter extends Activity {
  emit<T extends ActivityType>(type: T, detail: ActivityDetails[T]): void;
}

export function createActivity(): ActivityEmitter {
  const listeners = new Set<(type: ActivityType, detail: unknown) => void>();
  const subscribe = (listener: (type: ActivityType, detail: unknown) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    on: (type, listener) => subscribe((name, detail) => name === type && (listener as (detail: unknown) => void)(detail)),
    onAny: (listener) => subscribe(listener as (type: ActivityType, detail: unknown) => void),
    emit(type, detail) {
      for (const listener of [...listeners]) {
        try {
          listener(type, detail);
        } catch (error) {
          // A page's listener that throws must not undo what the fan did; report it as uncaught.
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    },
  };
}

/**
 * The stores' methods, wrapped to tell `activity` once the server said yes. Wrapping the object
 * the page (and every component) calls keeps the stores free of it; calls made inside a store
 * (a tip during a call) go through the same objects.
 */
export function reportRelations(store: RelationsStore, activity: ActivityEmitter): RelationsStore {
  const { follow, unfollow } = store;
  return Object.assign(store, {
    follow: (id: number) => follow(id).then(() => activity.emit('follow', { userId: id })),
    unfollow: (id: number) => unfollow(id).then(() => activity.emit('unfollow', { userId: id })),
  });
}

export function reportWallet(store: WalletStore, activity: ActivityEmitter): WalletStore {
  const { tip, unlock } = store;
  return Object.assign(store, {
    tip: (userId: number, giftId: number, options?: { idempotencyKey?: string }): Promise<GiftResult> =>
      tip(userId, giftId, options).then((result) => {
        activity.emit('tip', { userId, giftId, balance: result.gBalance });
        return result;
      }),
    unlock: (media: { mediaId: number; mediaPrice: number }): Promise<UnlockResult> =>
      unlock(media).then((result) => {
        activity.emit('unlock', { mediaId: media.mediaId, price: media.mediaPrice, balance: result.gBalance });
        return result;
      }),
  });
}

export function reportSubscriptions(store: SubscriptionsStore, activity: ActivityEmitter): SubscriptionsStore {
  const { subscribe } = store;
  return Object.assign(store, {
    subscribe: (offerId: number, priceCents?: number) =>
      subscribe(offerId, priceCents).then((subscription) => {
        activity.emit('subscribe', { offerId, creatorId: subscription.offerUserId, subscriptionId: subscription.id });
        return subscription;
      }),
  });
}

export function reportChat(store: ChatStore, activity: ActivityEmitter): ChatStore {
  const { thread } = store;
  const reported = new WeakSet<object>();
  return Object.assign(store, {
    thread(userId: number) {
      const open = thread(userId);
      if (!reported.has(open)) {
        reported.add(open);
        const { send } = open;
        Object.assign(open, {
          send: (draft: Parameters<typeof send>[0]) => {
            const result = send(draft);
            if (result.ok) activity.emit('messagesent', { userId, msgId: result.msgId });
            return result;
          },
        });
      }
      return open;
    },
  });
}

/** Calls start and end by the server's word, wherever they were started: read from the call's phase. */
export function reportCalls(store: CallsStore, activity: ActivityEmitter): () => void {
  let live: string | null = null;
  let ended: string | null = null;
  return effect(() => {
    const call = store.current.value;
    if (!call) return;
    if (call.phase === 'live' && live !== call.callId) {
      live = call.callId;
      activity.emit('callstart', { callId: call.callId, userId: call.peer.id });
    }
    if (call.phase === 'ended' && ended !== call.callId) {
      ended = call.callId;
      activity.emit('callend', { callId: call.callId, userId: call.peer.id, reason: call.endReason, minutes: call.totals?.minutes ?? 0 });
    }
  });
}

export function reportSession(session: SessionStore, activity: ActivityEmitter): () => void {
  let userId = session.userId.peek();
  return effect(() => {
    const now = session.userId.value;
    if (now === userId) return;
    const before = userId;
    userId = now;
    if (before !== null) activity.emit('signout', { userId: before });
    if (now !== null) activity.emit('signin', { userId: now });
  });
}
