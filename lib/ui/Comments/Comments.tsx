import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { avatarUrl, formatCount, type Comment } from '../../sdk';
import '../theme/tokens.css';
import styles from './Comments.module.css';
import { useFanstage } from '../FanstageProvider/context';
import { defaultPostHrefs, initialsOf, timeLabel, type PostHrefs } from '../PostCard/usePostCard';
import { parseRichText } from '../PostCard/richText';
import { renderText } from '../PostCard/renderText';
import { useComments, type CommentsState } from './useComments';

export interface CommentsProps {
  postId: number;
  hrefs?: Partial<PostHrefs>;
  /** Asked when a visitor comments, replies, likes or reports; resolve true after a sign-in. */
  onLoginRequired?: () => void | boolean | Promise<boolean | void>;
  /**
   * A comment to open the thread of, scroll to and mark (`/post/{postid}/{commentid}`): a
   * top-level comment opens its replies; a reply already shown is marked in its thread.
   */
  focusCommentId?: number;
  className?: string;
}

/** A post's comments (30 a page) with replies, a reply form, likes, deletion and reports. */
export function Comments({ postId, hrefs, onLoginRequired, focusCommentId, className }: CommentsProps) {
  const state = useComments({ postId, ...(onLoginRequired ? { onLoginRequired } : {}), ...(focusCommentId !== undefined ? { focusCommentId } : {}) });
  useFocusedComment(state);
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const links = { ...defaultPostHrefs, ...hrefs };
  return (
    <section className={['fs-root', styles.root, className].filter(Boolean).join(' ')} aria-labelledby={titleId} lang={i18n.resolvedLanguage ?? i18n.language}>
      <h3 id={titleId} className={styles.title}>
        {t('posts.comments.title')}
      </h3>
      {state.loggedIn ? (
        <CommentForm label={t('posts.comments.write')} submit={t('posts.comments.send')} busy={state.busy} onSend={(text) => state.send(text)} />
      ) : (
        <button type="button" className={styles.secondary} onClick={state.login}>
          {t('posts.comments.loginToComment')}
        </button>
      )}
      {state.alert ? (
        <p className={styles.error} role="alert">
          {state.alert}
        </p>
      ) : null}
      {state.comments.length > 0 ? (
        <ul className={styles.list}>
          {state.comments.map((comment) => (
            <CommentItem key={comment.id} comment={comment} state={state} hrefs={links} topLevel />
          ))}
        </ul>
      ) : state.status === 'ended' ? (
        <p className={styles.muted}>{t('posts.comments.none')}</p>
      ) : null}
      {state.status === 'loading' ? <p role="status" className={styles.muted}>{t('posts.comments.loading')}</p> : null}
      {state.status === 'error' ? (
        <button type="button" className={styles.secondary} onClick={state.retry}>
          {t('posts.retry')}
        </button>
      ) : null}
      {state.status === 'ready' ? (
        <button type="button" className={styles.secondary} onClick={state.loadMore}>
          {t('posts.comments.more')}
        </button>
      ) : null}
    </section>
  );
}

/**
 * Opens the thread of the comment an address names and brings it into view once it is on
 * the page: after the comments load, and again after its replies arrive.
 */
function useFocusedComment(state: CommentsState) {
  const focusCommentId = state.focusedId;
  const opened = useRef<number | null>(null);
  const shown = useRef<number | null>(null);
  const { comments, threads } = state;
  useEffect(() => {
    if (focusCommentId === null) return;
    const topLevel = comments.find((c) => c.id === focusCommentId);
    if (topLevel && topLevel.childrenCount > 0 && opened.current !== focusCommentId && !threads[focusCommentId]?.open) {
      opened.current = focusCommentId;
      state.openReplies(focusCommentId);
    }
    if (shown.current === focusCommentId) return;
    const element = document.querySelector<HTMLElement>(`[data-comment-id="${focusCommentId}"]`);
    if (!element) return;
    shown.current = focusCommentId;
    element.scrollIntoView?.({ block: 'center' });
    element.focus({ preventScroll: true });
  }, [comments, threads, focusCommentId, state]);
}

