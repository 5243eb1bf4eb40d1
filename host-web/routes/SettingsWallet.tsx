import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { cardLabel, formatMoney, useFanstage, WalletTopUp } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import { LoginNeeded } from './Settings';
import { TransactionHistory } from './TransactionHistory';
import { gopayReturnUrl } from './moneyLinks';
import styles from './Money.module.css';

/**
 * `/settings/wallet` (login): the balance, buying credits (the card page by redirect, back
 * through `/gopay-return`), saved cards, and the wallet's history, 30 a page.
 */
export default function SettingsWallet() {
  const { loggedIn } = useSite();
  return <AfterSessionCheck>{loggedIn ? <Wallet /> : <LoginNeeded />}</AfterSessionCheck>;
}

function Wallet() {
  useSignals();
  const { t } = useTranslation();
  const { wallet } = useFanstage();
  usePageTitle(t('siteMoney.wallet.title'));

  useEffect(() => {
    wallet.refresh().catch(() => undefined);
    wallet.loadCards(true).catch(() => undefined);
    void wallet.transactions.reload().catch(() => undefined);
  }, [wallet]);

  const balance = wallet.balance.value;
  const cards = wallet.cards.value ?? [];

  return (
    <section className={styles.screen} aria-labelledby="wallet-title">
      <h1 id="wallet-title" className={styles.title}>
        {t('siteMoney.wallet.title')}
      </h1>
      <div className={styles.card}>
        <h2 className={styles.subtitle}>{t('siteMoney.wallet.balance')}</h2>
        {balance ? (
          <p className={styles.amount} data-testid="wallet-balance">
            {formatMoney(balance.gBalance)}
          </p>
        ) : wallet.balanceStatus.value === 'error' ? (
          <p role="alert" className={styles.warning}>
            {t('errors.couldnt-get-info-from-server')}
          </p>
        ) : (
          <p role="status">{t('app.loading')}</p>
        )}
      </div>

      <WalletTopUp mode="redirect" returnUrl={gopayReturnUrl('/settings/wallet')} headingLevel={2} className={styles.card} />

      {cards.length > 0 ? (
        <section className={styles.card} aria-labelledby="wallet-cards">
          <h2 id="wallet-cards" className={styles.subtitle}>
            {t('siteMoney.wallet.cards')}
          </h2>
          <ul className={styles.list}>
            {cards.map((card) => (
              <li key={card.id} className={styles.row}>
                <span>{cardLabel(card)}</span>
                <button type="button" className={styles.secondary} onClick={() => void wallet.deleteCard(card.id).catch(() => undefined)}>
                  {t('siteMoney.wallet.removeCard', { card: cardLabel(card) })}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <History />
    </section>
  );
}

function History() {
  const { t } = useTranslation();
  const { wallet } = useFanstage();
  return <TransactionHistory id="wallet-history" title={t('siteMoney.wallet.history')} empty={t('siteMoney.wallet.noHistory')} list={wallet.transactions} testId="wallet-history" />;
}
