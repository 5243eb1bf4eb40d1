import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { useModalFocus } from '../dialog/useModalFocus';
import styles from './moneyDialog.module.css';

export interface MoneyDialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** An alert dialog asks for a decision (the adult-content agreement). */
  role?: 'dialog' | 'alertdialog';
  /** Where focus goes first; the first control otherwise. */
  initialFocus?: string;
  className?: string;
}

/**
 * The modal frame of the money dialogs: titled, focus moved in and kept in, Escape and the
 * backdrop close it, focus goes back to the opener. It renders in place (inside a widget's
 * shadow root too), so the widget's styles stay with it.
 */
export function MoneyDialog({ title, onClose, children, role = 'dialog', initialFocus, className }: MoneyDialogProps) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  function firstControl(): HTMLElement | null {
    const wanted = initialFocus ? panel.current?.querySelector<HTMLElement>(initialFocus) : null;
    return wanted ?? panel.current?.querySelector<HTMLElement>('[data-autofocus], input:not(:disabled), button:not(:disabled):not([data-close]), a[href]') ?? null;
  }
  const onKeyDown = useModalFocus(panel, onClose, firstControl);

  // The content changes inside (loaded, a step done, the button pressed gone): while focus rests
  // on the panel itself or was dropped to the page, it moves on to the first control.
  useEffect(() => {
    const root = panel.current?.getRootNode() as Document | ShadowRoot | undefined;
    const active = root?.activeElement ?? null;
    const dropped = active === null || active === panel.current || (typeof document !== 'undefined' && active === document.body);
    if (dropped) firstControl()?.focus();
  });

  return (
    <div className={`fs-root ${styles.backdrop}`} lang={i18n.resolvedLanguage ?? i18n.language} onMouseDown={(event) => event.target === event.currentTarget && close.current()}>
      <div ref={panel} className={[styles.panel, className].filter(Boolean).join(' ')} role={role} aria-modal="true" aria-labelledby={titleId} tabIndex={-1} onKeyDown={onKeyDown}>
        <div className={styles.head}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          <button type="button" className={styles.close} data-close aria-label={t('priceDetail.close')} title={t('priceDetail.close')} onClick={() => close.current()}>
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" d="M6 6l12 12M18 6L6 18" />
            </svg>
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
