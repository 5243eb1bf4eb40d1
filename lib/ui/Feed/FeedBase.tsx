import { useEffect, useId, useMemo, useRef, useState, type ComponentType, type FocusEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { avatarUrl, type PublicProfile } from '../../sdk';
import '../theme/tokens.css';
import styles from './Feed.module.css';
import type { PostCardProps } from '../PostCard/PostCardBase';
import { defaultPostHrefs } from '../PostCard/usePostCard';
import { FollowButton } from '../FollowButton';
import { useFanstage } from '../FanstageProvider/context';
import { SUGGESTIONS_PER_BLOCK, useFeed, type FeedRow, type UseFeedOptions } from './useFeed';
import { useWindowedList } from './useWindowedList';

export interface FeedProps extends UseFeedOptions, Omit<PostCardProps, 'postId' | 'position' | 'showComments' | 'className'> {
  /** The feed's accessible name; a name per type by default. */
  label?: string;
  /** Height a post is assumed to have until it is measured, in px. */
  estimatedPostHeight?: number;
  /** Replaces the placeholder of an empty feed. */
  empty?: ReactNode;
  className?: string;
}

/**
 * A list of posts drawn with `card` (see `Feed` for the one with the complete PostCard): windowed, pages loaded as the reader nears the end,
 * 'Load New Posts' when newer posts exist, who-to-follow blocks every 5 posts, and the
 * "You're All Caught up" marker at the end.
 */
export function FeedBase(props: FeedProps & { card: ComponentType<PostCardProps> }) {
  const { card, type, param, gender, whoToFollow, checkNewEvery, label, estimatedPostHeight = 560, empty, className, ...cardProps } = props;
  const state = useFeed({ type, param, ...(gender !== undefined ? { gender } : {}), ...(whoToFollow !== undefined ? { whoToFollow } : {}), ...(checkNewEvery !== undefined ? { checkNewEvery } : {}) });
  const { t, i18n } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const keys = useMemo(() => state.rows.map((row) => row.key), [state.rows]);
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  const { range, measure } = useWindowedList(keys, container, estimatedPostHeight, 3, focusedKey);
  const trackFocus = (event: FocusEvent<HTMLDivElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-row-key]');
    setFocusedKey(row?.dataset.rowKey ?? null);
  };
  const loading = state.status === 'loading';
  const nearEnd = range.end >= state.rows.length - 2;

  useEffect(() => {
    if (nearEnd && state.status === 'ready') state.loadMore();
    // `state.loadMore` is a new function each render; the status and position decide.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nearEnd, state.status, state.rows.length]);

  const feedLabel = label ?? t(`posts.feed.label.${type}`, { name: param ?? '' });
  const postCount = state.postCount;
  const setSize = state.status === 'ended' ? postCount : -1;
  const timeline = type === 'public' || type === 'private';

  return (
    <section className={['fs-root', styles.root, className].filter(Boolean).join(' ')} lang={i18n.resolvedLanguage ?? i18n.language} aria-label={feedLabel}>
      {state.newCount > 0 ? (
        <div className={styles.bannerWrap}>
          <button
            type="button"
            className={styles.banner}
            onClick={() => {
              state.showNew();
              container.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
            }}
          >
            {t('posts.feed.loadNew', { count: state.newCount })}
          </button>
        </div>
      ) : null}

      <div
        ref={container}
        // A feed holds articles; an empty one is a plain region, or axe (rightly) finds a feed
        // without its required children.
        role={state.rows.length > 0 ? 'feed' : undefined}
        aria-busy={state.rows.length > 0 ? loading : undefined}
        aria-label={state.rows.length > 0 ? feedLabel : undefined}
        className={styles.list}
        onFocus={trackFocus}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusedKey(null);
        }}
      >
        {range.before > 0 ? <div aria-hidden="true" style={{ height: range.before }} /> : null}
        {state.rows.slice(range.start, range.end).map((row) => (
          <div key={row.key} data-row-key={row.key} ref={measure} className={styles.row}>
            {renderRow(row, { card, cardProps, setSize, suggestions: state.suggestions, t })}
          </div>
        ))}
        {range.after > 0 ? <div aria-hidden="true" style={{ height: range.after }} /> : null}
      </div>

      {loading ? (
        <p className={styles.status} role="status">
          <span className={styles.spinner} aria-hidden="true" />
          {t('posts.feed.loading')}
        </p>
      ) : null}
      {state.status === 'error' ? (
        <div className={styles.status} role="alert">
          <p>{t(`errors.${state.errorCode ?? 'internal-error'}`, { defaultValue: t('posts.feed.error') })}</p>
          <button type="button" className={styles.more} onClick={state.retry}>
            {t('posts.retry')}
          </button>
        </div>
      ) : null}
      {state.status === 'ready' ? (
        <button type="button" className={styles.more} onClick={state.loadMore}>
          {t('posts.feed.more')}
        </button>
      ) : null}
      {state.status === 'ended' && postCount === 0 ? (
        <div className={styles.empty} role="status">
          {empty ?? (
            <>
              <p className={styles.emptyTitle}>{t(`posts.feed.empty.${type}`)}</p>
              {timeline ? <p>{t('posts.feed.emptyHint')}</p> : null}
            </>
          )}
        </div>
      ) : null}
      {state.status === 'ended' && postCount > 0 ? (
        <div className={styles.end} data-post-id={-1}>
          <svg className={styles.endIcon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="2" />
            <path fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" d="M7.5 12.5l3 3 6-6.5" />
          </svg>
          <p className={styles.endTitle}>{timeline ? t('posts.feed.caughtUp') : t('posts.feed.end')}</p>
          {timeline ? <p>{t('posts.feed.caughtUpText')}</p> : null}
        </div>
      ) : null}
    </section>
  );
}

interface RowContext {
  card: ComponentType<PostCardProps>;
  cardProps: Omit<PostCardProps, 'postId'>;
  setSize: number;
  suggestions: readonly PublicProfile[];
  t: (key: string, options?: Record<string, unknown>) => string;
}

function renderRow(row: FeedRow, { card: Card, cardProps, setSize, suggestions, t }: RowContext) {
  switch (row.kind) {
    case 'post':
      return <Card {...cardProps} postId={row.id} position={{ index: row.index, size: setSize }} />;
    case 'divider':
      return (
        <div className={styles.divider} role="separator" aria-label={t('posts.feed.divider')}>
          <span>{t('posts.feed.divider')}</span>
        </div>
      );
    case 'whoToFollow':
      return <WhoToFollowBlock block={row.block} suggestions={suggestions} cardProps={cardProps} />;
  }
}

/** A few suggested creators between posts; each block shows the next few of one list. */
function WhoToFollowBlock({ block, suggestions, cardProps }: { block: number; suggestions: readonly PublicProfile[]; cardProps: Omit<PostCardProps, 'postId'> }) {
  useSignals();
  const { t } = useTranslation();
  const { settings } = useFanstage();
  const headingId = useId();
  const hrefs = { ...defaultPostHrefs, ...cardProps.hrefs };
  const cdn = settings.settings.value?.mediaCDN;
  const start = (block * SUGGESTIONS_PER_BLOCK) % Math.max(1, suggestions.length);
  const shown = [...suggestions.slice(start, start + SUGGESTIONS_PER_BLOCK), ...suggestions.slice(0, Math.max(0, start + SUGGESTIONS_PER_BLOCK - suggestions.length))].slice(
    0,
    Math.min(SUGGESTIONS_PER_BLOCK, suggestions.length),
  );
  if (shown.length === 0) return null;
  return (
    <section className={styles.suggestions} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.suggestionsTitle}>
        {t('posts.whoToFollow')}
      </h3>
      <ul className={styles.suggestionList}>
        {shown.map((profile) => {
          const name = profile.displayName.trim() || profile.username;
          const src = cdn ? avatarUrl(cdn, profile.avatarMedia, 60) : null;
          return (
            <li key={profile.id} className={styles.suggestion}>
              {src ? <img className={styles.suggestionAvatar} src={src} alt="" width={40} height={40} loading="lazy" /> : <span className={styles.suggestionAvatar} aria-hidden="true" />}
              <span className={styles.suggestionName}>
                <a href={hrefs.profile(profile.username)}>{name}</a>
                <span className={styles.suggestionHandle}>@{profile.username}</span>
              </span>
              <FollowButton userId={profile.id} {...(cardProps.onLoginRequired ? { onLoginRequired: () => cardProps.onLoginRequired?.('follow') } : {})} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
