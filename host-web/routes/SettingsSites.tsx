import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listEmbedConsents, revokeEmbedConsent } from '../../lib/sdk';
import type { EmbedConsent } from '../../lib/contract';
import { useFanstage } from '../../lib/ui';
import styles from './Settings.module.css';

/**
 * Settings › Sites you allowed: every site the fan let use their account through Fanstage
 * widgets, each with a button that takes the permission back. The server ends that site's
 * widget sessions at once (requests, refreshes and sockets).
 */
export function SettingsSites() {
  const { t, i18n } = useTranslation();
  const { client } = useFanstage();
  const [sites, setSites] = useState<EmbedConsent[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [notice, setNotice] = useState('');

  const load = useCallback(() => {
    setFailed(false);
    listEmbedConsents(client).then(setSites, () => setFailed(true));
  }, [client]);
  useEffect(load, [load]);

  const revoke = async (origin: string) => {
    try {
      await revokeEmbedConsent(client, origin);
      setSites((list) => (list ?? []).filter((site) => site.origin !== origin));
      setNotice(t('settings.sites.revoked', { origin }));
    } catch {
      setNotice(t('settings.sites.revokeFailed', { origin }));
    }
  };

  const date = (iso: string) => new Date(iso).toLocaleDateString(i18n.language, { day: 'numeric', month: 'short', year: 'numeric' });
  return (
    <section className={styles.account} aria-labelledby="settings-sites">
      <h2 id="settings-sites" className={styles.subtitle}>
        {t('settings.sites.title')}
      </h2>
      <p className={styles.hint}>{t('settings.sites.intro')}</p>
      {failed ? (
        <p role="alert">
          {t('settings.sites.loadFailed')}{' '}
          <button type="button" className={styles.inlineButton} onClick={load}>
            {t('settings.sites.retry')}
          </button>
        </p>
      ) : sites === null ? (
        <p role="status">{t('app.loading')}</p>
      ) : sites.length === 0 ? (
        <p>{t('settings.sites.none')}</p>
      ) : (
        <ul className={styles.sites} aria-labelledby="settings-sites">
          {sites.map((site) => (
            <li key={site.origin} className={styles.site}>
              <span className={styles.siteText}>
                <strong className={styles.origin}>{site.origin}</strong>
                <span className={styles.hint}>{t('settings.sites.since', { allowed: date(site.createdAt), used: date(site.lastUsedAt) })}</span>
              </span>
              <button type="button" className={styles.inlineButton} onClick={() => void revoke(site.origin)} aria-label={t('settings.sites.revokeLabel', { origin: site.origin })}>
                {t('settings.sites.revoke')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p role="status" aria-live="polite" className={styles.hint}>
        {notice}
      </p>
    </section>
  );
}
