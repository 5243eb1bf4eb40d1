import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { useFollowButton, type FollowButtonState, type UseFollowButtonOptions } from './useFollowButton';
import styles from './FollowButton.module.css';

interface ViewOptions {
  className?: string;
  lang?: string;
}

export type FollowButtonViewProps = FollowButtonState & ViewOptions;

/** The user to follow: by `userId` or by `username`. */
export type FollowButtonProps = Omit<UseFollowButtonOptions, 'user'> &
  ViewOptions &
  ({ userId: number; username?: undefined } | { username: string; userId?: undefined });

/** A follow toggle for one user, through the nearest FanstageProvider. */
export function FollowButton({ userId, username, onLoginRequired, confirmUnfollow, ...view }: FollowButtonProps) {
  const state = useFollowButton({
    user: userId ?? username,
    ...(onLoginRequired ? { onLoginRequired } : {}),
    ...(confirmUnfollow ? { confirmUnfollow } : {}),
  });
  const { i18n } = useTranslation();
  return <FollowButtonView lang={i18n.resolvedLanguage ?? i18n.language} {...state} {...view} />;
}

export function FollowButtonView(props: FollowButtonViewProps) {
  if (props.hidden) return null;
  return (
    <span className={['fs-root', styles.root, props.className].filter(Boolean).join(' ')} lang={props.lang}>
      <button
        type="button"
        className={styles.button}
        aria-pressed={props.pressed}
        aria-disabled={props.busy || undefined}
        aria-busy={props.busy || undefined}
        onClick={props.onClick}
      >
        {props.pressed ? (
          <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" d="M5 12.5l4.5 4.5L19 7.5" />
          </svg>
        ) : null}
        <span>{props.label}</span> <span className={styles.visuallyHidden}>{props.name}</span>
      </button>
      <span className={styles.visuallyHidden} role="status">
        {props.announcement}
      </span>
      {props.alert ? (
        <span className={styles.alert} role="alert">
          {props.alert}
        </span>
      ) : null}
    </span>
  );
}
