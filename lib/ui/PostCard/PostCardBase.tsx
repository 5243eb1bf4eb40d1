import { Suspense, useId, useRef, useState, type ComponentType, type ElementType, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import styles from './PostCard.module.css';
import { FollowButton } from '../FollowButton';
import { PostMedia } from '../PostMedia';
import { Dialog } from '../dialog/Dialog';
import { ProfileHover } from '../ProfileHover/ProfileHover';
import { useFanstage } from '../FanstageProvider/context';
import { usePostCard, usePostSeen, type PostCardCallbacks, type PostCardData, type PostHrefs } from './usePostCard';
import { renderText } from './renderText';
import { ChatIcon, CommentIcon, GiftIcon, HeartIcon, ShareIcon } from './icons';

import type { ShareDialogProps } from '../ShareDialog/ShareDialog';
import type { MediaViewerProps } from '../MediaViewer/MediaViewer';
import type { CommentsProps } from '../Comments/Comments';
import type { LikeUsersProps } from '../LikeUsers/LikeUsers';
import type { MediaEarningsProps } from '../MediaEarnings/MediaEarnings';

/**
 * The dialogs a card opens by itself. `PostCard` brings all three, loaded on first use; a
 * widget that must stay small brings only what it shows (or none, and handles the callbacks).
 */
export interface PostCardParts {
  ShareDialog?: ComponentType<ShareDialogProps>;
  MediaViewer?: ComponentType<MediaViewerProps>;
  Comments?: ComponentType<CommentsProps>;
  /** The author's list of who liked the post, opened from the likes count. */
  LikeUsers?: ComponentType<LikeUsersProps>;
  /** The author's earnings per media of the post. */
  MediaEarnings?: ComponentType<MediaEarningsProps>;
}

export interface PostCardProps extends PostCardCallbacks {
  postId: number;
  /** Where names, tags and the time link to; the reference site's routes by default. */
  hrefs?: Partial<PostHrefs>;
  /** Level of the author's heading: 3 by default (under a page's h1 and a feed's h2). */
  headingLevel?: 2 | 3 | 4;
  /** Shows the comments under the post (the post's own page). */
  showComments?: boolean;
  /** With `showComments`: the comment whose thread opens and is brought into view. */
  focusCommentId?: number;
  /** Position in a feed, for screen readers (ARIA feed pattern). */
  position?: { index: number; size: number };
  /** Reports the post seen (SPEC §4); on by default. */
  reportSeen?: boolean;
  /** The address shared and copied; the post's page on this site by default. */
  shareBase?: string;
  /**
   * The quick profile hover on the author's name and picture (SPEC §2): the host turns it on
   * for its web layout only. Never shown on one's own posts or for a blocked author.
   */
  profileHover?: boolean;
  className?: string;
}

/** A post card with the dialogs given in `parts`; see `PostCard` for the complete one. */
export function PostCardBase(props: PostCardProps & { parts?: PostCardParts }) {
  const state = usePostCard(props);
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const rootClass = ['fs-root', styles.root, props.className].filter(Boolean).join(' ');
  switch (state.status) {
    case 'loading':
      return (
        <article className={`${rootClass} ${styles.card}`} aria-busy="true" lang={lang} {...positionAttributes(props.position)} aria-label={t('posts.loading')}>
          <div className={styles.skeletonHead} aria-hidden="true">
            <span className={`${styles.bone} ${styles.boneAvatar}`} />
            <span className={styles.bone} style={{ width: '10em' }} />
          </div>
          <span className={`${styles.bone} ${styles.boneMedia}`} aria-hidden="true" />
        </article>
      );
    case 'gone':
      return null;
    case 'error':
      return (
        <article className={`${rootClass} ${styles.card}`} lang={lang} {...positionAttributes(props.position)} aria-label={state.message}>
          <p role="alert" className={styles.error}>
            {state.message}
          </p>
          <button type="button" className={styles.secondary} onClick={state.onRetry}>
            {t('posts.retry')}
          </button>
        </article>
      );
    case 'ready':
      return <ReadyPost {...props} parts={props.parts} data={state.data} alert={state.alert} announcement={state.announcement} onLike={state.onLike} onDelete={state.onDelete} rootClass={rootClass} lang={lang} />;
  }
}

interface ReadyPostProps extends PostCardProps {
  parts?: PostCardParts | undefined;
  data: PostCardData;
  alert: string | null;
  announcement: string | null;
  onLike: () => void;
  onDelete: () => Promise<void>;
  rootClass: string;
  lang: string;
}

function ReadyPost(props: ReadyPostProps) {
  const { data, onLike, onDelete } = props;
  const { post } = data;
  const { t } = useTranslation();
  const headingId = useId();
  const ref = useRef<HTMLElement>(null);
  const [dialog, setDialog] = useState<null | { kind: 'share' } | { kind: 'media'; index: number } | { kind: 'delete' } | { kind: 'likes' } | { kind: 'earnings' }>(null);
  const [deleting, setDeleting] = useState(false);
  const shareRef = useRef<HTMLButtonElement>(null);
  usePostSeen(ref, post.id, props.reportSeen !== false && data.scheduledFor === null);
  const Heading = `h${props.headingLevel ?? 3}` as ElementType;
  const disabled = data.scheduledFor !== null;
  const showSocial = !data.isOwner;

  const { ShareDialog, MediaViewer, Comments, LikeUsers, MediaEarnings } = props.parts ?? {};
  // The likers and the earnings are the author's to see (the server answers the likers to them alone).
  const canListLikes = data.isOwner && Boolean(LikeUsers) && post.totalLikesCount > 0 && !disabled;
  const canShowEarnings = data.isOwner && Boolean(MediaEarnings) && post.media.some((m) => m.mediaPrice > 0 || m.earnedCents > 0);
  const hover = (node: ReactNode) =>
    props.profileHover && !data.isOwner ? (
      <ProfileHover userId={post.user.id} username={post.user.username} href={data.profileHref} {...(props.onLoginRequired ? { onLoginRequired: () => props.onLoginRequired?.('follow') } : {})}>
        {node}
      </ProfileHover>
    ) : (
      node
    );
  const canShare = Boolean(props.onShare || ShareDialog);
  const share = () => (props.onShare ? props.onShare(post) : setDialog({ kind: 'share' }));
  const openMedia = props.onOpenMedia || MediaViewer ? (index: number) => (props.onOpenMedia ? props.onOpenMedia(post, index) : setDialog({ kind: 'media', index })) : undefined;
  const { session } = useFanstage();
  const needLogin = async (reason: 'gift' | 'chat' | 'unlock', then: () => void) => {
    if (!session.isLoggedIn.peek() && props.onLoginRequired) {
      // Without a sign-in that resolves true, the host's prompt has taken over.
      if ((await props.onLoginRequired(reason)) !== true || !session.isLoggedIn.peek()) return;
    }
    then();
  };

  return (
    <article ref={ref} className={`${props.rootClass} ${styles.card}`} lang={props.lang} aria-labelledby={headingId} data-post-id={post.id} {...positionAttributes(props.position)}>
      <header className={styles.header}>
        {hover(
          <a className={styles.avatarLink} href={data.profileHref} tabIndex={-1} aria-hidden="true">
            {data.avatar ? <img className={styles.avatar} src={data.avatar.src} alt="" width={44} height={44} loading="lazy" /> : <span className={styles.initials}>{data.initials}</span>}
          </a>,
        )}
        <div className={styles.identity}>
          <Heading id={headingId} className={styles.name}>
            {hover(<a href={data.profileHref}>{data.authorName}</a>)}
          </Heading>
          <p className={styles.meta}>
            <span className={styles.handle}>{data.handle}</span>
            <span aria-hidden="true"> · </span>
            <a className={styles.time} href={data.postHref}>
              <time dateTime={data.time.dateTime}>{data.time.label}</time>
            </a>
          </p>
        </div>
        {showSocial ? (
          <>
            <FollowButton userId={post.user.id} className={styles.follow} {...(props.onLoginRequired ? { onLoginRequired: () => props.onLoginRequired?.('follow') } : {})} />
            {/* SPEC §6: anyone signed in but the author may report a post. */}
            {session.isLoggedIn.value && data.hrefs.report ? (
              <a className={styles.textButton} href={data.hrefs.report('post', post.id)} aria-label={t('posts.reportOf', { name: data.authorName })}>
                {t('posts.report')}
              </a>
            ) : null}
          </>
        ) : (
          <div className={styles.ownerActions}>
            {props.onEdit ? (
              <button type="button" className={styles.textButton} onClick={() => props.onEdit?.(post)}>
                {t('posts.edit')}
              </button>
            ) : (
              <a className={styles.textButton} href={data.editHref}>
                {t('posts.edit')}
              </a>
            )}
            <button type="button" className={styles.textButton} onClick={() => setDialog({ kind: 'delete' })}>
              {t('posts.delete')}
            </button>
          </div>
        )}
      </header>

      {data.scheduledFor ? (
        <p className={styles.scheduled}>
          <span className={styles.badge}>{t('posts.scheduledBadge')}</span> {t('posts.scheduledFor', { date: data.scheduledFor })}
        </p>
      ) : null}

      {post.text ? <p className={styles.text}>{renderText(data.text, data.hrefs)}</p> : null}

      <PostMedia
        media={post.media}
        mediaCDN={data.mediaCDN}
        salt={data.salt}
        authorName={data.authorName}
        {...(openMedia ? { onOpen: openMedia } : {})}
        {...(props.onUnlock ? { onUnlock: (index: number) => void needLogin('unlock', () => props.onUnlock?.(post, index)) } : {})}
        disabled={disabled}
      />

      <ul className={styles.stats} aria-label={t('posts.stats')}>
        <li>
          {canListLikes ? (
            <button type="button" className={styles.statButton} aria-haspopup="dialog" onClick={() => setDialog({ kind: 'likes' })}>
              {t('posts.likesCount', { count: post.totalLikesCount, value: data.likes })}
            </button>
          ) : (
            t('posts.likesCount', { count: post.totalLikesCount, value: data.likes })
          )}
        </li>
        <li>{t('posts.commentsCount', { count: post.totalCommentsCount, value: data.comments })}</li>
        {post.totalGiftsCount > 0 ? <li>{t('posts.giftsCount', { count: post.totalGiftsCount, value: data.gifts })}</li> : null}
        {canShowEarnings ? (
          <li>
            <button type="button" className={styles.statButton} aria-haspopup="dialog" onClick={() => setDialog({ kind: 'earnings' })}>
              {t('posts.mediaEarnings.open')}
            </button>
          </li>
        ) : null}
      </ul>

      <div className={styles.actions} role="group" aria-label={t('posts.actions')}>
        <ActionButton label={t('posts.like')} pressed={data.liked} busy={data.likeBusy} disabled={disabled} onClick={onLike} icon={<HeartIcon filled={data.liked} />} />
        {props.onComment ? (
          <ActionButton label={t('posts.comment')} disabled={disabled} onClick={() => props.onComment?.(post)} icon={<CommentIcon />} />
        ) : disabled ? (
          <ActionButton label={t('posts.comment')} disabled onClick={() => undefined} icon={<CommentIcon />} />
        ) : (
          <a className={styles.action} href={data.postHref} aria-label={t('posts.comment')}>
            <CommentIcon />
          </a>
        )}
        {showSocial && props.onGift && (post.user.isSeller || post.user.isPartner) ? (
          <ActionButton label={t('posts.gift')} disabled={disabled} onClick={() => void needLogin('gift', () => props.onGift?.(post))} icon={<GiftIcon />} />
        ) : null}
        {showSocial && props.onChat ? (
          <ActionButton label={t('posts.chat', { name: data.authorName })} disabled={disabled} onClick={() => void needLogin('chat', () => props.onChat?.(post))} icon={<ChatIcon />} />
        ) : null}
        {canShare ? <ActionButton buttonRef={shareRef} label={t('posts.share')} disabled={disabled} onClick={share} icon={<ShareIcon />} /> : null}
      </div>
      {disabled ? <p className={styles.hint}>{t('posts.scheduledNoActions')}</p> : null}

      <span className={styles.visuallyHidden} role="status">
        {props.announcement}
      </span>
      {props.alert ? (
        <p className={styles.error} role="alert">
          {props.alert}
        </p>
      ) : null}

      {dialog?.kind === 'delete' ? (
        <Dialog title={t('posts.deleteConfirm')} alert size="small" closeButton={false} onClose={() => !deleting && setDialog(null)}>
          <div className={styles.confirmButtons}>
            <button
              type="button"
              className={styles.danger}
              disabled={deleting}
              autoFocus
              onClick={() => {
                setDeleting(true);
                void onDelete().finally(() => {
                  setDeleting(false);
                  setDialog(null);
                });
              }}
            >
              {t('posts.deleteYes')}
            </button>
            <button type="button" className={styles.secondary} onClick={() => setDialog(null)}>
              {t('posts.cancel')}
            </button>
          </div>
        </Dialog>
      ) : null}

      {(dialog?.kind === 'likes' && LikeUsers) || (dialog?.kind === 'earnings' && MediaEarnings) ? (
        <Suspense fallback={null}>
          {dialog.kind === 'likes' && LikeUsers ? (
            <LikeUsers postId={post.id} hrefFor={data.hrefs.profile} onClose={() => setDialog(null)} />
          ) : dialog.kind === 'earnings' && MediaEarnings ? (
            <MediaEarnings post={post} mediaCDN={data.mediaCDN} onClose={() => setDialog(null)} />
          ) : null}
        </Suspense>
      ) : null}

      {(dialog?.kind === 'share' && ShareDialog) || (dialog?.kind === 'media' && MediaViewer) ? (
        <Suspense fallback={null}>
          {dialog.kind === 'share' && ShareDialog ? (
            <ShareDialog
              url={shareAddress(props.shareBase, data)}
              postId={post.id}
              title={t('posts.shareTitle', { name: data.authorName })}
              description={post.text.slice(0, 200)}
              onClose={() => {
                setDialog(null);
                shareRef.current?.focus();
              }}
            />
          ) : dialog.kind === 'media' && MediaViewer ? (
            <MediaViewer post={post} index={dialog.index} mediaCDN={data.mediaCDN} authorName={data.authorName} onClose={() => setDialog(null)} />
          ) : null}
        </Suspense>
      ) : null}

      {props.showComments && Comments ? (
        <Suspense fallback={<p role="status">{t('posts.loadingComments')}</p>}>
          <Comments postId={post.id} {...(props.onLoginRequired ? { onLoginRequired: () => props.onLoginRequired?.('comment') } : {})} hrefs={data.hrefs} {...(props.focusCommentId !== undefined ? { focusCommentId: props.focusCommentId } : {})} />
        </Suspense>
      ) : null}
    </article>
  );
}

function shareAddress(shareBase: string | undefined, data: PostCardData): string {
  if (shareBase) return `${shareBase.replace(/\/+$/, '')}/post/${data.post.id}`;
  const href = data.postHref;
  return typeof location !== 'undefined' && href.startsWith('/') ? `${location.origin}${href}` : href;
}

function positionAttributes(position: PostCardProps['position']) {
  return position ? { 'aria-posinset': position.index + 1, 'aria-setsize': position.size } : {};
}

function ActionButton(props: { label: string; icon: ReactNode; onClick: () => void; pressed?: boolean; busy?: boolean; disabled?: boolean; buttonRef?: Ref<HTMLButtonElement> }) {
  return (
    <button
      ref={props.buttonRef}
      type="button"
      className={styles.action}
      aria-label={props.label}
      title={props.label}
      aria-pressed={props.pressed}
      aria-busy={props.busy || undefined}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      {props.icon}
    </button>
  );
}
