import { useCallback, useEffect, useId, useRef, useState, type ComponentType } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import type { QuickSearchProps } from '../../lib/ui/QuickSearch/QuickSearch';
import { QuickSearchBox } from '../../lib/ui/QuickSearch/QuickSearchBox';
import { whenIdle } from '../../lib/ui/idle';
import styles from './HeaderSearch.module.css';

let loading: Promise<ComponentType<QuickSearchProps>> | null = null;
function loadQuickSearch(): Promise<ComponentType<QuickSearchProps>> {
  loading ??= import('../../lib/ui/QuickSearch/QuickSearch').then(
    (m) => m.QuickSearch,
    (error: unknown) => {
      // Offline, or a deploy removed the old file: the next focus tries again.
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * The header's quick search box (SPEC §2): Enter goes to the Discover search for the text,
 * a result opens the creator or the hashtag in place.
 *
 * The first screen draws the box alone (QuickSearchBox); the results' code comes when the
 * browser is idle, or at once when someone reaches the box first, and takes over the box with
 * what was typed and the focus. Until then, and if it cannot be fetched, Enter still searches.
 */
export function HeaderSearch() {
  const [location, navigate] = useLocation();
  const submit = useCallback((q: string) => navigate(`/discover?q=${encodeURIComponent(q)}`), [navigate]);
  // The results page keeps what was searched for in the box.
  const searchString = useSearch();
  const shown = location === '/discover' ? (new URLSearchParams(searchString).get('q') ?? '').trim().slice(0, 100) : '';
  const [QuickSearch, setQuickSearch] = useState<ComponentType<QuickSearchProps> | null>(null);
  const [typed, setTyped] = useState({ value: shown, focused: false });
  useEffect(() => {
    if (shown) setTyped((was) => (was.focused ? was : { value: shown, focused: false }));
  }, [shown]);
  const want = useCallback(() => {
    loadQuickSearch()
      .then((component) => setQuickSearch(() => component))
      .catch(() => undefined);
  }, []);
  useEffect(() => whenIdle(want), [want]);

  if (QuickSearch) {
    return (
      <QuickSearch
        className={styles.search}
        initialValue={typed.value === shown ? '' : typed.value}
        query={shown || undefined}
        autoFocus={typed.focused}
        onSubmit={submit}
        onNavigate={(href) => navigate(href)}
      />
    );
  }
  return <SearchBoxAlone value={typed.value} onTyped={setTyped} onWanted={want} onSubmit={submit} />;
}

function SearchBoxAlone(props: {
  value: string;
  onTyped: (typed: { value: string; focused: boolean }) => void;
  onWanted: () => void;
  onSubmit: (q: string) => void;
}) {
  const { t } = useTranslation();
  const base = useId();
  const input = useRef<HTMLInputElement>(null);
  const { value, onTyped } = props;
  return (
    <QuickSearchBox
      className={styles.search}
      ids={{ input: `${base}-input`, hint: `${base}-hint` }}
      labels={{ input: t('search.label'), placeholder: t('search.placeholder'), hint: t('search.hint'), clear: t('search.clear') }}
      onClear={
        value
          ? () => {
              onTyped({ value: '', focused: true });
              input.current?.focus();
            }
          : undefined
      }
      input={{
        ref: input,
        value,
        onPointerEnter: props.onWanted,
        onFocus() {
          onTyped({ value, focused: true });
          props.onWanted();
        },
        onBlur: () => onTyped({ value, focused: false }),
        onChange: (event) => onTyped({ value: event.target.value, focused: true }),
        onKeyDown(event) {
          if (event.key === 'Enter' && value.trim()) {
            event.preventDefault();
            props.onSubmit(value.trim());
          } else if (event.key === 'Escape' && value) {
            event.preventDefault();
            onTyped({ value: '', focused: true });
          }
        },
      }}
    />
  );
}
