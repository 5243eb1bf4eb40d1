import type { KeyboardEvent, MouseEventHandler } from 'react';
import '../theme/tokens.css';
import { useNotificationList, type NotificationListState, type UseNotificationListOptions } from './useNotificationList';
import styles from './NotificationList.module.css';

export interface NotificationListProps extends UseNotificationListOptions {
  className?: string;
  /** Level of the group headings (default 2). */
  headingLevel?: 2 | 3;
  /** Clicks inside the list, e.g. to turn its plain links into in-app navigation. */
  onClick?: MouseEventHandler<HTMLElement>;
}

/** The viewer's notifications: tabs all, follow, subscriptions, replies; grouped today, this week, this month, older. */
export function NotificationList({ className, headingLevel, onClick, ...options }: NotificationListProps) {
  const state = useNotificationList(options);
  return <NotificationListView {...state} {...(className ? { className } : {})} {...(headingLevel ? { headingLevel } : {})} {...(onClick ? { onClick } : {})} />;
}

export function NotificationListView(props: NotificationListState & { className?: string; headingLevel?: 2 | 3; onClick?: MouseEventHandler<HTMLElement> }) {
  const Heading = props.headingLevel === 3 ? 'h3' : 'h2';

  // Arrow keys move between tabs, as in every tab list (WAI-ARIA tabs pattern).
  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    const index = props.tabs.findIndex((tab) => tab.selected);
    let next = -1;
    if (event.key === 'ArrowRight') next = (index + 1) % props.tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + props.tabs.length) % props.tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = props.tabs.length - 1;
    const tab = props.tabs[next];
    if (!tab) return;
    event.preventDefault();
    props.onTab(tab.id);
    document.getElementById(props.ids.tab(tab.id))?.focus();
  }

  const selected = props.tabs.find((tab) => tab.selected);
  return (
    <div className={['fs-root', styles.root, props.className].filter(Boolean).join(' ')}>
      <div className={styles.tabs} role="tablist" aria-label={props.labels.tabs} onKeyDown={onTabKey}>
        {props.tabs.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={props.ids.tab(tab.id)}
            className={styles.tab}
            aria-selected={tab.selected}
            aria-controls={props.ids.panel}
            tabIndex={tab.selected ? 0 : -1}
            onClick={() => props.onTab(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div id={props.ids.panel} role="tabpanel" aria-labelledby={selected ? props.ids.tab(selected.id) : undefined} className={styles.panel} aria-busy={props.busy || undefined} onClick={props.onClick}>
        {props.sections.map((section) => (
          <section key={section.group} className={styles.section} aria-labelledby={`${props.ids.panel}-${section.group}`} data-group={section.group}>
            <Heading id={`${props.ids.panel}-${section.group}`} className={styles.group}>
              {section.title}
            </Heading>
            <ul className={styles.list}>
              {section.rows.map((row) => {
                const body = (
                  <>
                    {row.avatar ? (
                      <img className={styles.avatar} src={row.avatar} alt="" width={44} height={44} loading="lazy" />
                    ) : (
                      <span className={styles.avatar} aria-hidden="true">
                        {row.initial}
                      </span>
                    )}
                    <span className={styles.text}>
                      <span className={styles.what}>
                        {row.unread ? <span className={styles.unread}>{props.unreadLabel}: </span> : null}
                        {row.text}
                      </span>
                      <time className={styles.time} dateTime={row.dateTime}>
                        {row.time}
                      </time>
                    </span>
                  </>
                );
                return (
                  <li key={row.id} className={styles.row} data-type={row.type} data-unread={row.unread || undefined}>
                    {row.href ? (
                      <a className={styles.link} href={row.href}>
                        {body}
                      </a>
                    ) : (
                      <div className={styles.link}>{body}</div>
                    )}
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
        {props.emptyText ? <p className={styles.message}>{props.emptyText}</p> : null}
        <p className={styles.status} role="status">
          {props.statusText}
        </p>
        {props.errorText ? (
          <div className={styles.message} role="alert">
            <p>{props.errorText}</p>
            <button type="button" className={styles.button} onClick={props.onLoadMore}>
              {props.retryLabel}
            </button>
          </div>
        ) : null}
        {props.loadMoreLabel ? (
          <button type="button" className={styles.button} onClick={props.onLoadMore}>
            {props.loadMoreLabel}
          </button>
        ) : null}
      </div>
    </div>
  );
}
