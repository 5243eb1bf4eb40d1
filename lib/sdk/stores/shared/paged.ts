/**
 * Paged lists, the way every store pages (SPEC §4): a first page, then the next one when asked,
 * until a page comes back shorter than asked for. `createPagedList` is the whole list for plain
 * lists (search results, transactions, notifications); a store whose list is more than pages
 * (the chat's conversations, moved by live messages) keeps its own items and uses
 * `PagedStatus` and `pageStatusAfter` so its status reads the same as every other list's.
 */
import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import type { SdkError } from '../../errors';
import { asSdkError } from './errors';

/** SPEC §4 paging states: nothing asked yet, a page on its way, more to come, the end, a failure. */
export type PagedStatus = 'idle' | 'loading' | 'ready' | 'ended' | 'error';

/** The status after a page of `received` items arrived: a page shorter than asked for is the last one (SPEC §4). */
export function pageStatusAfter(received: number, pageSize: number): 'ready' | 'ended' {
  return received < pageSize ? 'ended' : 'ready';
}

/** Where the next page starts: how many are loaded, and the last item. */
export interface PageCursor<T> {
  offset: number;
  last: T | undefined;
  limit: number;
}

export interface PagedListOptions<T> {
  pageSize: number;
  fetchPage: (cursor: PageCursor<T>, signal: AbortSignal) => Promise<T[]>;
  /**
   * SPEC §5 user lists: when a next page is asked for with this many items loaded already,
   * nothing is fetched. Absent for lists that page on until a short page.
   */
  cap?: number;
  /** Identifies an item, so one returned again by an offset page that shifted is not shown twice. */
  idOf?: (item: T) => number | string;
  /** Told about every page that arrives, e.g. to keep the profiles in the profile store. */
  onPage?: (items: T[]) => void;
}

export interface PagedList<T> {
  readonly items: ReadonlySignal<readonly T[]>;
  readonly status: ReadonlySignal<PagedStatus>;
  readonly error: ReadonlySignal<SdkError | null>;
  /** Whether asking for the next page would fetch anything. */
  readonly canLoadMore: ReadonlySignal<boolean>;
  /** Loads the first page, dropping what was loaded; a page still on its way is abandoned. */
  reload(): Promise<void>;
  /**
   * Takes in what is new at the top without dropping what is shown: the first page is fetched
   * again and goes first, an item it holds again moving up in its new form (a merged
   * notification counting one more), the items below staying as they were — unless more came
   * than a page holds, when the list starts again from that page. Before the first page it
   * loads it; a page on its way is abandoned. On failure the list stays as it was.
   */
  refresh(): Promise<void>;
  /** Loads the first page once; later calls do nothing. */
  start(): Promise<void>;
  /** The next page, unless one is on its way, the list ended, or the cap is reached. */
  nextPage(): Promise<void>;
  /** Drops an item everywhere it is shown (a blocked user, a deleted post). */
  remove(id: number | string): void;
  dispose(): void;
}

export function createPagedList<T>(options: PagedListOptions<T>): PagedList<T> {
  const items = signal<readonly T[]>([]);
  const status = signal<PagedStatus>('idle');
  const error = signal<SdkError | null>(null);
  const canLoadMore = computed(() => status.value === 'ready' && (options.cap === undefined || items.value.length < options.cap));
  let controller: AbortController | null = null;

  async function fetchInto(reset: boolean): Promise<void> {
    controller?.abort();
    const own = new AbortController();
    controller = own;
    const loaded = reset ? [] : items.peek();
    batch(() => {
      if (reset) items.value = [];
      status.value = 'loading';
      error.value = null;
    });
    try {
      const page = await options.fetchPage({ offset: loaded.length, last: loaded.at(-1), limit: options.pageSize }, own.signal);
      if (own.signal.aborted) return;
      options.onPage?.(page);
      const idOf = options.idOf;
      const known = idOf ? new Set(loaded.map(idOf)) : null;
      const fresh = known && idOf ? page.filter((item) => !known.has(idOf(item))) : page;
      batch(() => {
        items.value = [...loaded, ...fresh];
        status.value = pageStatusAfter(page.length, options.pageSize);
      });
    } catch (cause) {
      if (own.signal.aborted) return;
      batch(() => {
        error.value = asSdkError(cause);
        status.value = 'error';
      });
    } finally {
      if (controller === own) controller = null;
    }
  }

  async function refresh(): Promise<void> {
    const before = status.peek();
    const idOf = options.idOf;
    if (before === 'idle' || items.peek().length === 0 || !idOf) return fetchInto(true);
    controller?.abort();
    const own = new AbortController();
    controller = own;
    // A next page that was on its way is asked for again later; the end stays the end.
    const after = before === 'ended' ? 'ended' : 'ready';
    status.value = 'loading';
    try {
      const page = await options.fetchPage({ offset: 0, last: undefined, limit: options.pageSize }, own.signal);
      if (own.signal.aborted) return;
      options.onPage?.(page);
      const fresh = new Set(page.map(idOf));
      const shown = items.peek();
      // More came than a page holds when the page does not reach down to what was on top: the
      // rows shown would sit after a gap, so the list starts again from this page.
      const gap = page.length === options.pageSize && !fresh.has(idOf(shown[0]!));
      batch(() => {
        items.value = gap ? page : [...page, ...shown.filter((item) => !fresh.has(idOf(item)))];
        status.value = page.length < options.pageSize ? 'ended' : gap ? 'ready' : after;
      });
    } catch {
      if (!own.signal.aborted) status.value = after;
    } finally {
      if (controller === own) controller = null;
    }
  }

  return {
    items,
    status,
    error,
    canLoadMore,
    reload: () => fetchInto(true),
    refresh,
    start: () => (status.peek() === 'idle' ? fetchInto(true) : Promise.resolve()),
    nextPage() {
      const now = status.peek();
      if (now === 'idle') return fetchInto(true);
      if (now === 'loading' || now === 'ended') return Promise.resolve();
      // After a failed next page the same page is asked for again; after a failed first page, the first.
      if (options.cap !== undefined && items.peek().length >= options.cap) return Promise.resolve();
      return fetchInto(items.peek().length === 0);
    },
    remove(id) {
      const idOf = options.idOf;
      if (!idOf) return;
      items.value = items.peek().filter((item) => idOf(item) !== id);
    },
    dispose() {
      controller?.abort();
      controller = null;
    },
  };
}
