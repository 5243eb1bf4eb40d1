// One notation for money everywhere, the card page included.
export { formatMoney } from '../../contract/money';

/** A saved card as its owner recognises it: `Visa •••• 4242`. */
export function cardLabel(card: { cardId: string; brand: string; last4: string }): string {
  return card.cardId || `${card.brand} •••• ${card.last4}`;
}
