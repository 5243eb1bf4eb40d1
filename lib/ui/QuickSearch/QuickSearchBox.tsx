import type { FocusEvent, InputHTMLAttributes, ReactNode, Ref } from 'react';
import '../theme/tokens.css';
import styles from './QuickSearch.module.css';

export interface QuickSearchBoxProps {
  ids: { input: string; hint: string };
  labels: { input: string; placeholder: string; hint: string; clear: string };
  /** The text box's own attributes and handlers (value, onChange, onKeyDown, ref…). */
  input: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };
  /** Shows the clear button; it is left out while the box is empty. */
  onClear?: (() => void) | undefined;
  rootRef?: Ref<HTMLDivElement>;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
  className?: string | undefined;
  /** The results, under the box. */
  children?: ReactNode;
}

/**
 * The quick search's `search` landmark and its box (the label, the icon, the text box, the
 * clear button and the hint), as {@link QuickSearchView} draws it around its results. On its
 * own it is the box before the results' code is in: the same element, the same size.
 */
export function QuickSearchBox({ ids, labels, input, onClear, rootRef, onBlur, className, children }: QuickSearchBoxProps) {
  return (
    <div ref={rootRef} role="search" aria-label={labels.input} className={['fs-root', styles.root, className].filter(Boolean).join(' ')} onBlur={onBlur}>
      <label htmlFor={ids.input} className={styles.visuallyHidden}>
        {labels.input}
      </label>
      <div className={styles.box}>
        <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M16 16l4.5 4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <input
          {...input}
          id={ids.input}
          className={styles.input}
          type="search"
          autoComplete="off"
          enterKeyHint="search"
          maxLength={100}
          placeholder={labels.placeholder}
          aria-describedby={ids.hint}
        />
        {onClear ? (
          <button type="button" className={styles.clear} aria-label={labels.clear} title={labels.clear} onClick={onClear}>
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        ) : null}
      </div>
      <span id={ids.hint} className={styles.visuallyHidden}>
        {labels.hint}
      </span>
      {children}
    </div>
  );
}
