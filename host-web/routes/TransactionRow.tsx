import { useTranslation } from 'react-i18next';
import type { Transaction } from '../../lib/contract';
import { formatMoney } from '../../lib/ui';
import styles from './Money.module.css';

/** One line of a wallet or earnings history: what, with whom, when, and the signed amount. */
export function TransactionRow({ item, language }: { item: Transaction; language: string }) {
  const { t } = useTranslation();
  const who = item.user ? item.user.displayName.trim() || item.user.username : null;
  const what = t([`siteMoney.tx.${item.transactionType}`, 'siteMoney.tx.other']);
  return (
    <li className={styles.row}>
      <span className={styles.rowMain}>
        <span>{who ? t('siteMoney.tx.with', { what, name: who }) : what}</span>
        <time className={styles.muted} dateTime={new Date(item.ts).toISOString()}>
          {new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(item.ts))}
        </time>
      </span>
      <span className={item.amountCents >= 0 ? styles.plus : styles.minus}>
        {item.amountCents > 0 ? '+' : ''}
        {formatMoney(item.amountCents)}
      </span>
    </li>
  );
}
