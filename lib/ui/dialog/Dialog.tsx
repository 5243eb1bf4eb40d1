import { useEffect, useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import styles from './Dialog.module.css';

/**
 * `sheet`: a slide-up from the bottom edge on a phone (below 870 px), at most ~85 % of the screen
 * tall with its content scrolling under the title (lists of people); from 870 px up, a `small` dialog.
 */
export type DialogSize = 'small' | 'medium' | 'large' | 'full' | 'drawer' | 'sheet';

export interface DialogProps {
  /** Whether it shows; a dialog mounted only while needed leaves it at the default. */
  open?: boolean;
  /** The dialog's accessible name, shown as its heading. */
  title: ReactNode;
  /** The heading is read but not shown (full-screen media, a drawer with its own brand). */
  titleHidden?: boolean;
  headingLevel?: 2 | 3;
  /** A line under the title; the dialog's accessible description. */
  description?: ReactNode;
  /** A round badge above a centred title: the site's prompts. */
  icon?: ReactNode;
  /** A confirmation or an answer the page waits for: role `alertdialog`. */
  alert?: boolean;
  size?: DialogSize;
  /** The close button's name; "Close" in the reader's language otherwise. */
  closeLabel?: string;
  /** Without the close button in the head (the content has its own way out). */
  closeButton?: boolean;
  /** False: Escape, the backdrop and the browser's own close request leave it open (a gate). */
  dismissible?: boolean;
  /** Escape, the backdrop, the close button. The owner decides: unmount it or pass `open={false}`. */
  onClose: () => void;
  /** Where focus goes first: a selector inside, or `dialog` for the dialog itself; else the first control other than Close. */
  initialFocus?: string;
  className?: string;
  bodyClassName?: string;
  lang?: string;
  children?: ReactNode;
  /** Keys of the content's own (arrows in a viewer); runs first, and a prevented key is left alone. */
  onKeyDown?: (event: KeyboardEvent<HTMLDialogElement>) => void;
  'data-testid'?: string;
}

/** Engines without `showModal` (older browsers, jsdom) get the open attribute and a fixed box. */
const nativeModal = typeof HTMLDialogElement !== 'undefined' && typeof HTMLDialogElement.prototype.showModal === 'function';

const focusableSelector = 'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';
/**
 * Where focus goes first, in this order: a marked control, else the first control other than Close.
 * With none yet (still loading), the dialog itself holds focus until the content arrives.
 */
const firstSelectors = ['[data-autofocus], [autofocus]', 'input:not(:disabled), select:not(:disabled), textarea:not(:disabled), button:not(:disabled):not([data-close]), a[href]'];

/** The focused element, looked for through shadow roots (a widget's focus is its host's in the document). */
function deepActive(root: Document | ShadowRoot): HTMLElement | null {
  let active = root.activeElement as HTMLElement | null;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement as HTMLElement;
  return active;
}

/**
 * The one modal of the library and the site: a native `<dialog>` opened with `showModal()`, so the
 * browser gives real modality (the top layer above every stacking context, the rest of the page
 * inert, Escape as a close request) in the document and inside a widget's shadow root alike; it
 * renders in place, so a widget's styles stay with it. Focus goes in (to `initialFocus`, else the
 * first control other than Close), Tab wraps inside rather than leaving for the browser's toolbar,
 * and focus returns to the opener when it closes or unmounts.
 * Where `showModal` is missing (old engines, jsdom) it opens with the `open` attribute, fixed over
 * the page, and the same keyboard handling keeps it modal for the keyboard.
 */
export function Dialog(props: DialogProps) {
  const { t, i18n } = useTranslation();
  const { open = true, alert = false, size = 'medium', closeButton = true, dismissible = true, headingLevel = 2 } = props;
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  const dismiss = useRef(dismissible);
  dismiss.current = dismissible;
  const initialFocus = useRef(props.initialFocus);
  initialFocus.current = props.initialFocus;
  // One close request per key press: Escape arrives as a keydown and, in browsers, as `cancel` too.
  const requested = useRef(false);
  const pressedOnBackdrop = useRef(false);
  const titleId = useId();
  const descriptionId = useId();

  function firstControl(): HTMLElement | null {
    const dialog = ref.current;
    if (!dialog) return null;
    if (initialFocus.current === 'dialog') return dialog;
    const wanted = initialFocus.current ? dialog.querySelector<HTMLElement>(initialFocus.current) : null;
    if (wanted) return wanted;
    for (const selector of firstSelectors) {
      const found = dialog.querySelector<HTMLElement>(selector);
      if (found) return found;
    }
    return dialog;
  }

  function requestClose() {
    if (!dismiss.current || requested.current) return;
    requested.current = true;
    // The same key press's second event is ignored; a later press asks again (an owner may refuse while busy).
    setTimeout(() => (requested.current = false), 0);
    onClose.current();
  }

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const root = dialog.getRootNode() as Document | ShadowRoot;
    opener.current = deepActive(root) ?? deepActive(document);
    requested.current = false;
    if (!dialog.open) {
      if (nativeModal && dialog.isConnected) dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    firstControl()?.focus();
    return () => {
      const active = deepActive(root);
      const focusInside = active !== null && dialog.contains(active);
      if (dialog.open) {
        if (typeof dialog.close === 'function') dialog.close();
        else dialog.removeAttribute('open');
      }
      const target = opener.current;
      opener.current = null;
      const lost = focusInside || active === null || active === document.body || deepActive(document) === document.body;
      if (target?.isConnected && lost) target.focus();
    };
  }, [open]);

  // The content changes inside (loaded, a step done, the pressed button gone): while focus rests
  // on the dialog itself or fell to the page, it moves on to the first control.
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open || initialFocus.current === 'dialog') return;
    const active = deepActive(dialog.getRootNode() as Document | ShadowRoot);
    if (active === null || active === dialog || active === document.body) firstControl()?.focus();
  });

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    props.onKeyDown?.(event);
    if (event.defaultPrevented) return;
    if (event.key === 'Escape') {
      // Handled here, for engines without `showModal` too; a nested dialog's Escape stays its own.
      event.preventDefault();
      event.stopPropagation();
      requestClose();
      return;
    }
    if (event.key !== 'Tab') return;
    const dialog = event.currentTarget;
    const all = Array.from(dialog.querySelectorAll<HTMLElement>(focusableSelector));
    // Hidden controls cannot take focus; an engine without layout (jsdom) reports none as shown.
    const shown = all.filter((el) => el.getClientRects().length > 0);
    const items = shown.length > 0 ? shown : all;
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    const active = deepActive(dialog.getRootNode() as Document | ShadowRoot);
    if (event.shiftKey && (active === first || active === dialog)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }

  function onCancel(event: SyntheticEvent<HTMLDialogElement>) {
    // The browser's close request (Escape, a phone's back gesture): the owner closes it.
    event.preventDefault();
    requestClose();
  }

  function onNativeClose(event: SyntheticEvent<HTMLDialogElement>) {
    // Browsers may close a modal themselves after a refused close request; the owner still decides.
    if (!open) return;
    if (!dismiss.current) {
      if (typeof event.currentTarget.showModal === 'function') event.currentTarget.showModal();
      return;
    }
    requestClose();
  }

  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  const classes = ['fs-root', styles.dialog, styles[size], props.icon ? styles.centred : null, nativeModal ? null : styles.fallback, props.className].filter(Boolean).join(' ');
  return (
    <dialog
      ref={ref}
      className={classes}
      // Explicit though a modal <dialog> has it: markup queries and older readers find it by the attribute.
      role={alert ? 'alertdialog' : 'dialog'}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={props.description ? descriptionId : undefined}
      tabIndex={-1}
      lang={props.lang ?? i18n.resolvedLanguage ?? i18n.language}
      data-size={size}
      data-testid={props['data-testid']}
      onKeyDown={onKeyDown}
      onCancel={onCancel}
      onClose={onNativeClose}
      // A click on the dialog element itself landed on its backdrop: the content fills the box.
      onMouseDown={(event) => (pressedOnBackdrop.current = event.target === event.currentTarget)}
      onClick={(event) => {
        if (event.target === event.currentTarget && pressedOnBackdrop.current) requestClose();
        pressedOnBackdrop.current = false;
      }}
    >
      <div className={[styles.body, props.bodyClassName].filter(Boolean).join(' ')}>
        <div className={styles.head}>
          {props.icon ? (
            <div className={styles.icon} aria-hidden="true">
              {props.icon}
            </div>
          ) : null}
          <Heading id={titleId} className={props.titleHidden ? styles.visuallyHidden : styles.title}>
            {props.title}
          </Heading>
          {closeButton && dismissible ? (
            <button type="button" className={styles.close} data-close aria-label={props.closeLabel ?? t('dialog.close')} title={props.closeLabel ?? t('dialog.close')} onClick={() => onClose.current()}>
              <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          ) : null}
        </div>
        {props.description ? (
          <p id={descriptionId} className={styles.description}>
            {props.description}
          </p>
        ) : null}
        {props.children}
      </div>
    </dialog>
  );
}
