import type { MouseEvent } from 'react';
import '../theme/tokens.css';
import { useQuickSearch, type QuickSearchState, type UseQuickSearchOptions } from './useQuickSearch';
import { QuickSearchBox } from './QuickSearchBox';
import styles from './QuickSearch.module.css';

export interface QuickSearchProps extends UseQuickSearchOptions {
  className?: string;
  /** Follows a result in place (a router's navigate); plain link navigation when absent. */
  onNavigate?: (href: string) => void;
  /** Takes the focus when it appears (as when it replaces a box someone is typing in). */
  autoFocus?: boolean;
}

/** A search box with instant results (creators and hashtags), inside a `search` landmark. */
export function QuickSearch({ className, onNavigate, autoFocus, ...options }: QuickSearchProps) {
  const state = useQuickSearch(options);
  return <QuickSearchView {...state} {...(className ? { className } : {})} {...(onNavigate ? { onNavigate } : {})} {...(autoFocus ? { autoFocus } : {})} />;
}

export function QuickSearchView(props: QuickSearchState & { className?: string; onNavigate?: (href: string) => void; autoFocus?: boolean }) {
  const { ids, labels } = props;

  function follow(event: MouseEvent<HTMLAnchorElement>, href: string) {
    props.onPicked();
    if (!props.onNavigate || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    props.onNavigate(href);
  }

  return (
    <QuickSearchBox
      ids={ids}
      labels={labels}
      className={props.className}
      rootRef={props.rootRef}
      onBlur={props.onBlur}
      onClear={props.value ? props.onClear : undefined}
      input={{
        ref: props.inputRef,
        value: props.value,
        autoFocus: props.autoFocus,
        'aria-controls': ids.results,
        onChange: props.onChange,
        onKeyDown: props.onInputKeyDown,
        onFocus: props.onFocus,
      }}
    >
      <div id={ids.results} className={styles.panel} hidden={!props.open} onKeyDown={props.onListKeyDown}>
        <div className={styles.tabs} role="group" aria-label={labels.tabs}>
          {props.tabs.map((tab) => (
            <button key={tab.id} type="button" id={ids.tab(tab.id)} className={styles.tab} aria-pressed={tab.selected} onClick={() => props.onTab(tab.id)}>
              {tab.label}
            </button>
          ))}
        </div>
        <ul ref={props.listRef} className={styles.list} aria-label={labels.results}>
          {props.items.map((item) => (
            <li key={item.key}>
              <a className={styles.result} href={item.href} data-kind={item.kind} onClick={(event) => follow(event, item.href)}>
                {item.kind === 'user' ? (
                  item.avatar ? (
                    <img className={styles.avatar} src={item.avatar} alt="" width={36} height={36} loading="lazy" />
                  ) : (
                    <span className={styles.avatar} aria-hidden="true">
                      {Array.from(item.label)[0]?.toLocaleUpperCase()}
                    </span>
                  )
                ) : (
                  <span className={`${styles.avatar} ${styles.hash}`} aria-hidden="true">
                    #
                  </span>
                )}
                <span className={styles.text}>
                  <span className={styles.label}>{item.label}</span>
                  <span className={styles.detail}>{item.detail}</span>
                </span>
              </a>
            </li>
          ))}
        </ul>
        {props.statusText && props.items.length === 0 ? (
          <p className={styles.empty} aria-hidden="true">
            {props.statusText}
          </p>
        ) : null}
      </div>
      <p className={styles.visuallyHidden} role="status">
        {props.statusText}
      </p>
    </QuickSearchBox>
  );
}
