import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { mediaUrl, type MediaView, type Post, type SdkError } from '../../lib/sdk';
import { useFanstage } from '../../lib/ui';
import { useSite } from '../site';
import styles from './ProfilePosts.module.css';

/** Posts per request: five rows of the three-column grid. */
const GRID_PAGE = 15;

type GridState = { status: 'loading' | 'ready' | 'ended' | 'error'; posts: Post[]; error?: SdkError };

/** Locked for this viewer: priced and no unlock key (SPEC §4 Media lock). */
function isLocked(media: MediaView): boolean {
  return media.mediaPrice > 0 && !media.mediaUnlockHash;
}

/**
 * The grid of a creator's posts with media on `/{id}` (`GET /papi/posts/media/timeline/{id}`),
 * paged by the last post's `ts`. Locked media show their blurred preview, as on the timeline;
 * the viewer's token goes along, so the owner and fans who unlocked a media get its key.
 */
export function ProfilePosts({ userId, name }: { userId: number; name: string }) {
  useSignals();
  const { t } = useTranslation();
  const fanstage = useFanstage();
  const { sessionChecked, loggedIn } = useSite();
  const headingId = useId();
  const [state, setState] = useState<GridState>({ status: 'loading', posts: [] });
  const cdn = fanstage.settings.settings.value?.mediaCDN ?? '';
  const controller = useRef<AbortController | null>(null);

  const load = useCallback(
    (before: Post[]) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      const last = before[before.length - 1];
      setState({ status: 'loading', posts: before });
      const askedAt = fanstage.posts.stamp();
      fanstage.client
        .get<Post[]>(`/papi/posts/media/timeline/${userId}`, { limit: GRID_PAGE, ...(last ? { ts: last.ts } : {}) }, { signal: current.signal, withToken: true })
        .then(
          (page) => {
            if (current.signal.aborted) return;
            // The post page opened from a tile then shows at once, from the shared store.
            fanstage.posts.remember(page, askedAt);
            const known = new Set(before.map((post) => post.id));
            const fresh = page.filter((post) => !known.has(post.id) && post.media.length > 0);
            // SPEC §4: a short page is the last one.
            setState({ status: page.length < GRID_PAGE || fresh.length === 0 ? 'ended' : 'ready', posts: [...before, ...fresh] });
          },
          (error: SdkError) => {
            if (!current.signal.aborted) setState({ status: 'error', posts: before, error });
          },
        );
    },
    [fanstage, userId],
  );

  // The list depends on the viewer (unlock keys): it waits for the session check and starts
  // over when someone logs in or out.
  useEffect(() => {
    void fanstage.settings.load().catch(() => undefined);
    if (sessionChecked) load([]);
    return () => controller.current?.abort();
  }, [fanstage, load, sessionChecked, loggedIn]);

  const { posts, status } = state;
  return (
    <section aria-labelledby={headingId} className={styles.section} data-testid="profile-posts">
      <h2 id={headingId} className={styles.title}>
        {t('sitePosts.profile.posts')}
      </h2>
      {posts.length > 0 ? (
        <ul className={styles.grid}>
          {posts.map((post) => {
            const media = post.media[0]!;
            const locked = isLocked(media);
            const src = cdn ? mediaUrl(cdn, media, locked ? { variant: 'blur' } : { variant: media.mediaType === 'video' ? 'poster' : '320', key: media.mediaUnlockHash ?? undefined }) : null;
            const label = post.text.trim() ? post.text.trim().slice(0, 80) : t('sitePosts.profile.postBy', { name });
            return (
              <li key={post.id} className={styles.tile} style={{ backgroundColor: media.mediaDominantColor || undefined }}>
                <Link href={`/post/${post.id}`} className={styles.link} aria-label={locked ? t('sitePosts.profile.lockedPost', { label }) : label}>
                  {src ? <img src={src} alt="" loading="lazy" className={`${styles.image} ${locked ? styles.blurred : ''}`} /> : null}
                  {locked ? (
                    <span className={styles.lock} aria-hidden="true">
                      <svg width="28" height="28" viewBox="0 0 24 24" fill="currentColor">
                        <path d="M18 8h-1V6c0-2.76-2.24-5-5-5S7 3.24 7 6v2H6c-1.1 0-2 .9-2 2v10c0 1.1.9 2 2 2h12c1.1 0 2-.9 2-2V10c0-1.1-.9-2-2-2zm-6 9c-1.1 0-2-.9-2-2s.9-2 2-2 2 .9 2 2-.9 2-2 2zm3.1-9H8.9V6c0-1.71 1.39-3.1 3.1-3.1 1.71 0 3.1 1.39 3.1 3.1v2z" />
                      </svg>
                    </span>
                  ) : null}
                  {media.mediaType === 'video' ? <span className={styles.badge}>{t('sitePosts.profile.video')}</span> : null}
                </Link>
              </li>
            );
          })}
        </ul>
      ) : null}
      {status === 'loading' ? (
        <p role="status" className={styles.note}>
          {t('sitePosts.profile.loading')}
        </p>
      ) : null}
      {status === 'ended' && posts.length === 0 ? <p className={styles.note}>{t('sitePosts.profile.empty')}</p> : null}
      {status === 'error' ? (
        <div role="alert" className={styles.note}>
          <p>{t('sitePosts.profile.error')}</p>
          <button type="button" className={styles.more} onClick={() => load(posts)}>
            {t('app.retry')}
          </button>
        </div>
      ) : null}
      {status === 'ready' ? (
        <button type="button" className={styles.more} onClick={() => load(posts)}>
          {t('sitePosts.profile.more')}
        </button>
      ) : null}
    </section>
  );
}
