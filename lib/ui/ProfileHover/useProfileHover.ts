import { useCallback, useEffect, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { BlockedStatus } from '../../contract/constants';
import { useFanstage } from '../FanstageProvider/context';

/** SPEC §2 quick profile hover: open after 500 ms on the name or picture, close 250 ms after leaving. */
export const PROFILE_HOVER_OPEN_MS = 500;
export const PROFILE_HOVER_CLOSE_MS = 250;

export interface UseProfileHoverOptions {
  userId: number;
  /** Off: the card never opens (phones and tablets, quick search). */
  enabled?: boolean;
  openDelay?: number;
  closeDelay?: number;
}

export interface ProfileHoverState {
  open: boolean;
  /** Whether the card may open at all for this person: never for oneself or a blocked user. */
  available: boolean;
  /** Pointer or focus came onto the trigger or the card: opens after the delay, keeps an open one. */
  enter: () => void;
  /** Pointer or focus left them: closes after the delay unless it comes back. */
  leave: () => void;
  /** Closes at once (Escape). */
  close: () => void;
}

/**
 * The timings of the quick profile hover. One timer at a time: entering cancels a pending close,
 * leaving cancels a pending open, so moving from the name onto the card keeps it open.
 */
export function useProfileHover({ userId, enabled = true, openDelay = PROFILE_HOVER_OPEN_MS, closeDelay = PROFILE_HOVER_CLOSE_MS }: UseProfileHoverOptions): ProfileHoverState {
  useSignals();
  const fanstage = useFanstage();
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const viewerId = fanstage.session.userId.value;
  // Only where it may open: `get` would start loading a profile nobody has asked for yet.
  const blocked = enabled ? fanstage.profiles.get(userId).profile.value?.blockedStatus : undefined;
  const available = enabled && viewerId !== userId && (blocked === undefined || blocked === BlockedStatus.none);

  const clear = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => clear, []);
  useEffect(() => {
    if (!available) {
      clear();
      setOpen(false);
    }
  }, [available]);

  const enter = useCallback(() => {
    clear();
    if (!available || open) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      setOpen(true);
    }, openDelay);
  }, [available, open, openDelay]);

  const leave = useCallback(() => {
    clear();
    if (!open) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      setOpen(false);
    }, closeDelay);
  }, [open, closeDelay]);

  const close = useCallback(() => {
    clear();
    setOpen(false);
  }, []);

  return { open: open && available, available, enter, leave, close };
}
