import { lazy, Suspense, useId, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import type { UseFollowButtonOptions } from '../FollowButton';
import { useProfileHover, type UseProfileHoverOptions } from './useProfileHover';
import styles from './ProfileHover.module.css';

// Loaded on the first hover: a feed is mostly scrolled past without one.
const ProfileCard = lazy(() => import('../ProfileCard/ProfileCard').then((m) => ({ default: m.ProfileCard })));

export interface ProfileHoverProps extends UseProfileHoverOptions {
  username: string;
  /** The profile's address, for the card's name. */
  href?: string;
  onLoginRequired?: UseFollowButtonOptions['onLoginRequired'];
  /** The name or the picture the card belongs to. */
  children: ReactNode;
  className?: string;
}

/**
 * The quick profile hover of SPEC §2: resting on an author's name or picture (or reaching it
 * with the keyboard) for 500 ms opens a small profile card with a follow button beside it;
 * leaving both for 250 ms closes it, Escape at once. Never for oneself or a blocked user; the
 * host turns it off where it does not belong (phone layouts, quick search).
 */
export function ProfileHover({ username, href, onLoginRequired, children, className, ...options }: ProfileHoverProps) {
  const hover = useProfileHover(options);
  const { t } = useTranslation();
  const cardId = useId();
  if (!hover.available) return <>{children}</>;
  const onBlur = (event: FocusEvent<HTMLSpanElement>) => {
    // Focus moving inside (from the name to the card's follow button) is not leaving.
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) hover.leave();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLSpanElement>) => {
    if (event.key === 'Escape' && hover.open) {
      event.stopPropagation();
      hover.close();
    }
  };
  return (
    <span
      className={[styles.anchor, className].filter(Boolean).join(' ')}
      onMouseEnter={hover.enter}
      onMouseLeave={hover.leave}
      onFocus={hover.enter}
      onBlur={onBlur}
      onKeyDown={onKeyDown}
      data-profile-hover=""
    >
      {children}
      {hover.open ? (
        <span className={styles.popover} id={cardId} role="group" aria-label={t('posts.hover.label', { name: username })} data-testid="profile-hover">
          <Suspense fallback={null}>
            <ProfileCard username={username} {...(href ? { href } : {})} headingLevel={4} follow {...(onLoginRequired ? { onLoginRequired } : {})} />
          </Suspense>
        </span>
      ) : null}
    </span>
  );
}
