import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useSignals } from '@preact/signals-react/runtime';
import type { StatisticsSeries } from '../../lib/contract/links';
import { formatMoney } from '../../lib/contract/money';
import { createStatisticsStore, isSdkError } from '../../lib/sdk';
import { useFanstage } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import { LoginNeeded } from './Settings';
import { EarningsChart, seriesColour } from './statistics/EarningsChart';
import { StatisticsTable } from './statistics/StatisticsTable';
import { TrackingLinks } from './statistics/TrackingLinks';
import money from './Money.module.css';
import styles from './Statistics.module.css';

type Unit = 'day' | 'week' | 'month';
type Group = 'kind' | 'place' | 'link';
const DAY_MS = 24 * 60 * 60 * 1000;
const ranges = [7, 30, 90, 365] as const;
const noSeries: readonly StatisticsSeries[] = [];

/** A series as people read it: a kind, the platform or a site, a link or none. */
function seriesName(t: TFunction, group: Group, key: string, label: string): string {
  if (group === 'kind') return t(`statistics.kinds.${key}`, { defaultValue: key });
  if (group === 'place') return key === 'platform' ? t('statistics.platform') : label || key;
  return key === 'none' ? t('statistics.noLink') : label || key;
}

/**
 * `/statistics` (creators): earnings per day, week or month of the creator's time zone, stacked
 * by kind, by place (the platform or a partner site) or by tracking link — a chart with the same
 * numbers as a table, and as CSV — subscribers gained and lost, top fans, each post's unlocks and
 * earnings, and her tracking links. The chart library comes with this screen's chunk only.
 */
export default function Statistics() {
  const { loggedIn } = useSite();
  return <AfterSessionCheck>{loggedIn ? <StatisticsScreen /> : <LoginNeeded />}</AfterSessionCheck>;
}

