import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { StatisticsSeries } from '../../../lib/contract/links';
import { formatMoney } from '../../../lib/contract/money';
import styles from '../Statistics.module.css';

/** Colours for up to ten series, each readable on the site's light and dark surfaces. */
const palette = ['#7c3aed', '#0891b2', '#d97706', '#16a34a', '#dc2626', '#db2777', '#2563eb', '#65a30d', '#9333ea', '#64748b'];
export const seriesColour = (i: number) => palette[i % palette.length]!;

interface Props {
  /** Each period's first day, `YYYY-MM-DD`. */
  periods: readonly string[];
  series: readonly StatisticsSeries[];
  names: readonly string[];
  language: string;
  /** What the chart shows, for assistive technology (the table below reads the numbers). */
  label: string;
}

const dayOf = (period: string) => Date.UTC(Number(period.slice(0, 4)), Number(period.slice(5, 7)) - 1, Number(period.slice(8, 10))) / 1000;

/**
 * Earnings per period as stacked bars (uPlot, in this screen's chunk only): each series is
 * drawn as the sum of itself and those before it, the tallest first, so the bars stack. Its
 * width follows its box, so it reads at 375 px as at 1280.
 */
export function EarningsChart({ periods, series, names, language, label }: Props) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const xs = periods.map(dayOf);
    const stacked: number[][] = [];
    series.forEach((s, i) => stacked.push(s.values.map((v, j) => v / 100 + (i > 0 ? stacked[i - 1]![j]! : 0))));
    const dates = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    const width = () => Math.max(240, element.clientWidth);
    const order = series.map((_, i) => i).reverse();
    const bars = uPlot.paths.bars!({ size: [0.7, 48] });
    const plot = new uPlot(
      {
        width: width(),
        height: 260,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: false, range: (_u, min, max) => [min - 43_200, max + 43_200] }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
        axes: [
          { values: (_u, ticks) => ticks.map((t) => dates.format(new Date(t * 1000))), stroke: 'currentColor', grid: { show: false }, incrs: [86_400, 7 * 86_400, 30 * 86_400, 91 * 86_400] },
          { values: (_u, ticks) => ticks.map((t) => formatMoney(Math.round(t * 100))), stroke: 'currentColor', size: 64 },
        ],
        series: [{}, ...order.map((i) => ({ label: names[i], fill: seriesColour(i), stroke: seriesColour(i), width: 0, paths: bars, points: { show: false } }))],
      },
      [xs, ...order.map((i) => stacked[i]!)],
      element,
    );
    const resized = new ResizeObserver(() => plot.setSize({ width: width(), height: 260 }));
    resized.observe(element);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [periods, series, names, language]);

  return <div ref={box} className={styles.chart} role="img" aria-label={label} data-testid="statistics-chart" />;
}
