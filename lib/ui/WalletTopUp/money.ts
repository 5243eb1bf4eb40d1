/**
 * Credits and cents as people read them. One credit is one cent, so a wallet of 1250 credits
 * reads `$12.50`. The dollar sign and the decimal point are the product's notation in every
 * language (see formatPrice in lib/sdk/rules/price.ts).
 */
export function formatMoney(cents: number): string {
  const value = Number.isFinite(cents) ? Math.trunc(cents) : 0;
  const sign = value < 0 ? '−' : '';
  const abs = Math.abs(value);
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A saved card as its owner recognises it: `Visa •••• 4242`. */
export function cardLabel(card: { cardId: string; brand: string; last4: string }): string {
  return card.cardId || `${card.brand} •••• ${card.last4}`;
}
