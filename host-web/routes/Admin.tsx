import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { isSdkError } from '../../lib/sdk';
import { AdminPartnerQueue, useFanstage } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import NotFound from './NotFound';
import styles from './Money.module.css';

/** SPEC §3: level 500 is an administrator. */
const ADMIN_LEVEL = 500;

/**
 * `/admin` (administrators only; docs/partners.md, Moderation): the queue of partner
 * applications and the sites creators listed for their widgets. Anyone else — a visitor, a
 * fan, a creator — sees the not-found screen, as for an address that does not exist; the
 * server refuses them the data anyway.
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
    <section className={styles.screen} aria-labelledby="admin-title" data-testid="admin">
      <h1 id="admin-title" className={styles.title}>
        {t('admin.title')}
      </h1>
      <AdminPartnerQueue headingLevel={2} />
      <ListedOrigins />
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
      <div role="status" aria-live="polite">
        {message?.kind === 'success' ? <p className={styles.success}>{message.text}</p> : null}
      </div>
      <div role="alert">{message?.kind === 'error' ? <p className={styles.error}>{message.text}</p> : null}</div>
      {failed ? (
        <p className={styles.error}>{t('errors.couldnt-get-info-from-server')}</p>
      ) : list === null ? (
        <p role="status">{t('admin.loading')}</p>
      ) : list.length === 0 ? (
        <p>{t('admin.origins.empty')}</p>
      ) : (
        <dl className={styles.facts}>
          {list.map((item) => (
            <div key={`${item.origin} ${item.userId}`} style={{ display: 'contents' }}>
              <dt>@{item.username}</dt>
              <dd>
                {item.origin}{' '}
                <button type="button" className={styles.secondary} aria-label={t('admin.origins.remove', { origin: item.origin, username: item.username })} onClick={() => void remove(item)}>
                  {t('admin.origins.removeShort')}
                </button>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
