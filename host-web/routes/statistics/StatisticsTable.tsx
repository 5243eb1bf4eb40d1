import { useTranslation } from 'react-i18next';
import type { StatisticsSeries } from '../../../lib/contract/links';
import { formatMoney } from '../../../lib/contract/money';
import styles from '../Statistics.module.css';

interface Props {
  id: string;
  periods: readonly string[];
  series: readonly StatisticsSeries[];
  names: readonly string[];
  totals: readonly number[];
  periodName: (period: string) => string;
  caption: string;
  /** Shown to everyone, or read by screen readers only. */
  visible: boolean;
}

/** The chart's numbers as a table: a row a period, a column a series, and the totals. */
export function StatisticsTable({ id, periods, series, names, totals, periodName, caption, visible }: Props) {
  const { t } = useTranslation();
  return (
    <div className={visible ? styles.tableBox : 'visually-hidden'}>
      <table id={id} className={styles.table} data-testid="statistics-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('statistics.period')}</th>
            {series.map((s, i) => (
              <th scope="col" key={s.key}>
                {names[i]}
              </th>
            ))}
            <th scope="col">{t('statistics.total')}</th>
          </tr>
        </thead>
        <tbody>
          {periods.map((period, j) => (
            <tr key={period} data-period={period}>
              <th scope="row">{periodName(period)}</th>
              {series.map((s) => (
                <td key={s.key} data-key={s.key}>
                  {formatMoney(s.values[j] ?? 0)}
                </td>
              ))}
              <td data-key="total">{formatMoney(totals[j] ?? 0)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t('statistics.total')}</th>
            {series.map((s) => (
              <td key={s.key} data-key={s.key}>
                {formatMoney(s.total)}
              </td>
            ))}
            <td data-key="total">{formatMoney(totals.reduce((a, b) => a + b, 0))}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
