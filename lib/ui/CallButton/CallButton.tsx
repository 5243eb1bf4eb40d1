import { lazy, Suspense, useId } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { Dialog } from '../dialog/Dialog';
import { useCallButton, type CallButtonState, type UseCallButtonOptions } from './useCallButton';
import styles from './CallButton.module.css';

/** The top-up shows only for a fan short of a minute's credits: fetched when it opens. */
const WalletTopUp = lazy(() => import('../WalletTopUp/WalletTopUp').then((m) => ({ default: m.WalletTopUp })));

export interface CallButtonProps extends UseCallButtonOptions {
  /** Only the camera icon (headers): the price is in its accessible name and tooltip. */
  compact?: boolean;
  className?: string;
}

/** "Call · $1.60/min" (SPEC §2 profile and chat header): rings the creator, or says why the viewer cannot. */
export function CallButton({ className, compact, ...options }: CallButtonProps) {
  const state = useCallButton(options);
  return <CallButtonView {...state} {...(compact ? { compact } : {})} {...(className ? { className } : {})} />;
}

export function CallButtonView(props: CallButtonState & { compact?: boolean; className?: string }) {
  const { t, i18n } = useTranslation();
  const reasonId = useId();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  if (props.hidden) return null;
  return (
    <span className={['fs-root', styles.root, props.className].filter(Boolean).join(' ')} lang={lang}>
      <button
        type="button"
        className={props.compact ? `${styles.button} ${styles.compact}` : styles.button}
        title={props.compact ? props.label : undefined}
        onClick={props.disabled ? undefined : props.call}
        aria-disabled={props.disabled || props.busy || undefined}
        aria-busy={props.busy || undefined}
        aria-describedby={props.reason ? reasonId : undefined}
        aria-label={`${props.label} — ${t('calls.buttonName', { name: props.name })}`}
        data-testid="call-button"
      >
        <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path fill="currentColor" d="M4 6a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v3.2l3.4-2.3A1 1 0 0 1 22 7.7v8.6a1 1 0 0 1-1.6.8L17 14.8V18a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2Z" />
        </svg>
        <span className={props.compact ? styles.visuallyHidden : undefined}>{props.label}</span>
      </button>
      {props.reason ? (
        <span id={reasonId} className={props.compact ? styles.visuallyHidden : styles.reason}>
          {props.reason}
        </span>
      ) : null}
      {props.alert ? (
        <span className={styles.alert} role="alert">
          {props.alert}
        </span>
      ) : null}
      {props.topUpOpen ? (
        <Dialog title={t('calls.topUpTitle')} closeLabel={t('calls.close')} size="large" onClose={props.closeTopUp} lang={lang}>
          <p className={styles.text}>{props.topUpText}</p>
          <Suspense fallback={null}>
            <WalletTopUp mode={props.paymentMode} headingLevel={3} hideTitle onPaid={props.paid} />
          </Suspense>
        </Dialog>
      ) : null}
    </span>
  );
}
