import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { isSdkError } from '../../lib/sdk';
import type { AdminPayout } from '../../lib/contract';
import { AdminPartnerQueue, useFanstage } from '../../lib/ui';
import { exactDollars } from '../../lib/ui/PriceDetail';
import { usePageTitle, useSite } from '../site';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import NotFound from './NotFound';
import { AbuseReports } from './AdminAbuse';
import styles from './Money.module.css';
import own from './Admin.module.css';

/** SPEC §3: level 500 is an administrator. */
const ADMIN_LEVEL = 500;

/**
 * `/admin` (administrators only; docs/partners.md, docs/moderation.md): the reports of content,
 * the queue of partner applications, payouts and the sites creators listed for their widgets.
 * Anyone else — a visitor, a fan, a creator — sees the not-found screen, as for an address that
 * does not exist; the server refuses them the data anyway.
 */
export default function Admin() {
  useSignals();
  const { loggedIn } = useSite();
  const { session } = useFanstage();
  const account = session.account.value;
  return <AfterSessionCheck>{!loggedIn ? <NotFound /> : !account ? <Waiting /> : account.level >= ADMIN_LEVEL ? <Administration /> : <NotFound />}</AfterSessionCheck>;
}

function Waiting() {
  const { t } = useTranslation();
  return (
    <p className="visually-hidden" role="status">
      {t('app.loading')}
    </p>
  );
}

function Administration() {
  const { t } = useTranslation();
  usePageTitle(t('admin.title'));
  return (
    <section className={`${styles.screen} ${own.screen}`} aria-labelledby="admin-title" data-testid="admin">
      <h1 id="admin-title" className={styles.title}>
        {t('admin.title')}
      </h1>
      <AbuseReports />
      <AdminPartnerQueue headingLevel={2} className={styles.card} />
      <PayoutRequests />
      <ListedOrigins />
    </section>
  );
}

/** GET /api/admin/payouts and POST /api/admin/payouts/{id}/sent: pay what creators asked for, oldest first. */
function PayoutRequests() {
  const { t, i18n } = useTranslation();
  const { client } = useFanstage();
  const [list, setList] = useState<AdminPayout[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState<number | null>(null);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  const load = useCallback(async () => {
    try {
      setList(await client.get<AdminPayout[]>('/api/admin/payouts', { status: 'requested' }));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [client]);

  useEffect(() => {
    void load();
  }, [load]);

  const markPaid = async (payout: AdminPayout) => {
    setBusy(payout.id);
    setMessage(null);
    try {
      await client.post(`/api/admin/payouts/${payout.id}/sent`);
      setList((previous) => (previous ?? []).filter((other) => other.id !== payout.id));
      setMessage({ kind: 'success', text: t('admin.payouts.paid', { amount: exactDollars(payout.amount), username: payout.user.username }) });
    } catch (error) {
      setMessage({ kind: 'error', text: `${t('admin.payouts.failed')} ${isSdkError(error) ? t(`errors.${error.code}`, { defaultValue: '' }) : ''}`.trim() });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className={styles.card} aria-labelledby="admin-payouts" data-testid="admin-payouts">
      <h2 id="admin-payouts" className={styles.subtitle}>
        {t('admin.payouts.title')}
      </h2>
      <div className={own.messages}>
        <div role="status" aria-live="polite">
          {message?.kind === 'success' ? <p className={styles.success}>{message.text}</p> : null}
        </div>
        <div role="alert">{message?.kind === 'error' ? <p className={styles.error}>{message.text}</p> : null}</div>
      </div>
      {failed ? (
        <p className={styles.error}>{t('errors.couldnt-get-info-from-server')}</p>
      ) : list === null ? (
        <p role="status">{t('admin.loading')}</p>
      ) : list.length === 0 ? (
        <p>{t('admin.payouts.empty')}</p>
      ) : (
        <ul className={styles.list}>
          {list.map((payout) => (
            <li key={payout.id} className={styles.row}>
              <span className={styles.rowMain}>
                {t('admin.payouts.line', {
                  amount: exactDollars(payout.amount),
                  username: payout.user.username,
                  method: t(`admin.payouts.method.${payout.method}`),
                  destination: payout.destination ?? '—',
                  date: new Date(payout.ts).toLocaleDateString(i18n.resolvedLanguage ?? i18n.language),
                })}
              </span>
              <button type="button" className={styles.primary} disabled={busy !== null} aria-label={t('admin.payouts.markPaidOf', { amount: exactDollars(payout.amount), username: payout.user.username })} onClick={() => void markPaid(payout)}>
                {t('admin.payouts.markPaid')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

interface ListedOrigin {
  origin: string;
  userId: number;
  username: string;
}

/** GET/DELETE /api/admin/embed-origins: take a site off a creator's list. */
function ListedOrigins() {
  const { t } = useTranslation();
  const { client } = useFanstage();
  const [list, setList] = useState<ListedOrigin[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  const load = useCallback(async () => {
    try {
      setList(await client.get<ListedOrigin[]>('/api/admin/embed-origins'));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [client]);

  useEffect(() => {
    void load();
  }, [load]);

  const remove = async (item: ListedOrigin) => {
    setMessage(null);
    try {
      await client.request<undefined>('DELETE', '/api/admin/embed-origins', { query: { origin: item.origin, userId: item.userId } });
      setList((previous) => (previous ?? []).filter((other) => other !== item));
      setMessage({ kind: 'success', text: t('admin.origins.removed', { origin: item.origin, username: item.username }) });
    } catch (error) {
      setMessage({ kind: 'error', text: isSdkError(error) ? t(`errors.${error.code}`, { defaultValue: t('errors.couldnt-get-info-from-server') }) : t('errors.couldnt-get-info-from-server') });
    }
  };

  return (
    <section className={styles.card} aria-labelledby="admin-origins">
      <h2 id="admin-origins" className={styles.subtitle}>
        {t('admin.origins.title')}
      </h2>
      <div className={own.messages}>
        <div role="status" aria-live="polite">
          {message?.kind === 'success' ? <p className={styles.success}>{message.text}</p> : null}
        </div>
        <div role="alert">{message?.kind === 'error' ? <p className={styles.error}>{message.text}</p> : null}</div>
      </div>
      {failed ? (
        <p className={styles.error}>{t('errors.couldnt-get-info-from-server')}</p>
      ) : list === null ? (
        <p role="status">{t('admin.loading')}</p>
      ) : list.length === 0 ? (
        <p>{t('admin.origins.empty')}</p>
      ) : (
        <ul className={styles.list}>
          {list.map((item) => (
            <li key={`${item.origin} ${item.userId}`} className={styles.row}>
              <span className={styles.rowMain}>
                <span>{item.origin}</span>
                <span className={styles.muted}>@{item.username}</span>
              </span>
              <button type="button" className={styles.secondary} aria-label={t('admin.origins.remove', { origin: item.origin, username: item.username })} onClick={() => void remove(item)}>
                {t('admin.origins.removeShort')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
