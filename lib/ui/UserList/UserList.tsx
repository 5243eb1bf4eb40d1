import type { MouseEventHandler } from 'react';
import '../theme/tokens.css';
import { ProfileCard, ProfileCardView } from '../ProfileCard';
import type { UseFollowButtonOptions } from '../FollowButton';
import type { PagedList, PublicProfile } from '../../sdk';
import { useUserList } from './useUserList';
import styles from './UserList.module.css';

export interface UserListProps {
  list: PagedList<PublicProfile>;
  /** Where a creator's name links to; default `/{username}`. */
  hrefFor?: (user: PublicProfile) => string;
  /** Level of each card's name heading (default 2). */
  headingLevel?: 2 | 3 | 4;
  /** Follow buttons on the cards (default true). */
  follow?: boolean;
  onLoginRequired?: UseFollowButtonOptions['onLoginRequired'];
  emptyText?: string;
  /** Accessible name of the list. */
  label?: string;
  className?: string;
  /** Clicks inside the list, e.g. to turn its plain links into in-app navigation. */
  onClick?: MouseEventHandler<HTMLElement>;
  testId?: string;
}

/** Creators in a grid of cards with follow buttons, paged with a Load more button. */
export function UserList({ list, hrefFor = (u) => `/${encodeURIComponent(u.username)}`, headingLevel = 2, follow = true, onLoginRequired, emptyText, label, className, onClick, testId }: UserListProps) {
  const state = useUserList(list, emptyText === undefined ? {} : { emptyText });
  const first = state.users.length === 0;
  return (
    <div className={['fs-root', styles.root, className].filter(Boolean).join(' ')} aria-busy={state.busy || undefined}>
      {first && state.busy ? (
        <div className={styles.grid} aria-hidden="true">
          {Array.from({ length: 4 }, (_, index) => (
            <ProfileCardView key={index} status="loading" message="" />
          ))}
        </div>
      ) : null}
      {state.users.length > 0 ? (
        // The click handler only turns the cards' plain links into in-app navigation.
        <ul className={styles.grid} aria-label={label} onClick={onClick} data-testid={testId}>
          {state.users.map((user) => (
            <li key={user.id} className={styles.item}>
              <ProfileCard username={user.username} href={hrefFor(user)} headingLevel={headingLevel} follow={follow} {...(onLoginRequired ? { onLoginRequired } : {})} />
            </li>
          ))}
        </ul>
      ) : null}
      {state.emptyText ? <p className={styles.message}>{state.emptyText}</p> : null}
      <p className={styles.status} role="status">
        {state.statusText}
      </p>
      {state.errorText ? (
        <div className={styles.message} role="alert">
          <p>{state.errorText}</p>
          <button type="button" className={styles.button} onClick={state.onRetry}>
            {state.retryLabel}
          </button>
        </div>
      ) : null}
      {state.loadMoreLabel && !state.errorText ? (
        <button type="button" className={styles.button} onClick={state.onLoadMore}>
          {state.loadMoreLabel}
        </button>
      ) : null}
    </div>
  );
}
