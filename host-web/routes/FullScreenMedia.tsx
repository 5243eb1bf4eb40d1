import { useEffect, useMemo } from 'react';
import { useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { MediaViewer, useFanstage } from '../../lib/ui';
import { getPreviousLocation } from '../navigation';
import { usePageTitle } from '../site';
import NotFound from './NotFound';
import { idOf } from '../components/routeIds';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import styles from './Post.module.css';

/**
 * `/post/{fromId?}/{id}/full-screen-media` (SPEC §2). With both parts, `fromId` is the post
 * and `id` the media to start at; with one, `id` is the post and the viewer starts at its
 * first media. Closing goes back where the viewer came from, or to the post.
 */
export default function FullScreenMedia({ fromId, id }: { fromId?: string; id: string }) {
  const postId = idOf(fromId ?? id);
  const mediaId = fromId === undefined ? null : idOf(id);
  if (postId === null || (fromId !== undefined && mediaId === null)) return <NotFound />;
  return (
    <AfterSessionCheck>
      <Viewer postId={postId} mediaId={mediaId} />
    </AfterSessionCheck>
  );
}

function Viewer({ postId, mediaId }: { postId: number; mediaId: number | null }) {
  useSignals();
  const { t } = useTranslation();
  const fanstage = useFanstage();
  const [, navigate] = useLocation();
  const entry = useMemo(() => fanstage.posts.get(postId), [fanstage, postId]);
  const post = entry.post.value;
  const cdn = fanstage.settings.settings.value?.mediaCDN ?? null;
  usePageTitle(t('sitePosts.fullScreen.title'));

  // The viewer leaves locked media out, so the start is counted among the visible ones.
  const visible = useMemo(() => (post ? post.media.filter((m) => !(m.mediaPrice > 0 && !m.mediaUnlockHash) && m.mediaStatus !== 4) : null), [post]);

  useEffect(() => {
    void fanstage.settings.load().catch(() => undefined);
  }, [fanstage]);

  // Nothing to show full screen (all locked): the post itself offers the unlock.
  useEffect(() => {
    if (visible && visible.length === 0) navigate(`/post/${postId}`, { replace: true });
  }, [visible, navigate, postId]);

  if (entry.status.value === 'error') return <NotFound />;
  if (!post || !visible || visible.length === 0 || cdn === null) {
    return (
      <p role="status" className={styles.page}>
        {t('sitePosts.post.loading')}
      </p>
    );
  }

  const index = Math.max(0, mediaId === null ? 0 : visible.findIndex((m) => m.mediaId === mediaId));
  const close = () => {
    if (getPreviousLocation() !== null) window.history.back();
    else navigate(`/post/${postId}`, { replace: true });
  };

  return (
    <>
      <h1 className="visually-hidden">{t('sitePosts.fullScreen.title')}</h1>
      <MediaViewer media={visible} index={index} mediaCDN={cdn} authorName={post.user.displayName.trim() || post.user.username} onClose={close} />
    </>
  );
}
