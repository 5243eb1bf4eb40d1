import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PartnerStatus } from '../../contract';
import { partnerApi } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';

/**
 * The viewer's place in the partner programme (`GET /api/partner`), read again whenever the
 * server announces `partnerStatusChanged` over the socket (docs/partners.md).
 */
export function usePartnerStatus() {
  const fanstage = useFanstage();
  const api = useMemo(() => partnerApi(fanstage.client), [fanstage]);
  const [status, setStatus] = useState<PartnerStatus | null>(null);
  const [loadState, setLoadState] = useState<'loading' | 'ready' | 'error'>('loading');
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const next = await api.status();
      if (mine === generation.current) {
        setStatus(next);
        setLoadState('ready');
      }
    } catch {
      if (mine === generation.current) setLoadState((previous) => (previous === 'ready' ? previous : 'error'));
    }
  }, [api]);

  useEffect(() => {
    const answers = generation;
    void reload();
    const offEvent = fanstage.socket.on('eventMessage', (message) => {
      if (message.event === 'partnerStatusChanged') void reload();
    });
    const offReconnect = fanstage.socket.on('reconnected', () => void reload());
    return () => {
      // Answers still on their way belong to a screen that is gone.
      answers.current++;
      offEvent();
      offReconnect();
    };
  }, [fanstage, reload]);

  /** Takes a status an action answered with, so the screen does not wait for the socket. */
  const adopt = useCallback((next: PartnerStatus) => {
    generation.current++;
    setStatus(next);
    setLoadState('ready');
  }, []);

  return { api, status, loadState, reload, adopt };
}
