/**
 * Partners' indicators (SPEC §3 chat event slot types): who is typing, uploading a media or
 * recording audio right now.
 */
import { signal, type ReadonlySignal } from '@preact/signals-core';
import { typingTimings } from '../../rules/chat';
import type { ChatActivity } from './types';

export interface PartnerActivity {
  readonly activity: ReadonlySignal<ReadonlyMap<number, ChatActivity>>;
  /** `userId` is doing `kind` now (null: stopped). */
  set(userId: number, kind: ChatActivity | null): void;
  reset(): void;
}

export function createPartnerActivity(): PartnerActivity {
  const activity = signal<ReadonlyMap<number, ChatActivity>>(new Map());
  const timers = new Map<number, ReturnType<typeof setTimeout>>();

  function set(userId: number, kind: ChatActivity | null): void {
    const timer = timers.get(userId);
    if (timer) clearTimeout(timer);
    timers.delete(userId);
    const map = activity.peek();
    if (kind === null) {
      if (!map.has(userId)) return;
      const next = new Map(map);
      next.delete(userId);
      activity.value = next;
      return;
    }
    if (map.get(userId) !== kind) activity.value = new Map(map).set(userId, kind);
    // A `stoptyping` lost with a dropped connection must not leave the indicator up.
    timers.set(
      userId,
      setTimeout(() => set(userId, null), typingTimings.shownMs),
    );
  }

  return {
    activity,
    set,
    reset() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      activity.value = new Map();
    },
  };
}
