import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { formatPrice, nearestPriceStep, priceSteps, SALT_UNIT, type PriceKind } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';

export interface UsePriceSelectorOptions {
  kind?: PriceKind;
  /** The stored price (cents) it starts from. */
  value: number;
}

/**
 * The price steps of a kind (SPEC §9) as fans will pay them (with the salt), and which one is
 * chosen. The stored price opens on its step (SPEC §5: legacy 6 → 16; otherwise the nearest).
 */
export function usePriceSelector({ kind = 'postMedia', value }: UsePriceSelectorOptions) {
  useSignals();
  const { settings } = useFanstage();
  const { t } = useTranslation();
  const initial = nearestPriceStep(kind, value);
  const [selected, setSelected] = useState(initial);
  useEffect(() => {
    setSelected(nearestPriceStep(kind, value));
  }, [kind, value]);
  useEffect(() => {
    if (settings.status.peek() === 'idle') settings.load().catch(() => undefined);
  }, [settings]);
  const salt = settings.settings.value?.salt ?? SALT_UNIT;
  const options = priceSteps[kind].map((cents) => ({ cents, label: cents === 0 ? t('posts.price.free') : formatPrice(cents, salt) }));
  return { options, selected, setSelected, changed: selected !== initial, initial };
}
