/**
 * Cents to the product's price notation with both decimals, for breakdowns that must add up
 * to the cent (fan pays = creator earns + fee). Short price labels use `formatPrice`.
 */
export function exactDollars(cents: number): string {
  const value = Number.isSafeInteger(cents) ? cents : 0;
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
