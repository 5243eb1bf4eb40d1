import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listEmbedConsents, revokeEmbedConsent, spendingControlsApi } from '../../lib/sdk';
import type { EmbedConsent, SpendReceipt } from '../../lib/contract';
import { ALLOWANCE_STEPS } from '../../lib/contract/constants';
import { formatMoney } from '../../lib/contract/money';
import { useFanstage } from '../../lib/ui';
import styles from './Settings.module.css';

/**
 * Settings › Sites you allowed: every site the fan let use their account through Fanstage
 * widgets, with what it may spend a month without asking him (docs/spending.md), what it spent
 * this month and the receipts, and a button that takes the permission back. The server ends
 * that site's widget sessions at once (requests, refreshes and sockets).
 */
export function SettingsSites() {
  const { t, i18n } = useTranslation();
  const { client } = useFanstage();
  const [sites, setSites] = useState<EmbedConsent[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [notice, setNotice] = useState('');
  const [receipts, setReceipts] = useState<Record<string, readonly SpendReceipt[] | 'loading' | 'failed'>>({});

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

  const changeAllowance = async (origin: string, allowance: number) => {
    try {
      const changed = await spendingControlsApi(client).setAllowance(origin, allowance);
      setSites((list) => (list ?? []).map((site) => (site.origin === origin ? { ...site, allowance: changed.allowance, spentThisMonth: changed.spentThisMonth } : site)));
      setNotice(allowance === 0 ? t('settings.sites.allowanceAsk', { origin }) : t('settings.sites.allowanceSet', { origin, amount: formatMoney(allowance) }));
    } catch {
      setNotice(t('settings.sites.allowanceFailed', { origin }));
    }
  };

  const toggleReceipts = (origin: string) => {
    if (receipts[origin] !== undefined && receipts[origin] !== 'failed') {
      setReceipts(({ [origin]: _shown, ...rest }) => rest);
      return;
    }
    setReceipts((all) => ({ ...all, [origin]: 'loading' }));
    spendingControlsApi(client)
      .site(origin)
      .then(
        (spending) => setReceipts((all) => ({ ...all, [origin]: spending.receipts })),
        () => setReceipts((all) => ({ ...all, [origin]: 'failed' })),
      );
  };

  const date = (iso: string) => new Date(iso).toLocaleDateString(i18n.language, { day: 'numeric', month: 'short', year: 'numeric' });
  const when = (ts: number) => new Date(ts).toLocaleString(i18n.language, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });
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
          {sites.map((site) => {
            const steps = ALLOWANCE_STEPS.includes(site.allowance as (typeof ALLOWANCE_STEPS)[number]) ? ALLOWANCE_STEPS : [...ALLOWANCE_STEPS, site.allowance].sort((a, b) => a - b);
            const shown = receipts[site.origin];
            const selectId = `allowance-${site.origin}`;
            return (
              <li key={site.origin} className={styles.site}>
                <span className={styles.siteText}>
                  <strong className={styles.origin}>{site.origin}</strong>
                  <span className={styles.hint}>{t('settings.sites.since', { allowed: date(site.createdAt), used: date(site.lastUsedAt) })}</span>
                  <span>{t('settings.sites.spent', { amount: formatMoney(site.spentThisMonth) })}</span>
                </span>
                <span className={styles.allowance}>
                  <label htmlFor={selectId}>{t('settings.sites.allowance')}</label>
                  <select id={selectId} value={site.allowance} onChange={(event) => void changeAllowance(site.origin, Number(event.target.value))}>
                    {steps.map((step) => (
                      <option key={step} value={step}>
                        {step === 0 ? t('embedLogin.askEveryTime') : t('embedLogin.upTo', { amount: formatMoney(step) })}
                      </option>
                    ))}
                  </select>
                </span>
                <span className={styles.siteActions}>
                  <button type="button" className={styles.inlineButton} aria-expanded={shown !== undefined && shown !== 'failed'} onClick={() => toggleReceipts(site.origin)}>
                    {t('settings.sites.receipts')}
                  </button>
                  <button type="button" className={styles.inlineButton} onClick={() => void revoke(site.origin)} aria-label={t('settings.sites.revokeLabel', { origin: site.origin })}>
                    {t('settings.sites.revoke')}
                  </button>
                </span>
                {shown === 'loading' ? (
                  <p role="status" className={styles.receiptsNote}>
                    {t('app.loading')}
                  </p>
                ) : shown === 'failed' ? (
                  <p role="alert" className={styles.receiptsNote}>
                    {t('settings.sites.receiptsFailed')}
                  </p>
                ) : shown !== undefined ? (
                  shown.length === 0 ? (
                    <p className={styles.receiptsNote}>{t('settings.sites.noReceipts')}</p>
                  ) : (
                    <ul className={styles.receipts} aria-label={t('settings.sites.receiptsOf', { origin: site.origin })}>
                      {shown.map((receipt) => (
                        <li key={receipt.id} className={styles.receipt}>
                          <span>
                            {t(`settings.spendKinds.${receipt.kind}`, { defaultValue: receipt.kind })}
                            {receipt.creator ? ` · ${receipt.creator.displayName}` : ''}
                            <span className={styles.hint}>
                              {' '}
                              · {when(receipt.ts)} · {receipt.confirmed ? t('settings.sites.confirmedByYou') : t('settings.sites.fromAllowance')}
                            </span>
                          </span>
                          <strong>{formatMoney(receipt.amount)}</strong>
                        </li>
                      ))}
                    </ul>
                  )
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      <p role="status" aria-live="polite" className={styles.hint}>
        {notice}
      </p>
    </section>
  );
}
