import { useState } from 'react';
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
import { AdminSection, useAdminList, type AdminMessage } from './AdminSection';
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

const requested = { status: 'requested' } as const;

/** GET /api/admin/payouts and POST /api/admin/payouts/{id}/sent: pay what creators asked for, oldest first. */
function PayoutRequests() {
  const { t, i18n } = useTranslation();
  const { client } = useFanstage();
  const { list, setList, failed } = useAdminList<AdminPayout>('/api/admin/payouts', requested);
  const [busy, setBusy] = useState<number | null>(null);
  const [message, setMessage] = useState<AdminMessage | null>(null);

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
    <AdminSection id="admin-payouts" title={t('admin.payouts.title')} testId="admin-payouts" message={message} failed={failed} list={list} emptyText={t('admin.payouts.empty')}>
      {(payouts) =>
        payouts.map((payout) => (
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
        ))
      }
    </AdminSection>
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
  const { list, setList, failed } = useAdminList<ListedOrigin>('/api/admin/embed-origins');
  const [message, setMessage] = useState<AdminMessage | null>(null);

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
    <AdminSection id="admin-origins" title={t('admin.origins.title')} message={message} failed={failed} list={list} emptyText={t('admin.origins.empty')}>
      {(origins) =>
        origins.map((item) => (
          <li key={`${item.origin} ${item.userId}`} className={styles.row}>
            <span className={styles.rowMain}>
              <span>{item.origin}</span>
              <span className={styles.muted}>@{item.username}</span>
            </span>
            <button type="button" className={styles.secondary} aria-label={t('admin.origins.remove', { origin: item.origin, username: item.username })} onClick={() => void remove(item)}>
              {t('admin.origins.removeShort')}
            </button>
          </li>
        ))
      }
    </AdminSection>
  );
}
