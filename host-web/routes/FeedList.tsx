import { useEffect, useState } from 'react';
import { useParams } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { Feed, PostCard, useFanstage } from '../../lib/ui';
import { pageSizes, type FeedType } from '../../lib/sdk';
import { usePageTitle, useSite } from '../site';
import { useInAppLinks } from '../useInAppLinks';
import { usePostMoney } from '../overlays/PostMoney';
import NotFound from './NotFound';
import styles from './FeedList.module.css';

/** SPEC §2 post types of /feed/{postType}: the store's feed each one reads. */
const feedTypes: Record<string, { type: FeedType | 'tour'; login: boolean }> = {
  'unlocked-posts': { type: 'unlocked', login: true },
  'scheduled-posts': { type: 'scheduled', login: true },
  'hashtag-timeline': { type: 'hashtag', login: false },
  'tour-timeline': { type: 'tour', login: false },
};

/**
 * `/feed/{postType}/{info?}/{ts?}`: a list of posts by type (SPEC §2). `info` is the hashtag of
 * the hashtag timeline; `ts` is where a shared list was opened and only matters to whoever
 * shared it, so the list starts at its newest post either way.
 */
export default function FeedList() {
  useSignals();
  const { postType = '', info } = useParams<{ postType?: string; info?: string; ts?: string }>();
  const { t } = useTranslation();
  const { loggedIn, sessionChecked, openLoginPrompt } = useSite();
  const onClick = useInAppLinks();
  const money = usePostMoney();
  const kind = Object.hasOwn(feedTypes, postType) ? feedTypes[postType] : undefined;
  const tag = info?.replace(/^#/, '');
  const title = kind ? t(`sitePosts.feed.${postType}`, { tag: tag ?? '' }) : null;
  usePageTitle(title);

  if (!kind || (kind.type === 'hashtag' && !tag)) return <NotFound />;

  let content;
  if (kind.login && !loggedIn) {
    content = sessionChecked ? (
      <button type="button" className={styles.login} aria-haspopup="dialog" onClick={openLoginPrompt}>
        {t('sitePosts.feed.login')}
      </button>
    ) : null;
  } else if (kind.type === 'tour') {
    content = <TourList />;
  } else {
    content = <Feed key={`${kind.type}:${tag ?? ''}`} type={kind.type} {...(tag ? { param: tag } : {})} label={title ?? undefined} onLoginRequired={() => openLoginPrompt()} {...money} />;
  }

  return (
    <div className={styles.page} onClick={onClick}>
      <h1 className={styles.title}>{title}</h1>
      {content}
    </div>
  );
}

/** The tour (SPEC §9: 7 posts, held 30 s by the server): a short list, not a paged feed. */
function TourList() {
  const { t } = useTranslation();
  const fanstage = useFanstage();
  const { openLoginPrompt } = useSite();
  const money = usePostMoney();
  const [ids, setIds] = useState<number[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    const askedAt = fanstage.posts.stamp();
    fanstage.posts.api.tour(pageSizes.tour, controller.signal).then(
      (posts) => {
        if (!controller.signal.aborted) setIds(fanstage.posts.remember(posts, askedAt));
      },
      () => {
        if (!controller.signal.aborted) setFailed(true);
      },
    );
    return () => controller.abort();
  }, [fanstage]);

  if (failed) return <p role="alert">{t('sitePosts.feed.error')}</p>;
  if (ids === null) return <p role="status">{t('app.loading')}</p>;
  if (ids.length === 0) return <p>{t('sitePosts.feed.empty')}</p>;
  return (
    <div role="feed" aria-label={t('sitePosts.feed.tour-timeline')} className={styles.list}>
      {ids.map((id, index) => (
        <PostCard key={id} postId={id} position={{ index, size: ids.length }} headingLevel={2} onLoginRequired={() => openLoginPrompt()} {...money} />
      ))}
    </div>
  );
}
