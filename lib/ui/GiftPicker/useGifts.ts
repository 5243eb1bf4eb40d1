import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import type { Fanstage, Gift } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';

export interface GiftsState {
  gifts: readonly Gift[] | null;
  error: unknown;
  /** The address of a gift's picture, once the settings name the media server. */
  pictureOf: (gift: Gift) => string | null;
}

// One catalogue request per Fanstage object, shared by every picker on the page.
const catalogues = new WeakMap<Fanstage, Promise<Gift[]>>();

function catalogue(fanstage: Fanstage): Promise<Gift[]> {
  let pending = catalogues.get(fanstage);
  if (!pending) {
    pending = fanstage.api.gifts();
    // A failed request is asked again by the next picker.
    pending.catch(() => catalogues.delete(fanstage));
    catalogues.set(fanstage, pending);
  }
  return pending;
}

/** The gift catalogue (`GET /papi/gifts`) with the pictures' addresses. */
export function useGifts(): GiftsState {
  useSignals();
  const fanstage = useFanstage();
  const [gifts, setGifts] = useState<readonly Gift[] | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let live = true;
    void fanstage.settings.load().catch(() => undefined);
    catalogue(fanstage).then(
      (list) => live && setGifts(list),
      (cause: unknown) => live && setError(cause),
    );
    return () => {
      live = false;
    };
  }, [fanstage]);

  const cdn = fanstage.settings.settings.value?.mediaCDN ?? null;
  return {
    gifts,
    error,
    pictureOf: (gift) => (cdn ? `${cdn.replace(/\/+$/, '')}/gifts/${encodeURIComponent(gift.imageName)}` : null),
  };
}
