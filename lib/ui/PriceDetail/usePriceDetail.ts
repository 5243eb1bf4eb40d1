import { useEffect } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { fanPriceCents, formatPrice, SALT_UNIT } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';
import { exactDollars } from './money';

export interface PriceBreakdown {
  /** The short label fans see on a lock or a button ($3.20, $16). */
  label: string;
  /** Cents the fan pays, the creator earns, and the platform keeps. */
  fanCents: number;
  creatorCents: number;
  feeCents: number;
  fan: string;
  creator: string;
  fee: string;
}

/** What a stored price means for each side (DESIGN "Money": the fan pays it with the salt). */
export function priceBreakdown(cents: number, salt: number, freeLabel = 'free'): PriceBreakdown {
  const fanCents = fanPriceCents(cents, salt);
  const feeCents = Math.max(0, fanCents - cents);
  return {
    label: formatPrice(cents, salt, freeLabel),
    fanCents,
    creatorCents: cents,
    feeCents,
    fan: exactDollars(fanCents),
    creator: exactDollars(cents),
    fee: exactDollars(feeCents),
  };
}

/** The breakdown with the platform's salt from the settings store (loaded on first use). */
export function usePriceDetail(cents: number, salt?: number, freeLabel?: string): PriceBreakdown & { ready: boolean } {
  useSignals();
  const { settings } = useFanstage();
  useEffect(() => {
    if (salt === undefined && settings.status.peek() === 'idle') settings.load().catch(() => undefined);
  }, [settings, salt]);
  const known = salt ?? settings.settings.value?.salt;
  return { ...priceBreakdown(cents, known ?? SALT_UNIT, freeLabel), ready: known !== undefined };
}
