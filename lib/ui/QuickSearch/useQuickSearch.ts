import { useEffect, useId, useRef, useState, type ChangeEvent, type FocusEvent, type KeyboardEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { avatarUrl, quickSearchTabs, type PublicProfile, type QuickSearchTab, type TagResult } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';

export interface QuickSearchItem {
  key: string;
  kind: 'user' | 'tag';
  href: string;
  label: string;
  detail: string;
  avatar: string | null;
}

export interface UseQuickSearchOptions {
  /** Enter: show every result, e.g. go to `/discover?q=…` (SPEC §2). */
  onSubmit: (query: string) => void;
  /** Where a result leads; defaults `/{username}` and `/search-hashtags/{tag}`. */
  hrefForUser?: (user: PublicProfile) => string;
  hrefForTag?: (tag: TagResult) => string;
  /** Milliseconds of quiet typing before a search goes out (default 250). */
  debounceMs?: number;
  /** Text the box starts with, searched for at once (what was typed before the box came in). */
  initialValue?: string;
  /**
   * What the page shows results for (the results page's `q`): the box shows it, and shows it
   * again when it changes, without searching (the results are on the page).
   */
  query?: string | undefined;
}

export interface QuickSearchState {
  ids: { input: string; results: string; hint: string; tab: (tab: QuickSearchTab) => string };
  value: string;
  open: boolean;
  tab: QuickSearchTab;
  tabs: { id: QuickSearchTab; label: string; selected: boolean }[];
  items: QuickSearchItem[];
  statusText: string;
  rootRef: React.RefObject<HTMLDivElement>;
  listRef: React.RefObject<HTMLUListElement>;
  inputRef: React.RefObject<HTMLInputElement>;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onInputKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
  onListKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  onFocus: () => void;
  onBlur: (event: FocusEvent<HTMLElement>) => void;
  onTab: (tab: QuickSearchTab) => void;
  onClear: () => void;
  /** After following a result: the box closes and empties. */
  onPicked: () => void;
  labels: { input: string; placeholder: string; clear: string; tabs: string; results: string; hint: string };
}

/**
 * The quick search box (SPEC §2): results as one types, at most 8; Enter goes to the full
 * search, Escape clears, Down moves into the results, where Up and Down move on and Escape
 * comes back to the box. Tabs start at best.
 */
export function useQuickSearch({ onSubmit, hrefForUser, hrefForTag, debounceMs = 250, initialValue = '', query: shownQuery }: UseQuickSearchOptions): QuickSearchState {
  useSignals();
  const { t } = useTranslation();
  const { search, settings } = useFanstage();
  const quick = search.quick;
  const [value, setValue] = useState(initialValue || shownQuery || '');
  const [focused, setFocused] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const base = useId();

  useEffect(() => {
    if (settings.status.peek() === 'idle') settings.load().catch(() => undefined);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [settings]);

  // What was typed before the box came in is searched for at once.
  const typedBefore = useRef(initialValue);
  useEffect(() => {
    if (typedBefore.current.trim()) void quick.search(typedBefore.current);
  }, [quick]);

  useEffect(() => {
    if (shownQuery) setValue(shownQuery);
  }, [shownQuery]);

  const cdn = settings.settings.value?.mediaCDN ?? null;
  const status = quick.status.value;
  const results = quick.results.value;
  const tab = quick.tab.value;
  const query = quick.query.value;

  const items: QuickSearchItem[] = results.map((result) =>
    result.kind === 'user'
      ? {
          key: `u${result.user.id}`,
          kind: 'user',
          href: hrefForUser ? hrefForUser(result.user) : `/${encodeURIComponent(result.user.username)}`,
          label: result.user.displayName.trim() || result.user.username,
          detail: `@${result.user.username}`,
          avatar: cdn ? avatarUrl(cdn, result.user.avatarMedia, 60) : null,
        }
      : {
          key: `t${result.tag.tag}`,
          kind: 'tag',
          href: hrefForTag ? hrefForTag(result.tag) : `/search-hashtags/${encodeURIComponent(result.tag.tag)}`,
          label: `#${result.tag.tag}`,
          detail: t('search.tagPosts', { count: result.tag.count }),
          avatar: null,
        },
  );

  function schedule(text: string) {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void quick.search(text), text.trim() ? debounceMs : 0);
  }

  function clear() {
    if (timer.current) clearTimeout(timer.current);
    setValue('');
    quick.clear();
  }

  function links(): HTMLAnchorElement[] {
    return Array.from(listRef.current?.querySelectorAll<HTMLAnchorElement>('a[href]') ?? []);
  }

  const open = focused && value.trim() !== '';
  let statusText = '';
  if (open && query.trim()) {
    if (status === 'loading') statusText = t('search.loading');
    else if (status === 'error') statusText = t('search.error');
    else if (status === 'ready') statusText = items.length ? t('search.resultCount', { count: items.length }) : t('search.noResults', { q: query.trim() });
  }

  return {
    ids: { input: `${base}-input`, results: `${base}-results`, hint: `${base}-hint`, tab: (id) => `${base}-tab-${id}` },
    value,
    open,
    tab,
    tabs: quickSearchTabs.map((id) => ({ id, label: t(`search.tabs.${id}`), selected: id === tab })),
    items,
    statusText,
    rootRef,
    listRef,
    inputRef,
    onChange(event) {
      // Typing again in the box that Enter closed (the focus never left it) opens the results.
      setFocused(true);
      setValue(event.target.value);
      schedule(event.target.value);
    },
    onInputKeyDown(event) {
      if (event.key === 'Enter') {
        event.preventDefault();
        const text = value.trim();
        if (!text) return;
        setFocused(false);
        onSubmit(text);
      } else if (event.key === 'Escape') {
        if (!value) return;
        event.preventDefault();
        clear();
      } else if (event.key === 'ArrowDown') {
        const first = links()[0];
        if (first) {
          event.preventDefault();
          first.focus();
        }
      }
    },
    onListKeyDown(event) {
      const all = links();
      const index = all.indexOf(document.activeElement as HTMLAnchorElement);
      if (event.key === 'ArrowDown' && index >= 0) {
        event.preventDefault();
        all[Math.min(all.length - 1, index + 1)]?.focus();
      } else if (event.key === 'ArrowUp' && index >= 0) {
        event.preventDefault();
        if (index === 0) inputRef.current?.focus();
        else all[index - 1]?.focus();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        inputRef.current?.focus();
      }
    },
    onFocus: () => setFocused(true),
    onBlur(event) {
      // Focus moving between the box, its tabs and its results keeps the results open.
      if (!rootRef.current?.contains(event.relatedTarget as Node | null)) setFocused(false);
    },
    onTab: (id) => void quick.setTab(id),
    onClear() {
      clear();
      inputRef.current?.focus();
    },
    onPicked() {
      clear();
      setFocused(false);
    },
    labels: {
      input: t('search.label'),
      placeholder: t('search.placeholder'),
      clear: t('search.clear'),
      tabs: t('search.tabsLabel'),
      results: t('search.results'),
      hint: t('search.hint'),
    },
  };
}
