import { useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { formatMoney } from '../shared/money';
import { usePayoutRequest } from './usePayoutRequest';
import styles from '../OfferSettings/creatorTools.module.css';

export interface PayoutRequestProps {
  className?: string;
  headingLevel?: 2 | 3;
}

/** The creator's payout request: the destination (PayPal e-mail or a saved card), the minimum, the amount. */
export function PayoutRequest({ className, headingLevel = 2 }: PayoutRequestProps) {
  const { t, i18n } = useTranslation();
  const state = usePayoutRequest();
  const Heading = `h${headingLevel}` as const;
  const titleId = useId();
  const hintId = useId();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void state.submit();
  }

  return (
    <form
      className={['fs-root', styles.root, styles.card, className].filter(Boolean).join(' ')}
      aria-labelledby={titleId}
      onSubmit={onSubmit}
      noValidate
      lang={i18n.resolvedLanguage ?? i18n.language}
    >
      <Heading id={titleId} className={styles.heading}>
        {t('siteMoney.earnings.payoutTitle')}
      </Heading>
      <p className={styles.muted} data-testid="payout-minimum">
        {state.minimum !== null ? t('creatorTools.payout.minimum', { amount: formatMoney(state.minimum) }) : state.loaded === 'error' ? t('errors.couldnt-get-info-from-server') : t('app.loading')}
      </p>
      <fieldset className={styles.fieldset}>
        <legend>{t('siteMoney.earnings.method')}</legend>
        {state.methods.map((value) => (
          <label key={value} className={styles.choice}>
            <input type="radio" name={`${titleId}-method`} value={value} checked={state.method === value} onChange={() => state.setMethod(value)} />
            {t(`earnings.methods.${value}`)}
          </label>
        ))}
      </fieldset>
      {state.method === 'paypal' ? (
        <label className={styles.field}>
          <span className={styles.fieldLabel}>{t('creatorTools.payout.email')}</span>
          <input className={styles.input} type="email" autoComplete="email" value={state.email} onChange={(event) => state.setEmail(event.target.value)} />
        </label>
      ) : state.cards.length === 0 ? (
        <p className={styles.muted} data-testid="payout-no-card">
          {t('creatorTools.payout.noCard')}
        </p>
      ) : (
        <label className={styles.field}>
          <span className={styles.fieldLabel}>{t('creatorTools.payout.card')}</span>
          <select className={styles.select} value={state.cardId ?? ''} onChange={(event) => state.setCardId(Number(event.target.value))}>
            {state.cards.map((card) => (
              <option key={card.id} value={card.id}>
                {card.cardId}
              </option>
            ))}
          </select>
        </label>
      )}
      <p className={styles.muted}>{t('creatorTools.payout.kept')}</p>
      <label className={styles.field}>
        <span className={styles.fieldLabel}>{t('siteMoney.earnings.amount')}</span>
        <input className={styles.input} inputMode="decimal" value={state.amount} onChange={(event) => state.setAmount(event.target.value)} aria-describedby={hintId} />
      </label>
      <p id={hintId} className={styles.muted}>
        {t('siteMoney.earnings.amountHint', { amount: formatMoney(state.available) })}
      </p>
      {state.message ? (
        <p role={state.message.kind === 'success' ? 'status' : 'alert'} className={state.message.kind === 'success' ? styles.success : styles.error}>
          {state.message.text}
        </p>
      ) : null}
      <div className={styles.actions}>
        <button type="submit" className={styles.primary} disabled={state.busy || state.available <= 0} aria-busy={state.busy || undefined}>
          {t('siteMoney.earnings.requestPayout')}
        </button>
      </div>
    </form>
  );
}
