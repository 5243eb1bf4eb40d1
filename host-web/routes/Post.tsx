import { useEffect, useMemo } from 'react';
import { useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { PostCard, useFanstage, type PostCardProps } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { useInAppLinks } from '../useInAppLinks';
import { usePostMoney } from '../overlays/PostMoney';
import { idOf } from '../components/routeIds';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import NotFound from './NotFound';
import styles from './Post.module.css';

const missingCodes = new Set(['post-doesnt-exists', 'not-found', 'post-scheduled']);

/**
 * `/post/{postid}`, `/post/{postid}/comments` and `/post/{postid}/{commentid}` (SPEC §2): the
 * post with its comments. The comments and thread addresses start the page at the comments.
 */
export default function Post({ postid, commentid, comments = false }: { postid: string; commentid?: string; comments?: boolean }) {
  const id = idOf(postid);
  if (id === null || (commentid !== undefined && idOf(commentid) === null)) return <NotFound />;
  return (
    <AfterSessionCheck>
      <SinglePost id={id} toComments={comments || commentid !== undefined} focusCommentId={commentid !== undefined ? (idOf(commentid) ?? undefined) : undefined} />
    </AfterSessionCheck>
  );
}

function SinglePost({ id, toComments, focusCommentId }: { id: number; toComments: boolean; focusCommentId?: number | undefined }) {
  useSignals();
  const { t } = useTranslation();
  const fanstage = useFanstage();
  const { openLoginPrompt } = useSite();
  const [, navigate] = useLocation();
  const onClick = useInAppLinks();
  const money = usePostMoney();
  const entry = useMemo(() => fanstage.posts.get(id), [fanstage, id]);
  const post = entry.post.value;
  const error = entry.error.value;
  const author = post ? post.user.displayName.trim() || post.user.username : null;
  usePageTitle(author ? t('sitePosts.post.titleBy', { name: author }) : t('sitePosts.post.title'));

  // SPEC §7: a visit is counted once per opening of the page, never for the owner.
  useEffect(() => {
    if (post && !post.isMy) fanstage.posts.api.visit(id).catch(() => undefined);
    // Only the first answer counts as the visit; later changes (a like) are not new visits.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fanstage, id, post !== null]);

  useEffect(() => {
    // A named comment is brought into view by the comments themselves.
    if (!toComments || !post || focusCommentId !== undefined) return;
    // The comments load after the card; wait for their section to exist.
    const timer = window.setTimeout(() => document.querySelector(`[data-post-id="${id}"] section`)?.scrollIntoView({ block: 'start' }), 300);
    return () => window.clearTimeout(timer);
  }, [toComments, post, id, focusCommentId]);

  if (entry.status.value === 'error' && error && missingCodes.has(error.code)) return <NotFound />;

  const cardProps: PostCardProps = {
    postId: id,
    headingLevel: 2,
    showComments: true,
    ...(focusCommentId !== undefined ? { focusCommentId } : {}),
    onLoginRequired: () => openLoginPrompt(),
    ...money,
    onOpenMedia: (opened, index) => {
      const media = opened.media[index];
      navigate(media ? `/post/${id}/${media.mediaId}/full-screen-media` : `/post/${id}/full-screen-media`);
    },
  };

  return (
    <div className={styles.page} onClick={onClick}>
      <h1 className="visually-hidden">{author ? t('sitePosts.post.titleBy', { name: author }) : t('sitePosts.post.title')}</h1>
      <PostCard {...cardProps} />
    </div>
  );
}