function StatisticsScreen() {
  useSignals();
  const { t, i18n } = useTranslation();
  const fanstage = useFanstage();
  const account = fanstage.session.account.value;
  usePageTitle(t('statistics.title'));
  const store = useMemo(() => createStatisticsStore(fanstage.client), [fanstage.client]);
  useEffect(() => () => store.dispose(), [store]);
  const [unit, setUnit] = useState<Unit>('day');
  const [days, setDays] = useState<(typeof ranges)[number]>(30);
  const [group, setGroup] = useState<Group>('kind');
  const [tableShown, setTableShown] = useState(false);
  const language = i18n.resolvedLanguage ?? 'en';
  const creator = account?.isSeller === true || account?.isPartner === true;

  useEffect(() => {
    if (!creator) return;
    const to = Date.now();
    store.load({ unit, from: to - days * DAY_MS, to }).catch(() => undefined);
  }, [store, unit, days, creator]);

  const data = store.data.value;
  const status = store.status.value;
  const error = store.error.value;

  const nameOf = (g: Group, key: string, label: string) => seriesName(t, g, key, label);
  const series: readonly StatisticsSeries[] = data ? (group === 'kind' ? data.byKind : group === 'place' ? data.byPlace : data.byLink) : noSeries;
  const names = useMemo(() => series.map((s) => seriesName(t, group, s.key, s.label)), [series, group, t]);
  const periodFormat = new Intl.DateTimeFormat(language, unit === 'month' ? { month: 'long', year: 'numeric', timeZone: 'UTC' } : { dateStyle: 'medium', timeZone: 'UTC' });
  const periodName = (period: string) => periodFormat.format(new Date(`${period}T00:00:00Z`));
  const count = new Intl.NumberFormat(language);

  const download = () => {
    const csv = store.csv((g, key, label) => nameOf(g, key, label));
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `statistics-${data?.periods[0] ?? 'all'}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  if (!creator) {
    return (
      <section className={money.screen} aria-labelledby="statistics-title">
        <h1 id="statistics-title" className={money.title}>
          {t('statistics.title')}
        </h1>
        <p className={money.muted}>{t('statistics.creatorsOnly')}</p>
      </section>
    );
  }

  return (
    <section className={`${money.screen} ${styles.screen}`} aria-labelledby="statistics-title">
      <h1 id="statistics-title" className={money.title}>
        {t('statistics.title')}
      </h1>
      <div className={styles.controls}>
        <label className={money.field}>
          {t('statistics.range')}
          <select className={money.input} value={days} onChange={(e) => setDays(Number(e.target.value) as (typeof ranges)[number])}>
            {ranges.map((n) => (
              <option key={n} value={n}>
                {t('statistics.lastDays', { count: n })}
              </option>
            ))}
          </select>
        </label>
        <label className={money.field}>
          {t('statistics.unit')}
          <select className={money.input} value={unit} onChange={(e) => setUnit(e.target.value as Unit)}>
            {(['day', 'week', 'month'] as const).map((u) => (
              <option key={u} value={u}>
                {t(`statistics.units.${u}`)}
              </option>
            ))}
          </select>
        </label>
        <label className={money.field}>
          {t('statistics.groupBy')}
          <select className={money.input} value={group} onChange={(e) => setGroup(e.target.value as Group)} data-testid="statistics-group">
            {(['kind', 'place', 'link'] as const).map((g) => (
              <option key={g} value={g}>
                {t(`statistics.groups.${g}`)}
              </option>
            ))}
          </select>
        </label>
      </div>

      {status === 'error' ? (
        <p role="alert" className={money.error}>
          {t(`errors.${isSdkError(error) ? error.code : 'couldnt-get-info-from-server'}`, { defaultValue: t('errors.couldnt-get-info-from-server') })}
        </p>
      ) : null}
      {data === null && status !== 'error' ? <p role="status">{t('app.loading')}</p> : null}

      {data ? (
        <section className={money.card} aria-labelledby="earnings-chart-title">
          <h2 id="earnings-chart-title" className={money.subtitle}>
            {t('statistics.earnings')}
          </h2>
          <p className={styles.total}>
            {t('statistics.totalInRange')} <strong data-testid="statistics-total">{formatMoney(data.totalCents)}</strong>
          </p>
          {series.length > 0 ? (
            <>
              <ul className={styles.legend} aria-hidden="true">
                {names.map((name, i) => (
                  <li key={series[i]!.key}>
                    <span className={styles.swatch} style={{ background: seriesColour(i) }} />
                    {name}
                  </li>
                ))}
              </ul>
              <EarningsChart periods={data.periods} series={series} names={names} language={language} label={t('statistics.chartLabel', { group: t(`statistics.groups.${group}`) })} />
            </>
          ) : (
            <p className={money.muted}>{t('statistics.noEarnings')}</p>
          )}
          <div className={money.actions}>
            <button type="button" className={money.secondary} aria-expanded={tableShown} aria-controls="statistics-table" onClick={() => setTableShown((shown) => !shown)}>
              {t(tableShown ? 'statistics.hideTable' : 'statistics.showTable')}
            </button>
            <button type="button" className={money.secondary} onClick={download}>
              {t('statistics.csv')}
            </button>
          </div>
          <StatisticsTable
            id="statistics-table"
            periods={data.periods}
            series={series}
            names={names}
            totals={data.totals}
            periodName={periodName}
            caption={t('statistics.tableCaption', { group: t(`statistics.groups.${group}`) })}
            visible={tableShown}
          />
        </section>
      ) : null}

      {data ? (
        <section className={money.card} aria-labelledby="subscribers-title">
          <h2 id="subscribers-title" className={money.subtitle}>
            {t('statistics.subscribers')}
          </h2>
          <dl className={money.facts}>
            <dt>{t('statistics.gained')}</dt>
            <dd data-testid="subscribers-gained">{count.format(data.subscribersGained.reduce((a, b) => a + b, 0))}</dd>
            <dt>{t('statistics.lost')}</dt>
            <dd data-testid="subscribers-lost">{count.format(data.subscribersLost.reduce((a, b) => a + b, 0))}</dd>
          </dl>
        </section>
      ) : null}

      {data && data.topFans.length > 0 ? (
        <section className={money.card} aria-labelledby="top-fans-title">
          <h2 id="top-fans-title" className={money.subtitle}>
            {t('statistics.topFans')}
          </h2>
          <ol className={styles.ranked}>
            {data.topFans.map((fan) => (
              <li key={fan.user.id}>
                <span>{fan.user.displayName || fan.user.username}</span> <strong>{formatMoney(fan.earnedCents)}</strong>
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      {data && data.posts.length > 0 ? (
        <section className={money.card} aria-labelledby="posts-title">
          <h2 id="posts-title" className={money.subtitle}>
            {t('statistics.posts')}
          </h2>
          <ul className={styles.ranked}>
            {data.posts.map((post) => (
              <li key={post.postId}>
                <a href={`/post/${post.postId}`}>{post.text || t('statistics.untitledPost', { id: post.postId })}</a>{' '}
                <span>{t('statistics.unlocks', { count: post.unlocks, formatted: count.format(post.unlocks) })}</span> <strong>{formatMoney(post.earnedCents)}</strong>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {account ? <TrackingLinks store={store} userId={account.id} /> : null}
    </section>
  );
}
