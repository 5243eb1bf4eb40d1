import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { useIncomingCall, type IncomingCallState, type UseIncomingCallOptions } from './useIncomingCall';
import styles from './IncomingCall.module.css';

export interface IncomingCallProps extends UseIncomingCallOptions {
  className?: string;
}

/**
 * The incoming-call screen (SPEC §2 overlays): shown over the page while someone rings the
 * viewer. Mount it once where the viewer is signed in; it renders nothing while nothing rings.
 */
export function IncomingCall({ className, ...options }: IncomingCallProps) {
  const state = useIncomingCall(options);
  return <IncomingCallView {...state} {...(className ? { className } : {})} />;
}

export function IncomingCallView(props: IncomingCallState & { className?: string }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const priceId = useId();
  const acceptButton = useRef<HTMLButtonElement>(null);
  const previous = useRef<Element | null>(null);

  useEffect(() => {
    if (props.hidden) return;
    // Whatever the person was doing, the call is what needs an answer now; focus returns after.
    previous.current = document.activeElement;
    acceptButton.current?.focus();
    return () => {
      const back = previous.current as HTMLElement | null;
      if (back && typeof back.focus === 'function' && back.isConnected) back.focus();
    };
  }, [props.hidden, props.callId]);

  if (props.hidden) return null;
  return (
    <div className={['fs-root', styles.root, props.className].filter(Boolean).join(' ')} lang={i18n.resolvedLanguage ?? i18n.language}>
      <div
        className={styles.panel}
        role="alertdialog"
        aria-modal="false"
        aria-labelledby={titleId}
        aria-describedby={priceId}
        data-testid="incoming-call"
        onKeyDown={(event) => {
          if (event.key === 'Escape') props.decline();
        }}
      >
        <p className={styles.label}>{t('calls.incoming.label')}</p>
        {props.avatar ? (
          <img className={styles.avatar} src={props.avatar} alt="" width={96} height={96} />
        ) : (
          <span className={styles.avatar} aria-hidden="true">
            {props.initial}
          </span>
        )}
        <h2 id={titleId} className={styles.title}>
          {t('calls.incoming.title', { name: props.name })}
        </h2>
        <p id={priceId} className={styles.price}>
          {props.price}
        </p>
        {props.alert ? (
          <p className={styles.alert} role="alert">
            {props.alert}
          </p>
        ) : null}
        <div className={styles.buttons}>
          <button type="button" className={styles.decline} onClick={props.decline}>
            {t('calls.incoming.decline')}
          </button>
          <button ref={acceptButton} type="button" className={styles.accept} onClick={props.accept} aria-busy={props.busy || undefined} data-testid="incoming-accept">
            {t('calls.incoming.accept')}
          </button>
        </div>
      </div>
    </div>
  );
}
