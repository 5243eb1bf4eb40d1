/** A path on this site to go back to; anything else (another origin, `//host`) is ignored. */
export function safeReturnPath(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

/**
 * The address a card payment started on this site returns to: the processor sends the payer
 * to `/gopay-return` (with the order's `id` added), which leads back to `from`.
 */
export function gopayReturnUrl(from: string = window.location.pathname + window.location.search): string {
  return `${window.location.origin}/gopay-return?from=${encodeURIComponent(from)}`;
}
