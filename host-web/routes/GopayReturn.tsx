import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { isSdkError } from '../../lib/sdk';
import { PAYMENT_MESSAGE } from '../../lib/sdk/stores/wallet';
import type { PaymentOrder } from '../../lib/contract';
import { useFanstage } from '../../lib/ui';
import { exactDollars } from '../../lib/ui/PriceDetail';
import { usePageTitle, useSite } from '../site';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import { safeReturnPath } from './moneyLinks';
import styles from './Money.module.css';

type Outcome = { kind: 'waiting' } | { kind: 'paid'; order: PaymentOrder } | { kind: 'failed'; code: string } | { kind: 'missing' };

/**
 * `/gopay-return?id=` (SPEC §2): where the card processor sends the payer back. It shows how
 * the order ended — paid (the new balance, and the way back to where the payment started),
 * declined (no money moved), still processing (checked again until it ends). Opened as the
 * payment popup of a widget or another tab, it tells the opener, and closes itself once the
 * order has ended (the opener shows the outcome); while it waits it offers to close.
 */
export default function GopayReturn() {
  return (
    <AfterSessionCheck>
      <PaymentOutcome />
    </AfterSessionCheck>
  );
}

function PaymentOutcome() {
  useSignals();
  const { t } = useTranslation();
  const fanstage = useFanstage();
  const { loggedIn, openLoginPrompt } = useSite();
  const query = new URLSearchParams(window.location.search);
  const id = query.get('id');
  const processor = query.get('pgwProcessor') ?? 'sandbox';
  const from = safeReturnPath(query.get('from'));
  const [outcome, setOutcome] = useState<Outcome>(id ? { kind: 'waiting' } : { kind: 'missing' });
  const inPopup = useRef(typeof window !== 'undefined' && window.opener !== null && window.opener !== window);
  usePageTitle(t('siteMoney.gopay.title'));

  function tellOpener(): boolean {
    if (!inPopup.current || !id) return false;
    try {
      const opener = window.opener as Window;
      if (opener.closed) return false;
      // Only the order id travels: the opener asks the server for the outcome itself.
      opener.postMessage({ type: PAYMENT_MESSAGE, id }, '*');
      return true;
    } catch {
      // The opener went away; this page still shows the outcome.
      return false;
    }
  }

  /** Told the outcome, the page that opened this window shows it; the window has done its part. */
  function finishInPopup() {
    if (tellOpener()) window.close();
  }

  useEffect(() => {
    tellOpener();
    if (!id || !loggedIn) return;
    const controller = new AbortController();
    fanstage.wallet.awaitPayment(id, { processor, signal: controller.signal }).then(
      (order) => {
        setOutcome({ kind: 'paid', order });
        finishInPopup();
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setOutcome({ kind: 'failed', code: isSdkError(error) ? error.code : 'payment-failed' });
        finishInPopup();
      },
    );
    return () => controller.abort();
    // The order is followed once per page; tellOpener reads only refs and the id.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fanstage, id, processor, loggedIn]);

  const phase = fanstage.wallet.payment.value?.phase;
  const balance = fanstage.wallet.balance.value;
  const back = from ?? '/settings/wallet';

  let body;
  if (outcome.kind === 'missing') {
    body = (
      <p role="alert" className={styles.error}>
        {t('errors.order-not-found')}
      </p>
    );
  } else if (!loggedIn) {
    body = (
      <>
        <p role="status">{t('siteMoney.gopay.login')}</p>
        <div className={styles.actions}>
          <button type="button" className={styles.primary} onClick={openLoginPrompt}>
            {t('siteMoney.gopay.loginButton')}
          </button>
        </div>
      </>
    );
  } else if (outcome.kind === 'waiting') {
    body =
      phase === 'processing' ? (
        <p role="status" className={styles.warning} data-testid="payment-outcome" data-outcome="processing">
          {t('errors.payment_is_processing')}
        </p>
      ) : (
        <p role="status" data-testid="payment-outcome" data-outcome="waiting">
          {t('siteMoney.gopay.checking')}
        </p>
      );
  } else if (outcome.kind === 'paid') {
    const subscription = outcome.order.purpose === 'subscription';
    body = (
      <>
        <p role="status" className={styles.success} data-testid="payment-outcome" data-outcome="paid">
          {subscription ? t('siteMoney.gopay.paidSubscription') : t('siteMoney.gopay.paid', { credits: exactDollars(outcome.order.credits) })}
        </p>
        {balance ? (
          <dl className={styles.facts}>
            <dt>{t('siteMoney.wallet.balance')}</dt>
            <dd data-testid="gopay-balance">{exactDollars(balance.gBalance)}</dd>
          </dl>
        ) : null}
      </>
    );
  } else {
    body = (
      <p role="alert" className={outcome.code === 'payment_is_processing' ? styles.warning : styles.error} data-testid="payment-outcome" data-outcome={outcome.code}>
        {t([`errors.${outcome.code}`, 'errors.payment-failed'])}
      </p>
    );
  }

  return (
    <section className={styles.screen} aria-labelledby="gopay-title">
      <h1 id="gopay-title" className={styles.title}>
        {t('siteMoney.gopay.title')}
      </h1>
      <div className={styles.card}>{body}</div>
      <div className={styles.actions}>
        {inPopup.current ? (
          <button type="button" className={outcome.kind === 'waiting' ? styles.secondary : styles.primary} onClick={() => window.close()}>
            {t('siteMoney.gopay.closeWindow')}
          </button>
        ) : (
          <Link href={back} className={outcome.kind === 'waiting' ? styles.secondary : styles.primary}>
            {from ? t('siteMoney.gopay.back') : t('siteMoney.gopay.toWallet')}
          </Link>
        )}
      </div>
    </section>
  );
}
