import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { useFanstage } from '../FanstageProvider/context';

/** SPEC §8: trying-to-reconnect is a warning of 3.5 s, from the second attempt on. */
export const RECONNECT_WARNING_MS = 3500;

export interface ChatConnectionState {
  /** Whether messages can go out now. */
  open: boolean;
  /** A warning to show (reconnecting, or live updates given up), else null. */
  text: string | null;
  /** The socket gave up: a button may try again. */
  failed: boolean;
  retry: () => void;
}

/**
 * The websocket as a chat needs it: connected while a logged-in person looks at a chat (the
 * site connects at login already; a partner app's chat connects here), and what to tell them
 * while it is down.
 */
export function useChatConnection({ connect = true }: { connect?: boolean } = {}): ChatConnectionState {
  useSignals();
  const { socket, session } = useFanstage();
  const { t } = useTranslation();
  const loggedIn = session.isLoggedIn.value;
  const state = socket.connectedState.value;
  const attempts = socket.attempts.value;
  const trying = socket.tryingToReconnect.value;
  // Waiting for the server has no further attempts to flash the warning for: it stays up.
  const waiting = socket.waitingForServer.value;
  const [warning, setWarning] = useState(false);

  useEffect(() => {
    if (!connect || !loggedIn) return;
    const now = socket.connectedState.peek();
    if (now === 'idle' || now === 'closed') socket.connect();
  }, [connect, loggedIn, socket]);

  // Each further attempt shows the warning again for its 3.5 s.
  useEffect(() => {
    if (!trying) {
      setWarning(false);
      return;
    }
    setWarning(true);
    const timer = setTimeout(() => setWarning(false), RECONNECT_WARNING_MS);
    return () => clearTimeout(timer);
  }, [trying, attempts]);

  const failed = loggedIn && state === 'failed';
  return {
    open: state === 'open',
    text: failed ? t('realtime.failed') : warning || waiting ? t('realtime.trying-to-reconnect') : null,
    failed,
    retry: () => void socket.connect(),
  };
}
