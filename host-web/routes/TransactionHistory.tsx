import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import type { Transaction } from '../../lib/contract';
import type { PagedList } from '../../lib/sdk';
import { formatMoney } from '../../lib/ui';
import styles from './Money.module.css';

/** One line of a wallet or earnings history: what, with whom, when, where (a partner site), the card charge of a top-up, and the signed amount. */
export function TransactionRow({ item, language }: { item: Transaction; language: string }) {
  const { t } = useTranslation();
  const who = item.user ? item.user.displayName.trim() || item.user.username : null;
  const what = t([`siteMoney.tx.${item.transactionType}`, 'siteMoney.tx.other']);
  return (
    <li className={styles.row}>
      <span className={styles.rowMain}>
        <span>{who ? t('siteMoney.tx.with', { what, name: who }) : what}</span>
        {typeof item.chargedCents === 'number' ? <span className={styles.muted}>{t('siteMoney.tx.charged', { amount: formatMoney(item.chargedCents) })}</span> : null}
        <span className={styles.muted}>
          <time dateTime={new Date(item.ts).toISOString()}>{new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(item.ts))}</time>
          {item.site ? ` · ${t('siteMoney.tx.onSite', { site: item.site })}` : null}
        </span>
      </span>
      <span className={item.amountCents >= 0 ? styles.plus : styles.minus}>
        {item.amountCents > 0 ? '+' : ''}
        {formatMoney(item.amountCents)}
      </span>
    </li>
  );
}

/**
 * A titled, paged history of wallet or earnings lines: the failure and empty notes, the rows,
 * and 'More' while the server has more.
 */
export function TransactionHistory({ id, title, empty, list, testId }: { id: string; title: string; empty: string; list: PagedList<Transaction>; testId: string }) {
  useSignals();
  const { t, i18n } = useTranslation();
  const items = list.items.value;
  const status = list.status.value;
  return (
    <section className={styles.card} aria-labelledby={id}>
      <h2 id={id} className={styles.subtitle}>
        {title}
      </h2>
      {status === 'error' ? (
        <p role="alert" className={styles.warning}>
          {t('errors.couldnt-get-info-from-server')}
        </p>
      ) : null}
      {items.length === 0 && (status === 'ready' || status === 'ended') ? <p className={styles.muted}>{empty}</p> : null}
      <ul className={styles.list} data-testid={testId}>
        {items.map((item) => (
          <TransactionRow key={item.id} item={item} language={i18n.resolvedLanguage ?? 'en'} />
        ))}
      </ul>
      {status === 'loading' ? <p role="status">{t('app.loading')}</p> : null}
      {list.canLoadMore.value ? (
        <div className={styles.actions}>
          <button type="button" className={styles.secondary} onClick={() => void list.nextPage()}>
            {t('siteMoney.more')}
          </button>
        </div>
      ) : null}
    </section>
  );
}
