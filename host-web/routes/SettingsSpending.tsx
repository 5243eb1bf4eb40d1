import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isSdkError, spendingControlsApi } from '../../lib/sdk';
import type { SpendingLimits } from '../../lib/contract';
import { formatMoney } from '../../lib/contract/money';
import { useFanstage } from '../../lib/ui';
import styles from './Settings.module.css';

/** The limits offered, in credits (one credit, one cent); null is none. */
const LIMIT_STEPS: readonly (number | null)[] = [null, 500, 1000, 2000, 5000, 10000, 20000, 50000];
/** The pauses offered, in hours. */
const COOLDOWN_HOURS = [24, 24 * 7, 24 * 30] as const;

/**
 * Settings › Spending limits (docs/spending.md): what the fan may spend a day and a month, on
 * Fanstage and on every site together, and a pause of all spending. The server holds them for
 * every kind of spend; lowering a limit applies at once, raising or removing it after 24 hours,
 * and a pause cannot be shortened — so a limit set calmly holds in a heated moment.
 */
export function SettingsSpending() {
  const { t, i18n } = useTranslation();
  const { client } = useFanstage();
  const [limits, setLimits] = useState<SpendingLimits | null>(null);
  const [failed, setFailed] = useState(false);
  const [notice, setNotice] = useState('');
  const [pause, setPause] = useState<number>(COOLDOWN_HOURS[0]);

  const load = useCallback(() => {
    setFailed(false);
    spendingControlsApi(client).limits().then(setLimits, () => setFailed(true));
  }, [client]);
  useEffect(load, [load]);

  const when = (ts: number) => new Date(ts).toLocaleString(i18n.language, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });
  const label = (limit: number | null) => (limit === null ? t('settings.spending.noLimit') : formatMoney(limit));

  const change = async (period: 'daily' | 'monthly', value: number | null) => {
    try {
      const next = await spendingControlsApi(client).setLimits({ [period]: value });
      setLimits(next);
      const pending = period === 'daily' ? next.pendingDaily : next.pendingMonthly;
      setNotice(pending ? t('settings.spending.raiseWaits', { limit: label(pending.limit), at: when(pending.at) }) : t('settings.spending.saved'));
    } catch (error) {
      setNotice(t(`errors.${isSdkError(error) ? error.code : 'internal-error'}`, { defaultValue: t('settings.spending.failed') }));
    }
  };

  const coolDown = async () => {
    try {
      const next = await spendingControlsApi(client).coolDown(pause);
      setLimits(next);
      setNotice(t('settings.spending.paused', { until: when(next.cooldownUntil ?? Date.now()) }));
    } catch {
      setNotice(t('settings.spending.failed'));
    }
  };

  const select = (period: 'daily' | 'monthly', current: number | null) => {
    const steps = LIMIT_STEPS.includes(current) ? LIMIT_STEPS : [...LIMIT_STEPS, current];
    const id = `spending-${period}`;
    return (
      <span className={styles.limit}>
        <label htmlFor={id}>{t(period === 'daily' ? 'settings.spending.daily' : 'settings.spending.monthly')}</label>
        <select id={id} value={current ?? ''} onChange={(event) => void change(period, event.target.value === '' ? null : Number(event.target.value))}>
          {steps.map((step) => (
            <option key={step ?? 'none'} value={step ?? ''}>
              {label(step)}
            </option>
          ))}
        </select>
      </span>
    );
  };

  return (
    <section className={styles.account} aria-labelledby="settings-spending">
      <h2 id="settings-spending" className={styles.subtitle}>
        {t('settings.spending.title')}
      </h2>
      <p className={styles.hint}>{t('settings.spending.intro')}</p>
      {failed ? (
        <p role="alert">
          {t('settings.spending.loadFailed')}{' '}
          <button type="button" className={styles.inlineButton} onClick={load}>
            {t('settings.sites.retry')}
          </button>
        </p>
      ) : limits === null ? (
        <p role="status">{t('app.loading')}</p>
      ) : (
        <>
          <p>{t('settings.spending.spent', { today: formatMoney(limits.spentToday), month: formatMoney(limits.spentThisMonth) })}</p>
          <div className={styles.limits}>
            {select('daily', limits.daily)}
            {select('monthly', limits.monthly)}
          </div>
          {limits.pendingDaily ? <p className={styles.hint}>{t('settings.spending.pendingDaily', { limit: label(limits.pendingDaily.limit), at: when(limits.pendingDaily.at) })}</p> : null}
          {limits.pendingMonthly ? <p className={styles.hint}>{t('settings.spending.pendingMonthly', { limit: label(limits.pendingMonthly.limit), at: when(limits.pendingMonthly.at) })}</p> : null}
          {limits.cooldownUntil ? (
            <p>{t('settings.spending.pausedUntil', { until: when(limits.cooldownUntil) })}</p>
          ) : (
            <div className={styles.limits}>
              <span className={styles.limit}>
                <label htmlFor="spending-pause">{t('settings.spending.pause')}</label>
                <select id="spending-pause" value={pause} onChange={(event) => setPause(Number(event.target.value))}>
                  {COOLDOWN_HOURS.map((hours) => (
                    <option key={hours} value={hours}>
                      {t('settings.spending.days', { count: hours / 24 })}
                    </option>
                  ))}
                </select>
              </span>
              <button type="button" className={styles.inlineButton} onClick={() => void coolDown()}>
                {t('settings.spending.pauseButton')}
              </button>
            </div>
          )}
        </>
      )}
      <p role="status" aria-live="polite" className={styles.hint}>
        {notice}
      </p>
    </section>
  );
}
