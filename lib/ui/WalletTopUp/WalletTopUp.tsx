import { useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { formatMoney } from '../shared/money';
import { useWalletTopUp, type UseWalletTopUpOptions, type WalletTopUpState } from './useWalletTopUp';
import styles from './WalletTopUp.module.css';

export interface WalletTopUpProps extends UseWalletTopUpOptions {
  className?: string;
  /** Heading level of the title: 2 by default. */
  headingLevel?: 2 | 3;
  /** Hides the title, when a dialog around it has its own. */
  hideTitle?: boolean;
}

/** Buying credits: the balance, the packages, saved cards and a new card (SPEC §7 Payments, §8 messages). */
export function WalletTopUp({ mode, returnUrl, onPaid, needed, ...view }: WalletTopUpProps) {
  const state = useWalletTopUp({ ...(mode ? { mode } : {}), ...(returnUrl ? { returnUrl } : {}), ...(onPaid ? { onPaid } : {}), ...(needed !== undefined ? { needed } : {}) });
  return <WalletTopUpView {...state} {...view} />;
}

export function WalletTopUpView(props: WalletTopUpState & Omit<WalletTopUpProps, keyof UseWalletTopUpOptions>) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const alertId = useId();
  const Heading = `h${props.headingLevel ?? 2}` as 'h2';
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const className = ['fs-root', styles.root, props.className].filter(Boolean).join(' ');

  if (!props.loggedIn) {
    return (
      <section className={className} lang={lang} aria-labelledby={titleId}>
        <Heading id={titleId} className={props.hideTitle ? styles.visuallyHidden : styles.title}>
          {t('wallet.title')}
        </Heading>
        <p className={styles.text}>{t('wallet.signedOut')}</p>
      </section>
    );
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    props.pay();
  }

  const waiting = props.busy && props.progress !== null && props.progress.phase !== 'starting';
  return (
    <section className={className} lang={lang} aria-labelledby={titleId} aria-busy={props.busy || props.loading}>
      <Heading id={titleId} className={props.hideTitle ? styles.visuallyHidden : styles.title}>
        {t('wallet.title')}
      </Heading>
      <p className={styles.balance}>{props.balance !== null ? t('wallet.balanceValue', { amount: props.balance }) : t('wallet.balanceLoading')}</p>
      {props.loading ? (
        <p className={styles.text} role="status">
          {t('wallet.loading')}
        </p>
      ) : (
        <form className={styles.form} onSubmit={submit} noValidate aria-describedby={props.alert ? alertId : undefined}>
          <fieldset className={styles.fieldset} disabled={props.busy}>
            <legend className={styles.legend}>{t('wallet.packages')}</legend>
            {props.packages.length === 0 ? <p className={styles.text}>{t('wallet.noPackages')}</p> : null}
            <div className={styles.packages}>
              {props.packages.map((p) => (
                <label key={p.id} className={styles.package}>
                  <input type="radio" name="package" value={p.id} checked={props.packageId === p.id} onChange={() => props.choosePackage(p.id)} />
                  <span className={styles.credits}>{t('wallet.packageCredits', { amount: formatMoney(p.cValue) })}</span>
                  <span className={styles.price}>{t('wallet.packagePrice', { price: formatMoney(p.gValue) })}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset className={styles.fieldset} disabled={props.busy}>
            <legend className={styles.legend}>{t('wallet.payWith')}</legend>
            <ul className={styles.cards}>
              {props.cards.map((card) => (
                <li key={card.id} className={styles.card}>
                  <label className={styles.choice}>
                    <input type="radio" name="payWith" value={card.id} checked={props.payWith === card.id} onChange={() => props.choosePayWith(card.id)} />
                    <span>{props.cardName(card)}</span>
                  </label>
                  <button type="button" className={styles.remove} onClick={() => props.deleteCard(card)} aria-label={t('wallet.deleteCard', { card: props.cardName(card) })}>
                    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                      <path stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" d="M6 6l12 12M18 6L6 18" />
                    </svg>
                  </button>
                </li>
              ))}
              <li className={styles.card}>
                <label className={styles.choice}>
                  <input type="radio" name="payWith" value="new" checked={props.payWith === 'new'} onChange={() => props.choosePayWith('new')} />
                  <span>{t('wallet.newCard')}</span>
                </label>
              </li>
            </ul>
            {props.payWith === 'new' ? (
              <div className={styles.newCard}>
                {props.processors.length > 1 ? (
                  <label className={styles.field}>
                    <span>{t('wallet.processor')}</span>
                    <select value={props.processor} onChange={(event) => props.chooseProcessor(event.target.value)}>
                      {props.processors.map((p) => (
                        <option key={p.name} value={p.name}>
                          {p.title}
                        </option>
                      ))}
                    </select>
                  </label>
                ) : null}
                {props.canSaveCard ? (
                  <label className={styles.choice}>
                    <input type="checkbox" checked={props.saveCard} onChange={(event) => props.setSaveCard(event.target.checked)} />
                    <span>{t('wallet.saveCard')}</span>
                  </label>
                ) : null}
              </div>
            ) : null}
          </fieldset>
          <button type="submit" className={styles.pay} aria-disabled={props.busy || props.packageId === null || undefined}>
            {props.payLabel}
          </button>
        </form>
      )}
      <div className={styles.messages}>
        <p role="status" className={props.paid ? styles.success : styles.text}>
          {waiting && props.progress?.phase === 'card-page' ? t('wallet.cardPage') : null}
          {waiting && props.progress?.phase === 'processing' ? t('errors.payment_is_processing') : null}
          {props.status}
        </p>
        {waiting && props.progress?.phase === 'blocked' ? (
          <p className={styles.text}>
            {t('wallet.popupBlocked')}{' '}
            <button type="button" className={styles.link} onClick={props.openCardPage}>
              {t('wallet.openCardPage')}
            </button>
          </p>
        ) : null}
        {waiting ? (
          <button type="button" className={styles.secondary} onClick={props.stopWaiting}>
            {t('wallet.stopWaiting')}
          </button>
        ) : null}
        {props.alert ? (
          <p id={alertId} role="alert" className={styles.alert}>
            {props.alert}
          </p>
        ) : null}
      </div>
    </section>
  );
}
