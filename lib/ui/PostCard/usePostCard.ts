import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { avatarUrl, formatCount, isSdkError, relativeTime, relativeTimeRefreshMs, type Post } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';
import { initialsOf } from '../../sdk/rules/initials';
import { parseRichText, type TextPart } from './richText';

/** Where the links of a card lead; the host site's routes by default (SPEC §2). */
export interface PostHrefs {
  profile: (username: string) => string;
  hashtag: (tag: string) => string;
  post: (postId: number) => string;
  editPost: (postId: number) => string;
  /** The report form for a post, comment, chat message or profile; without it no Report action shows. */
  report?: (type: 'user' | 'post' | 'comment' | 'message', id: number) => string;
}

export const defaultPostHrefs: PostHrefs = {
  profile: (username) => `/${encodeURIComponent(username)}`,
  hashtag: (tag) => `/search-hashtags/${encodeURIComponent(tag)}`,
  post: (postId) => `/post/${postId}`,
  editPost: (postId) => `/update-post/${postId}`,
  report: (type, id) => `/abuse-form?type=${type}&id=${id}`,
};

/**
 * What a card does for a visitor's action (SPEC §6: every action asks for a login). Resolving
 * `true` means the visitor signed in (a widget's popup sign-in) and the action goes ahead.
 */
export type LoginRequired = (reason: 'like' | 'comment' | 'gift' | 'chat' | 'follow' | 'unlock') => void | boolean | Promise<boolean | void>;

export interface PostCardCallbacks {
  onLoginRequired?: LoginRequired;
  /** The host opens its gift picker; not offered on the viewer's own posts. */
  onGift?: (post: Post) => void;
  /** The host opens the chat with the author; not offered on the viewer's own posts. */
  onChat?: (post: Post) => void;
  /** The comment button; without it the button links to the post's page. */
  onComment?: (post: Post) => void;
  /** The share button; without it the card opens its own share dialog. */
  onShare?: (post: Post) => void;
  /** A click on a media; without it the card opens the full-screen viewer. */
  onOpenMedia?: (post: Post, index: number) => void;
  /** The unlock button of a locked media (payments come from the host). */
  onUnlock?: (post: Post, mediaIndex: number) => void;
  /** The edit item of the owner; without it the item links to `hrefs.editPost`. */
  onEdit?: (post: Post) => void;
  /** After the owner deleted the post. */
  onDeleted?: (post: Post) => void;
  /** The server asked for a verified e-mail first (SPEC §5). */
  onVerifyEmail?: () => void;
}

export interface UsePostCardOptions extends PostCardCallbacks {
  postId: number;
  hrefs?: Partial<PostHrefs>;
}

export interface PostCardData {
  post: Post;
  authorName: string;
  handle: string;
  profileHref: string;
  postHref: string;
  editHref: string;
  avatar: { src: string } | null;
  initials: string;
  time: { label: string; dateTime: string };
  text: TextPart[];
  hrefs: PostHrefs;
  isOwner: boolean;
  /** Epoch ms while scheduled in the future; the actions are off. */
  scheduledFor: string | null;
  liked: boolean;
  likeBusy: boolean;
  likes: string;
  comments: string;
  gifts: string;
  mediaCDN: string;
  salt: number;
}

export type PostCardState =
  | { status: 'loading' }
  | { status: 'error'; message: string; onRetry: () => void }
  | { status: 'gone' }
  | {
      status: 'ready';
      data: PostCardData;
      alert: string | null;
      announcement: string | null;
      onLike: () => void;
      onDelete: () => Promise<void>;
      loginRequired: LoginRequired | undefined;
    };

