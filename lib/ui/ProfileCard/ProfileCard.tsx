import { useState, type ElementType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import styles from './ProfileCard.module.css';
import { FollowButton } from '../FollowButton';
import type { UseFollowButtonOptions } from '../FollowButton';
import { useProfileCard, type ProfileCardData, type ProfileCardState } from './useProfileCard';

type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

interface ViewOptions {
  /** Level of the display name's heading: 1 on a profile page, 2 (default) or lower in a widget. */
  headingLevel?: HeadingLevel;
  className?: string;
  /** The language of the texts, so screen readers pronounce a Czech card on an English page right. */
  lang?: string;
  /** Shown under the name once the profile is loaded, e.g. a follow button. */
  actions?: ReactNode;
}

export type ProfileCardViewProps = ProfileCardState & ViewOptions;

export interface ProfileCardProps extends ViewOptions {
  /** The creator's username (or numeric id). */
  username: string;
  /** Makes the display name a link, e.g. to the profile on the platform. */
  href?: string;
  /** Shows a follow button on the card (default false). */
  follow?: boolean;
  /** What the follow button does for a visitor who is not logged in; see `FollowButton`. */
  onLoginRequired?: UseFollowButtonOptions['onLoginRequired'];
}

/** A creator's public profile card, loaded through the nearest FanstageProvider. */
export function ProfileCard({ username, href, follow = false, onLoginRequired, ...view }: ProfileCardProps) {
  const state = useProfileCard(username, href ? { href } : {});
  const { i18n } = useTranslation();
  const actions = follow ? <FollowButton username={username} {...(onLoginRequired ? { onLoginRequired } : {})} /> : undefined;
  return <ProfileCardView lang={i18n.resolvedLanguage ?? i18n.language} actions={actions} {...state} {...view} />;
}

/** The card's markup for a given state; no data fetching, no translation. */
export function ProfileCardView(props: ProfileCardViewProps) {
  const rootClass = ['fs-root', styles.root, props.className].filter(Boolean).join(' ');
  return (
    <div className={rootClass} lang={props.lang}>
      {renderState(props)}
    </div>
  );
}

function renderState(props: ProfileCardViewProps) {
  switch (props.status) {
    case 'loading':
      return (
        <div className={`${styles.card} ${styles.loading}`} role="status" aria-busy="true">
          <span className={`${styles.bone} ${styles.boneAvatar}`} aria-hidden="true" />
          <div className={styles.body} aria-hidden="true">
            <span className={styles.bone} style={{ width: '9em', height: '1.3em' }} />
            <span className={styles.bone} style={{ width: '6em' }} />
            <span className={styles.bone} style={{ width: '12em' }} />
            <span className={styles.bone} style={{ width: '15em' }} />
          </div>
          <span className={styles.visuallyHidden}>{props.message}</span>
        </div>
      );
    case 'not-found':
      return (
        <div className={`${styles.card} ${styles.status}`} role="status">
          <p className={styles.message}>{props.message}</p>
        </div>
      );
    case 'error':
      return (
        <div className={`${styles.card} ${styles.status}`} role="alert">
          <p className={`${styles.message} ${styles.error}`}>{props.message}</p>
          {props.detail ? <p className={styles.message}>{props.detail}</p> : null}
          <button type="button" className={styles.retry} onClick={props.onRetry}>
            {props.retryLabel}
          </button>
        </div>
      );
    case 'ready':
      return <ReadyCard profile={props.profile} headingLevel={props.headingLevel ?? 2} actions={props.actions} />;
  }
}

function ReadyCard({ profile, headingLevel, actions }: { profile: ProfileCardData; headingLevel: HeadingLevel; actions?: ReactNode }) {
  // A broken or missing picture falls back to the initials instead of a broken-image icon.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const Heading = `h${headingLevel}` as ElementType;
  const avatar = profile.avatar && profile.avatar.src !== failedSrc ? profile.avatar : null;

  return (
    <article className={styles.card} aria-label={profile.displayName}>
      <div className={styles.avatarWrap}>
        {avatar ? (
          <img
            className={styles.avatar}
            src={avatar.src}
            alt={avatar.alt}
            width={120}
            height={120}
            loading="lazy"
            decoding="async"
            onError={() => setFailedSrc(avatar.src)}
          />
        ) : (
          <span className={styles.initials} role="img" aria-label={profile.initialsLabel}>
            <span aria-hidden="true">{profile.initials}</span>
          </span>
        )}
        {profile.online ? (
          <span className={styles.online} role="img" aria-label={profile.online.label} title={profile.online.label} />
        ) : null}
      </div>

      <div className={styles.body}>
        <div className={styles.identity}>
          <Heading className={styles.name}>
            {profile.href ? (
              <a className={styles.nameLink} href={profile.href} aria-label={profile.linkLabel}>
                {profile.displayName}
              </a>
            ) : (
              <span>{profile.displayName}</span>
            )}
            {profile.verified ? <VerifiedBadge label={profile.verified.label} /> : null}
          </Heading>
          <p className={styles.handle}>{profile.handle}</p>
        </div>

        {actions ? <div className={styles.actions}>{actions}</div> : null}

        <ul className={styles.stats} aria-label={profile.statsLabel}>
          {profile.stats.map((stat) => (
            <li key={stat.key} data-stat={stat.key}>
              <span className={styles.statValue}>{stat.value}</span> {stat.label}
            </li>
          ))}
        </ul>

        {profile.bio ? <p className={styles.bio}>{profile.bio}</p> : null}

        {profile.prices.length > 0 ? (
          <ul className={styles.prices} aria-label={profile.pricesLabel}>
            {profile.prices.map((price) => (
              <li key={price.key} className={styles.price} data-price={price.key}>
                {price.label}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </article>
  );
}

function VerifiedBadge({ label }: { label: string }) {
  return (
    <svg className={styles.badge} viewBox="0 0 24 24" role="img" aria-label={label} focusable="false">
      <title>{label}</title>
      <path
        fill="currentColor"
        d="M12 1.5l2.6 1.9 3.2-.1 1 3 2.6 1.9-1 3.1 1 3.1-2.6 1.9-1 3-3.2-.1L12 22.5l-2.6-1.9-3.2.1-1-3-2.6-1.9 1-3.1-1-3.1 2.6-1.9 1-3 3.2.1z"
      />
      <path className={styles.badgeCheck} fill="none" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" d="M7.8 12.3l2.8 2.8 5.6-5.8" />
    </svg>
  );
}