function CommentItem({ comment, state, hrefs, topLevel }: { comment: Comment; state: CommentsState; hrefs: PostHrefs; topLevel: boolean }) {
  useSignals();
  const { t, i18n } = useTranslation();
  const { settings } = useFanstage();
  const [replying, setReplying] = useState(false);
  const [reported, setReported] = useState(false);
  const cdn = settings.settings.value?.mediaCDN;
  const mentions = settings.settings.value?.regExpMentions;
  const name = comment.user.displayName.trim() || comment.user.username;
  const avatar = cdn ? avatarUrl(cdn, comment.user.avatarMedia, 60) : null;
  const thread = state.threads[comment.id];
  const own = state.viewerId !== null && state.viewerId === comment.user.id;
  const hiddenReplies = topLevel && comment.childrenCount > 0 && !(thread?.open && thread.ended);
  const labelId = useId();
  return (
    <li className={styles.item}>
      <article
        className={[styles.comment, state.focusedId === comment.id ? styles.focused : ''].filter(Boolean).join(' ')}
        aria-labelledby={labelId}
        aria-current={state.focusedId === comment.id ? 'true' : undefined}
        data-comment-id={comment.id}
        tabIndex={state.focusedId === comment.id ? -1 : undefined}
      >
        {avatar ? <img className={styles.avatar} src={avatar} alt="" width={36} height={36} loading="lazy" /> : <span className={styles.avatar} aria-hidden="true">{initialsOf(name)}</span>}
        <div className={styles.body}>
          <p className={styles.head}>
            <a id={labelId} className={styles.name} href={hrefs.profile(comment.user.username)}>
              {name}
            </a>{' '}
            <time className={styles.muted} dateTime={new Date(comment.ts).toISOString()}>
              {timeLabel(t, i18n.resolvedLanguage ?? i18n.language, comment.ts, Date.now())}
            </time>
          </p>
          <p className={styles.text}>{renderText(parseRichText(comment.text, mentions), hrefs)}</p>
          <div className={styles.actions}>
            <button type="button" className={styles.action} aria-pressed={comment.isLiked} onClick={() => state.toggleLike(comment.id)}>
              {t('posts.comments.like')}
              {comment.likesCount > 0 ? <span className={styles.count}> {formatCount(comment.likesCount)}</span> : null}
            </button>
            {topLevel ? (
              <button type="button" className={styles.action} aria-expanded={replying} onClick={() => setReplying((v) => !v)}>
                {t('posts.comments.reply')}
              </button>
            ) : null}
            {comment.canDelete ? (
              <button type="button" className={styles.action} onClick={() => state.remove(comment.id)}>
                {t('posts.comments.delete')}
              </button>
            ) : null}
            {/* SPEC §6: reported by anyone signed in but its author — through the host's report form when it has one. */}
            {!own && state.loggedIn && hrefs.report ? (
              <a className={styles.action} href={hrefs.report('comment', comment.id)} aria-label={t('posts.comments.reportOf', { name })}>
                {t('posts.comments.report')}
              </a>
            ) : !own && state.loggedIn ? (
              <button type="button" className={styles.action} disabled={reported} onClick={() => void state.report(comment.id).then((ok) => ok && setReported(true))}>
                {reported ? t('posts.comments.reported') : t('posts.comments.report')}
              </button>
            ) : null}
          </div>
        </div>
      </article>
      {thread?.open && thread.list.length > 0 ? (
        <ul className={styles.replies}>
          {thread.list.map((reply) => (
            <CommentItem key={reply.id} comment={reply} state={state} hrefs={hrefs} topLevel={false} />
          ))}
        </ul>
      ) : null}
      {hiddenReplies ? (
        <button type="button" className={styles.link} disabled={thread?.loading} onClick={() => state.openReplies(comment.id)}>
          {t('posts.comments.viewReplies', { count: comment.childrenCount - (thread?.open ? thread.list.length : 0) })}
        </button>
      ) : null}
      {replying ? (
        <div className={styles.replyForm}>
          <CommentForm
            label={t('posts.comments.replyTo', { name })}
            submit={t('posts.comments.send')}
            busy={state.busy}
            autoFocus
            onSend={async (text) => {
              const ok = await state.send(text, comment.id);
              if (ok) setReplying(false);
              return ok;
            }}
          />
        </div>
      ) : null}
    </li>
  );
}

function CommentForm({ label, submit, busy, onSend, autoFocus }: { label: string; submit: string; busy: boolean; onSend: (text: string) => Promise<boolean>; autoFocus?: boolean }) {
  const [text, setText] = useState('');
  const id = useId();
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (await onSend(text)) setText('');
  }
  return (
    <form className={styles.form} onSubmit={(event) => void onSubmit(event)}>
      <label htmlFor={id} className={styles.visuallyHidden}>
        {label}
      </label>
      <textarea
        id={id}
        className={styles.input}
        value={text}
        rows={1}
        maxLength={2000}
        placeholder={label}
        autoFocus={autoFocus}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            void onSubmit(event);
          }
        }}
      />
      <button type="submit" className={styles.send} disabled={busy || !text.trim()}>
        {submit}
      </button>
    </form>
  );
}
