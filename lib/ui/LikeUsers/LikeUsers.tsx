import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { Dialog } from '../dialog/Dialog';
import { FollowButton } from '../FollowButton';
import { defaultPostHrefs } from '../PostCard/usePostCard';
import { useLikeUsers } from './useLikeUsers';
import styles from './LikeUsers.module.css';

export interface LikeUsersProps {
  postId: number;
  onClose: () => void;
  /** Where a name links to; the site's `/{username}` by default. */
  hrefFor?: (username: string) => string;
  /** A click inside the list, e.g. to turn its plain links into in-app navigation. */
  onNavigate?: (event: React.MouseEvent<HTMLElement>) => void;
}

/** The like-users list of SPEC §2: who liked a post, 15 at a time, with follow buttons. */
export function LikeUsers({ postId, onClose, hrefFor = defaultPostHrefs.profile, onNavigate }: LikeUsersProps) {
  const state = useLikeUsers(postId, hrefFor);
  const { t, i18n } = useTranslation();
  return (
    <Dialog title={t('posts.likers.title')} size="sheet" onClose={onClose} lang={i18n.resolvedLanguage ?? i18n.language} data-testid="like-users">
      <div aria-busy={state.busy || undefined}>
        {state.rows.length > 0 ? (
          <ul className={styles.list} aria-label={t('posts.likers.title')} onClick={onNavigate}>
            {state.rows.map((row) => (
              <li key={row.user.id} className={styles.row}>
                <a className={styles.person} href={row.href}>
                  {row.avatar ? <img className={styles.avatar} src={row.avatar} alt="" width={40} height={40} loading="lazy" /> : <span className={styles.initials} aria-hidden="true">{row.initials}</span>}
                  <span className={styles.names}>
                    <span className={styles.name}>{row.name}</span>
                    <span className={styles.handle}>{row.handle}</span>
                  </span>
                </a>
                {row.self ? null : <FollowButton userId={row.user.id} className={styles.follow} />}
              </li>
            ))}
          </ul>
        ) : null}
        <p className={styles.status} role="status">
          {state.statusText}
        </p>
        {state.emptyText ? <p className={styles.message}>{state.emptyText}</p> : null}
        {state.errorText ? (
          <div className={styles.message} role="alert">
            <p>{state.errorText}</p>
            <button type="button" className={styles.button} onClick={state.onRetry}>
              {t('posts.retry')}
            </button>
          </div>
        ) : null}
        {state.moreLabel && !state.errorText ? (
          <button type="button" className={styles.button} onClick={state.onMore}>
            {state.moreLabel}
          </button>
        ) : null}
      </div>
    </Dialog>
  );
}
