import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { isSdkError } from '../../lib/sdk';
import { PayoutMethods, type PayoutMethod } from '../../lib/contract/constants';
import { FirstEarningsPopup, formatMoney, useFanstage } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import { LoginNeeded } from './Settings';
import { TransactionHistory } from './TransactionHistory';
import styles from './Money.module.css';

/**
 * `/settings/earnings` (login): what the creator has earned, the earnings lines (30 a page),
 * a payout request by PayPal or card, the payout requests, and the first-earnings popup.
 * Opening it acknowledges the new earnings, which clears the Timeline badge (SPEC §9).
 */
export default function SettingsEarnings() {
  const { loggedIn } = useSite();
  return <AfterSessionCheck>{loggedIn ? <Earnings /> : <LoginNeeded />}</AfterSessionCheck>;
}

/** "12.50" or "12,50" → 1250 cents; null when it is not an amount. */
function parseDollars(text: string): number | null {
  const match = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
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

      {balance ? <PayoutForm available={earnings.cBalance.value} /> : null}

      <section className={styles.card} aria-labelledby="payouts-title">
        <h2 id="payouts-title" className={styles.subtitle}>
          {t('siteMoney.earnings.payouts')}
        </h2>
        {payouts.length === 0 ? <p className={styles.muted}>{t('siteMoney.earnings.noPayouts')}</p> : null}
        <ul className={styles.list} data-testid="payouts">
          {payouts.map((payout) => (
            <li key={payout.id} className={styles.row}>
              <span className={styles.rowMain}>
                <span>{t(`earnings.methods.${payout.method}`)}</span>
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

function PayoutForm({ available }: { available: number }) {
  const { t } = useTranslation();
  const { earnings } = useFanstage();
  const [amount, setAmount] = useState(() => (available / 100).toFixed(2));
  const [method, setMethod] = useState<PayoutMethod>('paypal');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const cents = parseDollars(amount);
    if (cents === null || cents <= 0 || cents > available) {
      setMessage({ kind: 'error', text: t('errors.invalid-amount') });
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      await earnings.payout(cents, method);
      setMessage({ kind: 'success', text: t('siteMoney.earnings.payoutOk', { amount: formatMoney(cents) }) });
    } catch (error) {
      // SPEC §8: FAILED with the error appended.
      const code = isSdkError(error) ? error.code : 'internal-error';
      setMessage({ kind: 'error', text: t('siteMoney.earnings.payoutFailed', { error: t([`errors.${code}`, 'errors.internal-error']) }) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className={styles.card} aria-labelledby="payout-title" onSubmit={(event) => void submit(event)} noValidate>
      <h2 id="payout-title" className={styles.subtitle}>
        {t('siteMoney.earnings.payoutTitle')}
      </h2>
      <label className={styles.field}>
        <span>{t('siteMoney.earnings.amount')}</span>
        <input className={styles.input} inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} aria-describedby="payout-hint" />
      </label>
      <p id="payout-hint" className={styles.muted}>
        {t('siteMoney.earnings.amountHint', { amount: formatMoney(available) })}
      </p>
      <fieldset className={styles.fieldset}>
        <legend>{t('siteMoney.earnings.method')}</legend>
        {PayoutMethods.map((value) => (
          <label key={value} className={styles.radio}>
            <input type="radio" name="payout-method" value={value} checked={method === value} onChange={() => setMethod(value)} />
            {t(`earnings.methods.${value}`)}
          </label>
        ))}
      </fieldset>
      {message ? (
        <p role={message.kind === 'success' ? 'status' : 'alert'} className={message.kind === 'success' ? styles.success : styles.error}>
          {message.text}
        </p>
      ) : null}
      <div className={styles.actions}>
        <button type="submit" className={styles.primary} disabled={busy || available <= 0} aria-busy={busy || undefined}>
          {t('siteMoney.earnings.requestPayout')}
        </button>
      </div>
    </form>
  );
}
