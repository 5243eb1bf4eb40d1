import type { MouseEventHandler } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { useConversationList, type ConversationListState, type UseConversationListOptions } from './useConversationList';
import styles from './ConversationList.module.css';

export interface ConversationListProps extends UseConversationListOptions {
  /** The list's accessible name; "Conversations" by default. */
  label?: string;
  /** Clicks on the rows' plain links, e.g. for in-app navigation. */
  onClick?: MouseEventHandler<HTMLElement>;
  className?: string;
}

/** The viewer's conversations (SPEC §2 ChatList): search, newest activity first, unread counts, archive. */
export function ConversationList({ label, onClick, className, ...options }: ConversationListProps) {
  const state = useConversationList(options);
  return <ConversationListView {...state} {...(label ? { label } : {})} {...(onClick ? { onClick } : {})} {...(className ? { className } : {})} />;
}

export function ConversationListView(props: ConversationListState & { label?: string; onClick?: MouseEventHandler<HTMLElement>; className?: string }) {
  const { t, i18n } = useTranslation();
  const label = props.label ?? t('chat.list.label');
  return (
    <div className={['fs-root', styles.root, props.className].filter(Boolean).join(' ')} lang={i18n.resolvedLanguage ?? i18n.language}>
      {props.searchable ? (
        <div className={styles.search} role="search" aria-label={t('chat.list.search')}>
          <label htmlFor={props.ids.search} className={styles.visuallyHidden}>
            {t('chat.list.search')}
          </label>
          <input
            id={props.ids.search}
            className={styles.searchField}
            type="search"
            value={props.query}
            placeholder={t('chat.list.searchPlaceholder')}
            autoComplete="off"
            onChange={(event) => props.setQuery(event.target.value)}
          />
        </div>
      ) : null}
      <p className={props.statusText ? styles.status : styles.visuallyHidden} role="status">
        {props.statusText}
      </p>
      {props.notice ? (
        <p className={props.notice.kind === 'success' ? styles.success : styles.alert} role={props.notice.kind === 'success' ? 'status' : 'alert'}>
          {props.notice.text}
        </p>
      ) : null}
      <ul id={props.ids.list} className={styles.list} aria-label={label} aria-busy={props.busy || undefined} onClick={props.onClick}>
        {props.rows.map((row) => (
          <li key={row.userId} className={styles.row} data-active={row.active || undefined} data-unread={row.unread > 0 || undefined}>
            {/* Named by what it shows (the name first, then the time, the last message, the unread
                count), after a hidden "Chat with": what is read out starts as what is seen. */}
            <a className={styles.link} href={row.href} aria-current={row.active ? 'page' : undefined}>
              <span className={styles.avatarWrap}>
                {row.avatar ? (
                  <img className={styles.avatar} src={row.avatar} alt="" width={44} height={44} loading="lazy" />
                ) : (
                  <span className={styles.avatar} aria-hidden="true">
                    {row.initial}
                  </span>
                )}
                {row.online ? <span className={styles.online} aria-hidden="true" /> : null}
              </span>
              <span className={styles.body}>
                <span className={styles.top}>
                  <span className={styles.name}>
                    <span className={styles.visuallyHidden}>{t('chat.list.openPrefix')}</span> {row.name}
                  </span>{' '}
                  {row.dateTime ? (
                    <time className={styles.time} dateTime={row.dateTime}>
                      {row.time}
                    </time>
                  ) : null}
                </span>{' '}
                <span className={styles.bottom}>
                  <span className={row.typing ? `${styles.preview} ${styles.typing}` : styles.preview}>{row.preview}</span>{' '}
                  {row.unread > 0 ? (
                    <span className={styles.unread}>
                      <span aria-hidden="true">{row.unread > 99 ? '99+' : row.unread}</span>
                      <span className={styles.visuallyHidden}>{row.unreadLabel}</span>
                    </span>
                  ) : null}
                </span>
              </span>
            </a>
            {props.canArchive ? (
              <button type="button" className={styles.archive} onClick={() => props.archive(row.userId)} aria-label={t('chat.list.archive', { name: row.name })} title={t('chat.list.archive', { name: row.name })}>
                <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                  <path fill="currentColor" d="M20.5 5.2 19.1 3.5A1.5 1.5 0 0 0 18 3H6a1.5 1.5 0 0 0-1.2.5L3.5 5.2A2 2 0 0 0 3 6.5V19a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6.5a2 2 0 0 0-.5-1.3ZM12 17.5 6.5 12H10v-2h4v2h3.5ZM5.1 5l.8-1h12l.9 1Z" />
                </svg>
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {props.emptyText ? <p className={styles.empty}>{props.emptyText}</p> : null}
      {props.errorText ? (
        <div className={styles.alert} role="alert">
          <p>{props.errorText}</p>
          <button type="button" className={styles.more} onClick={props.retry}>
            {t('chat.retry')}
          </button>
        </div>
      ) : null}
      {props.canLoadMore ? (
        <button type="button" className={styles.more} onClick={props.loadMore}>
          {t('chat.list.more')}
        </button>
      ) : null}
    </div>
  );
}
