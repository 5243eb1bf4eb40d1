import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { FirstEarningsPopup, formatMoney, PayoutRequest, useFanstage } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import { LoginNeeded } from './Settings';
import { TransactionHistory } from './TransactionHistory';
import styles from './Money.module.css';

/**
 * `/settings/earnings` (login): what the creator has earned, the earnings lines (30 a page),
 * a payout request to the kept destination (PayPal e-mail or a saved card) with the minimum
 * shown first, the payout requests with where each went and its state, and the first-earnings popup.
 * Opening it acknowledges the new earnings, which clears the Timeline badge (SPEC §9).
 */
export default function SettingsEarnings() {
  const { loggedIn } = useSite();
  return <AfterSessionCheck>{loggedIn ? <Earnings /> : <LoginNeeded />}</AfterSessionCheck>;
}

function Earnings() {
  useSignals();
  const { t, i18n } = useTranslation();
  const { wallet, earnings } = useFanstage();
  usePageTitle(t('siteMoney.earnings.title'));
  const balance = wallet.balance.value;
  const unacked = earnings.unacked.value;

  useEffect(() => {
    wallet.refresh().catch(() => undefined);
    void earnings.lines.reload().catch(() => undefined);
    earnings.loadPayouts().catch(() => undefined);
  }, [wallet, earnings]);

  // Seen here: the badge on the Timeline tab clears.
  useEffect(() => {
    if (unacked > 0) earnings.ack().catch(() => undefined);
  }, [unacked, earnings]);

  const payouts = earnings.payouts.value ?? [];
  const date = (ms: number) => new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium' }).format(new Date(ms));

  return (
    <section className={styles.screen} aria-labelledby="earnings-title">
      <h1 id="earnings-title" className={styles.title}>
        {t('siteMoney.earnings.title')}
      </h1>
      <div className={styles.card}>
        {balance ? (
          <dl className={styles.facts}>
            <dt>{t('siteMoney.earnings.available')}</dt>
            <dd data-testid="earnings-available">{formatMoney(earnings.cBalance.value)}</dd>
            <dt>{t('siteMoney.earnings.requested')}</dt>
            <dd data-testid="earnings-requested">{formatMoney(earnings.cPayout.value)}</dd>
          </dl>
        ) : wallet.balanceStatus.value === 'error' ? (
          <p role="alert" className={styles.warning}>
            {t('errors.couldnt-get-info-from-server')}
          </p>
        ) : (
          <p role="status">{t('app.loading')}</p>
        )}
      </div>

      {balance ? <PayoutRequest /> : null}

      <section className={styles.card} aria-labelledby="payouts-title">
        <h2 id="payouts-title" className={styles.subtitle}>
          {t('siteMoney.earnings.payouts')}
        </h2>
        {payouts.length === 0 ? <p className={styles.muted}>{t('siteMoney.earnings.noPayouts')}</p> : null}
        <ul className={styles.list} data-testid="payouts">
          {payouts.map((payout) => (
            <li key={payout.id} className={styles.row}>
              <span className={styles.rowMain}>
                <span>
                  {t(`earnings.methods.${payout.method}`)}
                  {payout.destination ? ` ${t('creatorTools.payout.to', { destination: payout.destination })}` : ''}
                </span>
                <span className={styles.muted}>
                  {date(payout.ts)} · {t(`siteMoney.earnings.payoutStatus.${payout.status}`)}
                </span>
              </span>
              <span className={styles.minus}>{formatMoney(payout.amount)}</span>
            </li>
          ))}
        </ul>
      </section>

      <TransactionHistory id="earnings-lines" title={t('siteMoney.earnings.lines')} empty={t('siteMoney.earnings.noLines')} list={earnings.lines} testId="earnings-lines" />
      <FirstEarningsPopup />
    </section>
  );
}
