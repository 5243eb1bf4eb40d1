import { useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import '../theme/tokens.css';
import { useModalFocus } from '../dialog/useModalFocus';
import styles from './ShareDialog.module.css';

export interface ModalProps {
  labelledBy: string;
  onClose: () => void;
  children: ReactNode;
  lang?: string;
  className?: string;
}

/**
 * A modal dialog: focus moves in and is kept in, Escape and the backdrop close it, and focus
 * returns where it was. Rendered next to the opener's root (inside a widget's shadow root too),
 * since a portal to `document.body` would leave the widget's styles behind.
 */
export function Modal({ labelledBy, onClose, children, lang, className }: ModalProps) {
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  const onKeyDown = useModalFocus(panel, onClose);

  const dialog = (
    <div className={`fs-root ${styles.backdrop}`} lang={lang} onMouseDown={(event) => event.target === event.currentTarget && close.current()}>
      <div ref={panel} className={[styles.panel, className].filter(Boolean).join(' ')} role="dialog" aria-modal="true" aria-labelledby={labelledBy} tabIndex={-1} onKeyDown={onKeyDown}>
        {children}
      </div>
    </div>
  );
  return dialog;
}

/** The same dialog in `document.body`, for screens outside any widget. */
export function BodyModal(props: ModalProps) {
  return typeof document === 'undefined' ? null : createPortal(<Modal {...props} />, document.body);
}
