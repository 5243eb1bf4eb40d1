import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';

const focusableSelector = 'button:not(:disabled), a[href], input:not(:disabled), select:not(:disabled), textarea, [tabindex]:not([tabindex="-1"])';

/**
 * The keyboard behaviour every modal dialog shares: focus moves into the panel when it opens
 * (to what `first()` picks, else the panel; without `first`, to the first control), Tab and Shift+Tab stay inside, Escape closes, and focus
 * returns to where it was when the dialog goes. Works inside a widget's shadow root too.
 * Returns the panel's keydown handler.
 */
export function useModalFocus(panel: RefObject<HTMLElement | null>, onClose: () => void, first?: () => HTMLElement | null | undefined) {
  const close = useRef(onClose);
  close.current = onClose;
  const pickFirst = useRef(first);
  pickFirst.current = first;

  useEffect(() => {
    const root = panel.current?.getRootNode() as Document | ShadowRoot | undefined;
    const previous = root?.activeElement as HTMLElement | null | undefined;
    // With a picker, a dialog whose first control is not there yet holds focus on the panel itself.
    const target = pickFirst.current ? pickFirst.current() : panel.current?.querySelector<HTMLElement>(focusableSelector);
    (target ?? panel.current)?.focus();
    return () => previous?.focus?.();
  }, [panel]);

  return function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close.current();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const focusable = Array.from(panel.current.querySelectorAll<HTMLElement>(focusableSelector));
    const firstControl = focusable[0];
    const last = focusable[focusable.length - 1];
    const active = (panel.current.getRootNode() as Document | ShadowRoot).activeElement;
    if (event.shiftKey && active === firstControl) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      firstControl?.focus();
    }
  };
}
