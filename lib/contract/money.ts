/**
 * Credits and cents as people read them, in every language and on every page of the platform
 * (the site, the widgets and the card page): one credit is one cent, so 1250 reads `$12.50`,
 * with the dollar sign and the decimal point as the product's notation (see formatPrice in
 * lib/sdk/rules/price.ts for prices, which round whole dollars from $10 up).
 */
export function formatMoney(cents: number): string {
  const value = Number.isFinite(cents) ? Math.trunc(cents) : 0;
  const sign = value < 0 ? '−' : '';
  const abs = Math.abs(value);
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
