import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { useEarningsWidget, type EarningsWidgetState } from './useEarningsWidget';
import styles from './EarningsWidget.module.css';

export interface EarningsWidgetProps {
  className?: string;
  /** Where the earnings' detail lives (the site's settings); the amount links there when given. */
  href?: string;
}

/** The creator's earnings in dollars, highlighting a rise for 5 s (SPEC §4, §6 partners). */
export function EarningsWidget(props: EarningsWidgetProps) {
  return <EarningsWidgetView {...useEarningsWidget()} {...props} />;
}

export function EarningsWidgetView(props: EarningsWidgetState & EarningsWidgetProps) {
  const { t, i18n } = useTranslation();
  const labelId = useId();
  if (props.hidden) return null;
  const amount = props.amount ?? '';
  return (
    <section
      className={['fs-root', styles.root, props.rise ? styles.rising : null, props.className].filter(Boolean).join(' ')}
      lang={i18n.resolvedLanguage ?? i18n.language}
      aria-labelledby={labelId}
      data-rising={props.rise ? 'true' : undefined}
    >
      <h2 id={labelId} className={styles.label}>
        {t('earnings.amount')}
      </h2>
      {props.amount === null ? (
        <p className={styles.muted}>{props.failed ? t('errors.couldnt-get-info-from-server') : t('earnings.loading')}</p>
      ) : props.href ? (
        <a className={styles.amount} href={props.href}>
          {amount}
        </a>
      ) : (
        <p className={styles.amount}>{amount}</p>
      )}
      <p className={styles.rise} role="status">
        {props.rise ? t('earnings.rise', { amount: props.rise }) : null}
      </p>
      {props.payout ? <p className={styles.muted}>{t('earnings.payoutPending', { amount: props.payout })}</p> : null}
    </section>
  );
}
