/**
 * A creator's statistics and tracking links (issue 34, docs/creators.md). Not part of the root
 * `Fanstage`: the screen that shows them makes the store on the client it has.
 *
 *   statistics.data        ReadonlySignal<Statistics | null>   GET /api/statistics, the last answer
 *   statistics.status      ReadonlySignal<'idle' | 'loading' | 'ready' | 'error'>
 *   statistics.error       ReadonlySignal<unknown>
 *   statistics.load({unit, from, to, tz})   loads (tz defaults to the browser's time zone)
 *   statistics.links       ReadonlySignal<readonly TrackingLink[] | null>
 *   statistics.loadLinks() / createLink(body) / endLink(id)
 *   statistics.csv()       the loaded numbers as CSV (one row a period, a column a series)
 */
import { signal, type ReadonlySignal } from '@preact/signals-core';
import type { CreateLinkBody, FirstMonthDiscount, LinkLanding, Statistics, StatisticsQuery, Subscription, TrackingLink } from '../../contract';
import type { FanstageClient } from '../client';

export function linksApi(client: FanstageClient) {
  return {
    statistics: (query: StatisticsQuery, signal?: AbortSignal) => client.get<Statistics>('/api/statistics', { ...query }, { signal }),
    links: (signal?: AbortSignal) => client.get<TrackingLink[]>('/api/links', undefined, { signal }),
    createLink: (body: CreateLinkBody) => client.post<TrackingLink>('/api/links', body),
    endLink: (id: number) => client.post<TrackingLink>(`/api/links/${encodeURIComponent(String(id))}/end`, {}),
    /** A visit through `/{username}?l={code}`: the server counts it and answers the link's free trial, if open. */
    visit: (username: string, code: string) => client.post<LinkLanding>('/papi/links/visit', { username, code }),
    /**
     * A visit through a widget's `link` attribute on any page: the signed-in fan's, or the
     * page's visitor's (`visitor`, the id an earlier answer gave; a first visit is answered one).
     */
    widgetVisit: (code: string, options: { username?: string; visitor?: string } = {}) => client.post<LinkLanding>('/papi/links/widget-visit', { code, ...options }),
    /** The first-month discount the viewer's next subscription to `creatorId` would get now (a link brought him), or `{ discount: null }`. */
    discount: (creatorId: number, signal?: AbortSignal) => client.get<FirstMonthDiscount>('/api/links/discount', { creatorId }, { signal }),
    /** Takes a link's free trial: a subscription running its days with nothing paid. */
    takeTrial: (code: string) => client.post<Subscription>('/api/links/trial', { code }),
  };
}

export type LinksApi = ReturnType<typeof linksApi>;

/** The browser's own time zone, or UTC where it has none to tell. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const csvCell = (value: string | number) => {
  const text = String(value);
  return /[",\n\r]/.test(text) || /^[=+\-@]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/**
 * The statistics as CSV: a header row, then one row a period with its total and each series in
 * cents; `names` gives each series' column title (its kind, place or link named for people).
 */
export function statisticsCsv(data: Statistics, names: (group: 'kind' | 'place' | 'link', key: string, label: string) => string): string {
  const groups = [
    ['kind', data.byKind],
    ['place', data.byPlace],
    ['link', data.byLink],
  ] as const;
  const header = ['period', 'total', ...groups.flatMap(([group, series]) => series.map((s) => `${group}: ${names(group, s.key, s.label)}`)), 'subscribers gained', 'subscribers lost'];
  const lines = data.periods.map((period, i) => [
    period,
    data.totals[i] ?? 0,
    ...groups.flatMap(([, series]) => series.map((s) => s.values[i] ?? 0)),
    data.subscribersGained[i] ?? 0,
    data.subscribersLost[i] ?? 0,
  ]);
  return [header, ...lines].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export function createStatisticsStore(client: FanstageClient) {
  const api = linksApi(client);
  const data = signal<Statistics | null>(null);
  const status = signal<'idle' | 'loading' | 'ready' | 'error'>('idle');
  const error = signal<unknown>(null);
  const links = signal<readonly TrackingLink[] | null>(null);
  let running: AbortController | null = null;

  async function load(query: StatisticsQuery = {}): Promise<Statistics | null> {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    status.value = 'loading';
    try {
      const answer = await api.statistics({ ...query, tz: query.tz ?? browserTimeZone() }, controller.signal);
      if (controller.signal.aborted) return null;
      data.value = answer;
      error.value = null;
      status.value = 'ready';
      return answer;
    } catch (caught) {
      if (controller.signal.aborted) return null;
      error.value = caught;
      status.value = 'error';
      throw caught;
    }
  }

  async function loadLinks(): Promise<readonly TrackingLink[]> {
    const answer = await api.links();
    links.value = answer;
    return answer;
  }

  async function createLink(body: CreateLinkBody): Promise<TrackingLink> {
    const made = await api.createLink(body);
    links.value = [made, ...(links.peek() ?? [])];
    return made;
  }

  async function endLink(id: number): Promise<TrackingLink> {
    const ended = await api.endLink(id);
    links.value = (links.peek() ?? []).map((link) => (link.id === id ? ended : link));
    return ended;
  }

  return {
    data: data as ReadonlySignal<Statistics | null>,
    status: status as ReadonlySignal<'idle' | 'loading' | 'ready' | 'error'>,
    error: error as ReadonlySignal<unknown>,
    links: links as ReadonlySignal<readonly TrackingLink[] | null>,
    load,
    loadLinks,
    createLink,
    endLink,
    csv: (names: Parameters<typeof statisticsCsv>[1]) => {
      const current = data.peek();
      return current ? statisticsCsv(current, names) : '';
    },
    /** Stops a load on its way. */
    dispose: () => running?.abort(),
  };
}

export type StatisticsStore = ReturnType<typeof createStatisticsStore>;