/** The card's data and actions from the post store: one copy of the post for every list. */
export function usePostCard(options: UsePostCardOptions): PostCardState {
  useSignals();
  const fanstage = useFanstage();
  const { t, i18n } = useTranslation();
  const { postId } = options;
  const entry = useMemo(() => fanstage.posts.get(postId), [fanstage, postId]);
  const settingsStore = fanstage.settings;
  const [alert, setAlert] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const optionsRef = useRef(options);
  optionsRef.current = options;

  useEffect(() => {
    if (settingsStore.status.peek() === 'idle') settingsStore.load().catch(() => undefined);
  }, [settingsStore]);

  const post = entry.post.value;
  const removed = fanstage.posts.removed.value.has(postId);
  const likeBusy = fanstage.posts.pendingLikes.value.has(postId);
  const settings = settingsStore.settings.value;
  const viewerId = fanstage.session.userId.value;

  useEffect(() => {
    // Relative times age: refresh at the pace SPEC §9 gives.
    if (!post) return;
    const delay = relativeTimeRefreshMs(post.ts, now);
    if (delay === null) return;
    const timer = setTimeout(() => setNow(Date.now()), delay);
    return () => clearTimeout(timer);
  }, [post, now]);

  const fail = useCallback(
    (error: unknown) => {
      if (isSdkError(error) && error.code === 'email-not-verified' && optionsRef.current.onVerifyEmail) {
        optionsRef.current.onVerifyEmail();
        return;
      }
      setAlert(errorText(t, error));
    },
    [t],
  );

  const like = useCallback(async () => {
    setAlert(null);
    const { onLoginRequired } = optionsRef.current;
    if (!fanstage.session.isLoggedIn.peek()) {
      const signedIn = await onLoginRequired?.('like');
      if (signedIn !== true || !fanstage.session.isLoggedIn.peek()) return;
      // The card was loaded anonymously: learn whether this fan liked it already.
      await fanstage.posts.load(postId).catch(() => undefined);
      if (fanstage.posts.peek(postId)?.likedByMe) return;
    }
    const wasLiked = fanstage.posts.peek(postId)?.likedByMe ?? false;
    try {
      await fanstage.posts.toggleLike(postId);
      setAnnouncement(wasLiked ? t('posts.unliked') : t('posts.liked'));
    } catch (error) {
      fail(error);
    }
  }, [fanstage, postId, t, fail]);

  const remove = useCallback(async () => {
    setAlert(null);
    const current = fanstage.posts.peek(postId);
    try {
      await fanstage.posts.remove(postId);
      if (current) optionsRef.current.onDeleted?.(current);
    } catch (error) {
      fail(error);
    }
  }, [fanstage, postId, fail]);

  const retry = useCallback(() => {
    void fanstage.posts.load(postId).catch(() => undefined);
  }, [fanstage, postId]);

  if (removed) return { status: 'gone' };
  if (!post) {
    const error = entry.error.value;
    if (entry.status.value === 'error' && error) {
      if (error.code === 'post-doesnt-exists' || error.code === 'not-found') return { status: 'gone' };
      return { status: 'error', message: t('posts.error'), onRetry: retry };
    }
    return { status: 'loading' };
  }

  const hrefs: PostHrefs = { ...defaultPostHrefs, ...options.hrefs };
  const authorName = post.user.displayName.trim() || post.user.username;
  const avatar = settings ? avatarUrl(settings.mediaCDN, post.user.avatarMedia, 60) : null;
  const scheduled = post.startDate !== null && post.startDate > now;
  const language = i18n.resolvedLanguage ?? i18n.language;
  return {
    status: 'ready',
    data: {
      post,
      authorName,
      handle: `@${post.user.username}`,
      profileHref: hrefs.profile(post.user.username),
      postHref: hrefs.post(post.id),
      editHref: hrefs.editPost(post.id),
      avatar: avatar ? { src: avatar } : null,
      initials: initialsOf(authorName),
      time: { label: timeLabel(t, language, post.ts, now), dateTime: new Date(post.ts).toISOString() },
      text: parseRichText(post.text, settings?.regExpMentions),
      hrefs,
      isOwner: post.isMy || (viewerId !== null && viewerId === post.user.id),
      scheduledFor: scheduled && post.startDate !== null ? formatDate(language, post.startDate) : null,
      liked: post.likedByMe,
      likeBusy,
      likes: formatCount(post.totalLikesCount),
      comments: formatCount(post.totalCommentsCount),
      gifts: formatCount(post.totalGiftsCount),
      mediaCDN: settings?.mediaCDN ?? fanstage.client.url('/media'),
      salt: settings?.salt ?? 10_000,
    },
    alert,
    announcement,
    onLike: () => void like(),
    onDelete: remove,
    loginRequired: options.onLoginRequired,
  };
}

export function errorText(t: TFunction, error: unknown): string {
  const generic = t('posts.actionFailed');
  if (!isSdkError(error) || error.code === 'aborted') return generic;
  return t(`errors.${error.code}`, { defaultValue: generic });
}

export function timeLabel(t: TFunction, language: string, ts: number, now: number): string {
  const relative = relativeTime(ts, now);
  switch (relative.key) {
    case 'justNow':
      return t('time.justNow');
    case 'minutes':
    case 'hours':
      return t(`time.${relative.key}`, { count: relative.count });
    case 'date':
      return formatDate(language, relative.date.getTime(), false);
  }
}

export function formatDate(language: string, ms: number, withTime = true): string {
  try {
    return new Intl.DateTimeFormat(language, withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' }).format(new Date(ms));
  } catch {
    return new Date(ms).toISOString().slice(0, 10);
  }
}

export { initialsOf };

/**
 * Reports the post seen once per session when at least half of it stayed in view for 400 ms
 * (SPEC §9); the once-per-session bookkeeping is the post store's.
 */
export function usePostSeen(ref: RefObject<Element | null>, postId: number, enabled = true): void {
  const { posts } = useFanstage();
  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element || typeof IntersectionObserver === 'undefined' || posts.wasSeen(postId)) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let since = 0;
    let ratio = 0;
    const observer = new IntersectionObserver(
      ([record]) => {
        if (!record) return;
        ratio = record.intersectionRatio;
        if (ratio >= 0.5 && timer === null) {
          since = Date.now();
          timer = setTimeout(() => {
            posts.markSeen(postId, { duration: Date.now() - since, visibleRatio: ratio });
            observer.disconnect();
          }, 400);
        } else if (ratio < 0.5 && timer !== null) {
          clearTimeout(timer);
          timer = null;
        }
      },
      { threshold: [0, 0.5, 0.7, 1] },
    );
    observer.observe(element);
    return () => {
      if (timer !== null) clearTimeout(timer);
      observer.disconnect();
    };
  }, [ref, postId, posts, enabled]);
}

