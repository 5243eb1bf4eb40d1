import { useCallback, useEffect, useRef, type KeyboardEvent, type MouseEvent, type RefObject } from 'react';

export interface ModalDialogProps {
  ref: RefObject<HTMLDialogElement | null>;
  onClose: () => void;
  onClick: (event: MouseEvent<HTMLDialogElement>) => void;
  onKeyDown: (event: KeyboardEvent<HTMLDialogElement>) => void;
}

const focusable = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Drives a native `<dialog>` as a modal: `showModal()` makes the rest of the page inert (so
 * focus stays inside) and closes on Escape. Focus goes back to the control that opened it;
 * browsers do that themselves, this only covers those that leave focus on the body.
 * A click on the backdrop closes too: the dialog has no padding, so a click whose target is
 * the dialog itself landed outside its content. Tab wraps around inside the dialog: the
 * inert page cannot take focus, but without the wrap it would leave for the browser's own UI.
 */
export function useModalDialog(open: boolean, onClosed: () => void): ModalDialogProps {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  const onClose = useCallback(() => {
    onClosed();
    const target = opener.current;
    opener.current = null;
    const focusLost = document.activeElement === null || document.activeElement === document.body;
    if (target?.isConnected && focusLost) target.focus();
  }, [onClosed]);

  const onClick = useCallback((event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === event.currentTarget) event.currentTarget.close();
  }, []);

  const onKeyDown = useCallback((event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab') return;
    const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(focusable)).filter((el) => el.getClientRects().length > 0);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }, []);

  return { ref, onClose, onClick, onKeyDown };
}
