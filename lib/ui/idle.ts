/**
 * Calls back once the browser is idle, after `timeout` milliseconds at most (a second where the
 * browser has no idle callbacks); returns the cancel. For work a page does not need at once:
 * the widgets' runtime, a button's dialog, the site's later parts.
 */
export function whenIdle(callback: () => void, timeout = 4000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(() => callback(), { timeout });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(callback, Math.min(timeout, 1000));
  return () => clearTimeout(id);
}
