/**
 * Prices (SPEC §9). Creators' prices are stored in integer cents; a fan pays
 * `stored × salt / 10000`, where `salt` (from /papi/settings) is the platform's multiplier
 * (10000 = ×1, the difference is the platform's fee).
 *
 * The server charges with `fanPriceCents` and the UI shows `formatPrice`, which is computed
 * from the same integer, so what a fan reads is what a fan pays. Nothing here touches the
 * browser, so the server imports these functions as they are.
 */

/** The multiplier that leaves a price unchanged. */
export const SALT_UNIT = 10_000;

function assertCents(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    // Money is never fractional or negative; a wrong value must surface, not be displayed.
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
}

/**
 * The integer cents a fan pays for a stored price. Rounds half up to the nearest cent, in
 * integer arithmetic (no floating-point drift), and never turns a priced item free: a
 * positive price costs at least one cent whatever the salt.
 */
export function fanPriceCents(cents: number, salt: number): number {
  assertCents(cents, 'cents');
  if (!Number.isSafeInteger(salt) || salt < 1) throw new RangeError(`salt must be a positive integer, got ${salt}`);
  if (cents === 0) return 0;
  const product = cents * salt;
  // Beyond 2^53 the product is no longer exact; use BigInt only then, so the common path stays cheap.
  const rounded = Number.isSafeInteger(product)
    ? Math.floor((product + SALT_UNIT / 2) / SALT_UNIT)
    : Number((BigInt(cents) * BigInt(salt) + BigInt(SALT_UNIT / 2)) / BigInt(SALT_UNIT));
  return Math.max(1, rounded);
}

/**
 * A stored price as a fan sees it: `freeLabel` at zero, whole dollars from $10 up ($12),
 * two decimals below ($3.20). Whole dollars round half up from the cents the fan pays
 * ($12.50 → $13), the same rounding as the cents themselves. The dollar sign and the
 * decimal point are the product's price notation in every language.
 */
export function formatPrice(cents: number, salt: number, freeLabel = 'free'): string {
  const paid = fanPriceCents(cents, salt);
  if (paid === 0) return freeLabel;
  if (paid >= 1000) return `$${Math.floor((paid + 50) / 100)}`;
  return `$${Math.floor(paid / 100)}.${String(paid % 100).padStart(2, '0')}`;
}

export type PriceKind = 'chatMessage' | 'chatMedia' | 'postMedia' | 'callMinute';

/**
 * The prices a creator may choose, per kind, in stored cents (SPEC §9 "price steps";
 * the spec calls them credits, and one credit is one stored cent). 0 means free.
 */
export const priceSteps: { readonly [K in PriceKind]: readonly number[] } = {
  chatMessage: [0, 13, 16, 24, 32, 48, 64, 95, 128],
  chatMedia: [0, 32, 48, 64, 95, 128, 160, 192, 320, 640, 1600, 3200],
  postMedia: [0, 32, 48, 64, 95, 128, 160, 192, 320, 640, 1280, 1600, 1920],
  callMinute: [0, 32, 48, 64, 95, 128, 160, 320, 640, 955, 1280],
};

export function isPriceStep(kind: PriceKind, value: number): boolean {
  return priceSteps[kind].includes(value);
}

/**
 * SPEC §5: "price 6 maps to 16". Our reading: 6 is a chat-message price from an earlier
 * step list that is no longer offered, and creators who still have it keep a paid price
 * (16) rather than being snapped to the nearest step, which would be 0 — free messages.
 * Only chat messages have a 16 step, so the mapping applies to them alone.
 */
export const legacyPriceMap: { readonly [K in PriceKind]?: Readonly<Record<number, number>> } = {
  chatMessage: { 6: 16 },
};

/**
 * The step a price selector shows for a stored price: the legacy mapping first, then the
 * nearest step. A tie goes to the higher step, so a creator's price is never silently
 * lowered (and never turned free) by opening the selector.
 */
export function nearestPriceStep(kind: PriceKind, value: number): number {
  const mapped = legacyPriceMap[kind]?.[value];
  if (mapped !== undefined) return mapped;
  const steps = priceSteps[kind];
  let best = steps[0] ?? 0;
  for (const step of steps) {
    if (Math.abs(step - value) <= Math.abs(best - value)) best = step;
  }
  return best;
}

/** The smallest and largest first-month discount a tracking link may carry, in per cent. */
export const DISCOUNT_PERCENT_MIN = 5;
export const DISCOUNT_PERCENT_MAX = 90;

/**
 * The stored price of a first month with `percent` off (a tracking link's discount): rounded
 * half up to the cent, in integers, and never free — what the creator earns of that payment,
 * which the fan pays with the salt as any price.
 */
export function discountedCents(cents: number, percent: number): number {
  assertCents(cents, 'cents');
  if (!Number.isSafeInteger(percent) || percent < 0 || percent > 100) throw new RangeError(`percent must be an integer from 0 to 100, got ${percent}`);
  if (cents === 0) return 0;
  return Math.max(1, Math.floor((cents * (100 - percent) + 50) / 100));
}
