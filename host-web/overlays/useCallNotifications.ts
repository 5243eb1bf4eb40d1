import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { Fanstage } from '../../lib/sdk';
import { hasBeenActivated } from '../../lib/ui';

/** What the service worker (/sw.js) asks of the site's tabs, and tells them (docs/push.md "Incoming calls"). */
type WorkerMessage = { type: 'fanstage:ring-check' } | { type: 'fanstage:call'; callId: string; answer: 'accept' | 'decline' | null };

/** Why a call from a notification could not be answered here: an `errors.*` key. */
export type CallNotice = 'call-not-found' | 'call-taken' | null;

const NOTICE_MS = 5000;

function workerMessage(data: unknown): WorkerMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as Record<string, unknown>;
  if (message.type === 'fanstage:ring-check') return { type: 'fanstage:ring-check' };
  if (message.type === 'fanstage:call' && typeof message.callId === 'string' && /^[A-Za-z0-9_-]{22,64}$/.test(message.callId)) {
    const answer = message.answer === 'accept' || message.answer === 'decline' ? message.answer : null;
    return { type: 'fanstage:call', callId: message.callId, answer };
  }
  return null;
}

/** Closes the notifications of a call's ring, once it stopped ringing on this page. */
async function closeRingNotifications(callId: string): Promise<void> {
  const registration = await navigator.serviceWorker.getRegistration();
  const open = (await registration?.getNotifications({ tag: `call:${callId}` })) ?? [];
  for (const notification of open) notification.close();
}

/**
 * The site's side of an incoming call's notification: answers the service worker's questions,
 * answers the call its Accept or Decline named (in this tab, which the worker brought forward,
 * or in one it opened with `?call=…&answer=…`), and closes the ring's notification once the
 * call stops ringing here. The server decides: a call over or taken meanwhile is refused, and
 * the person is told (`notice`).
 */
export function useCallNotifications(fanstage: Fanstage): CallNotice {
  const [, navigate] = useLocation();
  const [notice, setNotice] = useState<CallNotice>(null);
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;

  useEffect(() => {
    const { calls } = fanstage;
    let live = true;
    let noticeTimer: ReturnType<typeof setTimeout> | undefined;
    const tell = (next: CallNotice) => {
      clearTimeout(noticeTimer);
      setNotice(next);
      if (next !== null) noticeTimer = setTimeout(() => live && setNotice(null), NOTICE_MS);
    };

    async function answer(callId: string, how: 'accept' | 'decline' | null): Promise<void> {
      const outcome = await calls.ring(callId);
      if (!live) return;
      if (outcome !== 'ringing') {
        tell(outcome === 'taken' ? 'call-taken' : 'call-not-found');
        return;
      }
      if (how === 'decline') calls.decline();
      if (how !== 'accept') return;
      if (await calls.accept()) navigateRef.current(`/videocall/${encodeURIComponent(callId)}`);
      else if (live && calls.error.peek()?.code === 'call-taken') tell('call-taken');
    }

    // A tab opened by the worker to answer: the query says which call, then leaves the address.
    const query = new URLSearchParams(window.location.search);
    const fromQuery = query.get('call');
    if (fromQuery !== null && /^[A-Za-z0-9_-]{22,64}$/.test(fromQuery)) {
      const how = query.get('answer');
      query.delete('call');
      query.delete('answer');
      const rest = query.toString();
      window.history.replaceState(window.history.state, '', `${window.location.pathname}${rest ? `?${rest}` : ''}${window.location.hash}`);
      void answer(fromQuery, how === 'accept' || how === 'decline' ? how : null);
    }

    const container = 'serviceWorker' in navigator ? navigator.serviceWorker : null;
    const onMessage = (event: MessageEvent) => {
      const message = workerMessage(event.data);
      if (message === null) return;
      if (message.type === 'fanstage:ring-check') {
        // This tab rings out loud only when it is in front and was clicked or typed in.
        event.ports[0]?.postMessage({ audible: document.visibilityState === 'visible' && hasBeenActivated() });
        return;
      }
      void answer(message.callId, message.answer);
    };
    container?.addEventListener('message', onMessage);

    // The ring stopped here (answered, declined, over): its notification goes too.
    let ringing: string | null = null;
    const stopWatching = calls.incoming.subscribe((call) => {
      const now = call?.callId ?? null;
      if (ringing !== null && ringing !== now && container) void closeRingNotifications(ringing).catch(() => undefined);
      ringing = now;
    });

    return () => {
      live = false;
      clearTimeout(noticeTimer);
      container?.removeEventListener('message', onMessage);
      stopWatching();
    };
  }, [fanstage]);

  return notice;
}
