import { useCallback, useEffect, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { isSdkError, pageSizes, type Comment } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';

/** SPEC §9: a comment's replies show by themselves when there are fewer than 3. */
export const AUTO_REPLIES_BELOW = 3;

export type CommentsStatus = 'loading' | 'ready' | 'ended' | 'error';

export interface ReplyThread {
  list: Comment[];
  /** Replies are shown (automatically, or after 'view replies'). */
  open: boolean;
  loading: boolean;
  ended: boolean;
}

export interface UseCommentsOptions {
  postId: number;
  onLoginRequired?: () => void | boolean | Promise<boolean | void>;
  /** The comment an address points at (`/post/{postid}/{commentid}`). */
  focusCommentId?: number;
}

/** A post's comments of 30 with their replies, and the viewer's actions on them. */
export function useComments({ postId, onLoginRequired, focusCommentId }: UseCommentsOptions) {
  useSignals();
  const fanstage = useFanstage();
  const { t } = useTranslation();
  const api = fanstage.posts.api;
  const loggedIn = fanstage.session.isLoggedIn.value;
  const viewerId = fanstage.session.userId.value;
  const [comments, setComments] = useState<Comment[]>([]);
  const [status, setStatus] = useState<CommentsStatus>('loading');
  const [threads, setThreads] = useState<Record<number, ReplyThread>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const serial = useRef(0);

  const fail = useCallback(
    (error: unknown) => {
      const generic = t('posts.actionFailed');
      setAlert(isSdkError(error) ? t(`errors.${error.code}`, { defaultValue: generic }) : generic);
    },
    [t],
  );

  const adopt = useCallback((page: Comment[], append: boolean) => {
    setComments((current) => {
      const known = new Set(append ? current.map((c) => c.id) : []);
      return [...(append ? current : []), ...page.filter((c) => !known.has(c.id))];
    });
    setThreads((current) => {
      const next = append ? { ...current } : {};
      for (const comment of page) {
        next[comment.id] ??= {
          list: comment.replies ?? [],
          open: comment.childrenCount > 0 && comment.childrenCount < AUTO_REPLIES_BELOW,
          loading: false,
          ended: (comment.replies?.length ?? 0) >= comment.childrenCount,
        };
      }
      return next;
    });
  }, []);

  const load = useCallback(
    async (append: boolean, before?: number) => {
      const mine = ++serial.current;
      setStatus('loading');
      try {
        const page = await api.comments(postId, { limit: pageSizes.comments, ...(before !== undefined ? { ts: before } : {}) }, fanstage.session.isLoggedIn.peek());
        if (mine !== serial.current) return;
        adopt(page, append);
        setStatus(page.length < pageSizes.comments ? 'ended' : 'ready');
      } catch (error) {
        if (mine !== serial.current) return;
        setStatus('error');
        fail(error);
      }
    },
    [api, postId, fanstage, adopt, fail],
  );

  useEffect(() => {
    void load(false);
  }, [load, loggedIn]);

  const loadMore = () => {
    const last = comments[comments.length - 1];
    if (status !== 'ready' || !last) return;
    void load(true, last.ts);
  };

  async function ensureLogin(): Promise<boolean> {
    if (fanstage.session.isLoggedIn.peek()) return true;
    const result = await onLoginRequired?.();
    return result === true && fanstage.session.isLoggedIn.peek();
  }

  /** Posts a comment, or a reply when `parentId` is given; resolves whether it was sent. */
  async function send(text: string, parentId?: number): Promise<boolean> {
    const body = text.trim();
    if (!body) return false;
    setAlert(null);
    if (!(await ensureLogin())) return false;
    setBusy(true);
    try {
      const created = await api.comment({ postId, text: body, ...(parentId ? { parentId } : {}) });
      if (parentId) {
        setThreads((current) => {
          const thread = current[parentId] ?? { list: [], open: true, loading: false, ended: true };
          return { ...current, [parentId]: { ...thread, open: true, list: [...thread.list, created] } };
        });
        setComments((current) => current.map((c) => (c.id === parentId ? { ...c, childrenCount: c.childrenCount + 1 } : c)));
      } else {
        setComments((current) => [created, ...current]);
        setThreads((current) => ({ ...current, [created.id]: { list: [], open: false, loading: false, ended: true } }));
      }
      fanstage.posts.adjustComments(postId, 1, !parentId);
      return true;
    } catch (error) {
      fail(error);
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function openReplies(commentId: number) {
    const thread = threads[commentId];
    if (thread?.open && thread.ended) return;
    const after = thread?.list[thread.list.length - 1]?.ts;
    setThreads((current) => ({ ...current, [commentId]: { ...(current[commentId] ?? { list: [], ended: false }), open: true, loading: true } }));
    try {
      const page = await api.replies(commentId, after !== undefined ? { ts: after } : {}, fanstage.session.isLoggedIn.peek());
      setThreads((current) => {
        const existing = current[commentId]?.list ?? [];
        const known = new Set(existing.map((c) => c.id));
        const list = [...existing, ...page.filter((c) => !known.has(c.id))];
        const total = comments.find((c) => c.id === commentId)?.childrenCount ?? list.length;
        return { ...current, [commentId]: { list, open: true, loading: false, ended: page.length === 0 || list.length >= total } };
      });
    } catch (error) {
      setThreads((current) => ({ ...current, [commentId]: { ...(current[commentId] as ReplyThread), loading: false } }));
      fail(error);
    }
  }

  function update(id: number, change: (c: Comment) => Comment) {
    setComments((current) => current.map((c) => (c.id === id ? change(c) : c)));
    setThreads((current) => {
      const next: Record<number, ReplyThread> = {};
      for (const [key, thread] of Object.entries(current)) next[Number(key)] = { ...thread, list: thread.list.map((c) => (c.id === id ? change(c) : c)) };
      return next;
    });
  }

  function find(id: number): Comment | undefined {
    return comments.find((c) => c.id === id) ?? Object.values(threads).flatMap((thread) => thread.list).find((c) => c.id === id);
  }

  async function toggleLike(id: number) {
    setAlert(null);
    if (!(await ensureLogin())) return;
    const comment = find(id);
    if (!comment) return;
    const liking = !comment.isLiked;
    update(id, (c) => ({ ...c, isLiked: liking, likesCount: Math.max(0, c.likesCount + (liking ? 1 : -1)) }));
    try {
      if (liking) await api.likeComment(id);
      else await api.unlikeComment(id);
    } catch (error) {
      update(id, (c) => ({ ...c, isLiked: comment.isLiked, likesCount: comment.likesCount }));
      fail(error);
    }
  }

  async function remove(id: number) {
    setAlert(null);
    const comment = find(id);
    if (!comment) return;
    try {
      await api.removeComment(id);
      if (comment.parentId) {
        setThreads((current) => {
          const thread = current[comment.parentId as number];
          return thread ? { ...current, [comment.parentId as number]: { ...thread, list: thread.list.filter((c) => c.id !== id) } } : current;
        });
        setComments((current) => current.map((c) => (c.id === comment.parentId ? { ...c, childrenCount: Math.max(0, c.childrenCount - 1) } : c)));
        fanstage.posts.adjustComments(postId, -1, false);
      } else {
        setComments((current) => current.filter((c) => c.id !== id));
        fanstage.posts.adjustComments(postId, -(1 + comment.childrenCount), true);
      }
    } catch {
      // SPEC §8: a failed comment deletion is silent; the comment simply stays.
    }
  }

  async function report(id: number): Promise<boolean> {
    setAlert(null);
    if (!(await ensureLogin())) return false;
    try {
      await api.reportComment(id);
      return true;
    } catch (error) {
      fail(error);
      return false;
    }
  }

  return {
    comments,
    threads,
    status,
    alert,
    busy,
    loggedIn,
    viewerId,
    focusedId: focusCommentId ?? null,
    loadMore,
    retry: () => void load(false),
    send,
    openReplies: (id: number) => void openReplies(id),
    toggleLike: (id: number) => void toggleLike(id),
    remove: (id: number) => void remove(id),
    report,
    login: () => void ensureLogin(),
  };
}

export type CommentsState = ReturnType<typeof useComments>;
