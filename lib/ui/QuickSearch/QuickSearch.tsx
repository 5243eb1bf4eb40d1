import type { MouseEvent } from 'react';
import '../theme/tokens.css';
import { useQuickSearch, type QuickSearchState, type UseQuickSearchOptions } from './useQuickSearch';
import styles from './QuickSearch.module.css';

export interface QuickSearchProps extends UseQuickSearchOptions {
  className?: string;
  /** Follows a result in place (a router's navigate); plain link navigation when absent. */
  onNavigate?: (href: string) => void;
}

/** A search box with instant results (creators and hashtags), inside a `search` landmark. */
export function QuickSearch({ className, onNavigate, ...options }: QuickSearchProps) {
  const state = useQuickSearch(options);
  return <QuickSearchView {...state} {...(className ? { className } : {})} {...(onNavigate ? { onNavigate } : {})} />;
}

export function QuickSearchView(props: QuickSearchState & { className?: string; onNavigate?: (href: string) => void }) {
  const { ids, labels } = props;

  function follow(event: MouseEvent<HTMLAnchorElement>, href: string) {
    props.onPicked();
    if (!props.onNavigate || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    props.onNavigate(href);
  }

  return (
    <div ref={props.rootRef} role="search" aria-label={props.labels.input} className={['fs-root', styles.root, props.className].filter(Boolean).join(' ')} onBlur={props.onBlur}>
      <label htmlFor={ids.input} className={styles.visuallyHidden}>
        {labels.input}
      </label>
      <div className={styles.box}>
        <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M16 16l4.5 4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <input
          ref={props.inputRef}
          id={ids.input}
          className={styles.input}
          type="search"
          autoComplete="off"
          enterKeyHint="search"
          maxLength={100}
          placeholder={labels.placeholder}
          value={props.value}
          aria-controls={ids.results}
          aria-describedby={ids.hint}
          onChange={props.onChange}
          onKeyDown={props.onInputKeyDown}
          onFocus={props.onFocus}
        />
        {props.value ? (
          <button type="button" className={styles.clear} aria-label={labels.clear} title={labels.clear} onClick={props.onClear}>
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        ) : null}
      </div>
      <span id={ids.hint} className={styles.visuallyHidden}>
        {labels.hint}
      </span>
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
    </div>
  );
}
