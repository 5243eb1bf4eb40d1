import { useEffect, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { useFanstage } from '../FanstageProvider/context';
import type { Message } from '../shared/errorMessage';
import { isMuted, playSound, whenActivated } from '../sound';
import { alertTab } from './tabAlert';
import { formatMoney } from '../shared/money';

/** A ring every 3 s while the call rings. */
export const RING_EVERY_MS = 3000;

export interface UseIncomingCallOptions {
  /** Told once the viewer accepted, with the call's id (the site opens `/videocall/{id}`). */
  onAccepted?: (callId: string) => void;
  /**
   * While it rings, the tab's title and icon show the call (default true): a page in a
   * background tab is found among the others. False leaves the host page's title and icon alone.
   */
  alertTab?: boolean;
}

export interface IncomingCallState {
  /** Nothing rings. */
  hidden: boolean;
  callId: string | null;
  name: string;
  avatar: string | null;
  initial: string;
  price: string;
  busy: boolean;
  /** Why answering did not work (camera refused ...). */
  alert: Message;
  accept: () => void;
  decline: () => void;
}

/** SPEC §2 incoming-call screen: who calls, what a minute earns, accept or decline, and a ring unless muted. */
export function useIncomingCall({ onAccepted, alertTab: showInTab = true }: UseIncomingCallOptions = {}): IncomingCallState {
  useSignals();
  const { calls, session } = useFanstage();
  const { t } = useTranslation();
  const call = calls.incoming.value;
  const problem = calls.problem.value;
  const [busy, setBusy] = useState(false);
  const mounted = useRef(true);
  const callId = call?.callId ?? null;
  const muted = isMuted(session.account.value);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // A page nobody has clicked since it loaded may not play sound: the ring starts with the first
  // click or key there, and stops with the call however it ends.
  useEffect(() => {
    if (!callId || muted) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const stopWaiting = whenActivated(() => {
      playSound('ring');
      timer = setInterval(() => playSound('ring'), RING_EVERY_MS);
    });
    return () => {
      stopWaiting();
      clearInterval(timer);
    };
  }, [callId, muted]);

  const name = call ? call.peer.displayName.trim() || call.peer.username : '';
  const tabTitle = callId ? t('calls.incoming.tabTitle', { name }) : null;
  useEffect(() => {
    if (!showInTab || tabTitle === null || typeof document === 'undefined') return;
    return alertTab(tabTitle);
  }, [showInTab, tabTitle]);

  return {
    hidden: call === null,
    callId,
    name,
    avatar: call?.peer.avatarUrl ?? null,
    initial: (name[0] ?? '?').toUpperCase(),
    price: call ? (call.earningsPrice > 0 ? t('calls.incoming.price', { price: formatMoney(call.earningsPrice) }) : t('calls.incoming.free')) : '',
    busy,
    alert: problem && problem !== 'offline' ? t(`calls.problem.${problem}`) : problem === 'offline' ? t('calls.problem.offline') : null,
    accept: () => {
      if (busy || !callId) return;
      setBusy(true);
      void calls.accept().then((ok) => {
        if (!mounted.current) return;
        setBusy(false);
        if (ok) onAccepted?.(callId);
      });
    },
    decline: () => calls.decline(),
  };
}
