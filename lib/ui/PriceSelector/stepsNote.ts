import type { TFunction } from 'i18next';
import { formatPrice, priceSteps, SALT_UNIT, type PriceKind } from '../../sdk';

/**
 * Why this selector offers the steps it does (SPEC §9 gives each kind of sale its own list, so
 * a chat message and a call minute never offer the same prices): names the kind and its range,
 * as a fan pays it. A subscription month uses the post-media steps, and says so.
 */
export function priceStepsNote(t: TFunction, kind: PriceKind | 'subscription', salt: number = SALT_UNIT): string {
  const steps = priceSteps[kind === 'subscription' ? 'postMedia' : kind].filter((cents) => cents > 0);
  return t('price.stepsWhy', {
    what: t(`price.kinds.${kind}`),
    from: formatPrice(steps[0] ?? 0, salt),
    to: formatPrice(steps[steps.length - 1] ?? 0, salt),
  });
}
