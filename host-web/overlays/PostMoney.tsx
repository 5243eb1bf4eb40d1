import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { Post } from '../../lib/sdk';
import { useSite } from '../site';
import { gopayReturnUrl } from '../routes/moneyLinks';
import { useWebLayout } from '../layout/webLayout';

// Loaded when a fan first unlocks or gives a gift: most visits never open them.
const UnlockMediaPopup = lazy(() => import('../../lib/ui/UnlockMediaPopup').then((m) => ({ default: m.UnlockMediaPopup })));
const PostGift = lazy(() => import('./PostGift').then((m) => ({ default: m.PostGift })));

type Open = { kind: 'unlock'; postId: number; mediaIndex: number } | { kind: 'gift'; postId: number } | null;

export interface PostMoneyActions {
  /** PostCard's `onUnlock`: the unlock-media popup. */
  onUnlock: (post: Post, mediaIndex: number) => void;
  /** PostCard's `onGift`: the gift picker. */
  onGift: (post: Post) => void;
  /** PostCard's `onChat`: the chat with the post's author (the card asks visitors to log in first). */
  onChat: (post: Post) => void;
  /** PostCard's quick profile hover: on the web layout only (SPEC §2). */
  profileHover: boolean;
}

const PostMoneyContext = createContext<PostMoneyActions | null>(null);

/**
 * The site's money overlays for posts in any list or page: unlocking a media (SPEC §4 Media
 * lock) and giving a gift. One at a time, above every screen; the card that opened one gets
 * focus back when it closes.
 */
export function PostMoneyProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<Open>(null);
  const { loggedIn, openLoginPrompt } = useSite();
  const [, navigate] = useLocation();
  const web = useWebLayout();
  const actions = useMemo<PostMoneyActions>(
    () => ({
      onUnlock: (post, mediaIndex) => {
        if (!loggedIn) {
          openLoginPrompt();
          return;
        }
        setOpen({ kind: 'unlock', postId: post.id, mediaIndex });
      },
      onGift: (post) => {
        if (!loggedIn) {
          openLoginPrompt();
          return;
        }
        setOpen({ kind: 'gift', postId: post.id });
      },
      onChat: (post) => navigate(`/chat/${encodeURIComponent(post.user.username)}`),
      profileHover: web,
    }),
    [loggedIn, openLoginPrompt, navigate, web],
  );
  const close = useCallback(() => setOpen(null), []);
  const [location] = useLocation();
  // An overlay belongs to the screen it was opened on: leaving the screen closes it.
  useEffect(() => setOpen(null), [location]);
  return (
    <PostMoneyContext.Provider value={actions}>
      {children}
      {open ? (
        <Suspense fallback={null}>
          {open.kind === 'unlock' ? (
            <UnlockMediaPopup
              key={`${open.postId}:${open.mediaIndex}`}
              postId={open.postId}
              mediaIndex={open.mediaIndex}
              onClose={close}
              // A new card for a subscription leaves the page and comes back to it through /gopay-return.
              subscription={{ paymentMode: 'redirect', returnUrl: gopayReturnUrl() }}
            />
          ) : (
            <PostGift key={open.postId} postId={open.postId} onClose={close} />
          )}
        </Suspense>
      ) : null}
    </PostMoneyContext.Provider>
  );
}

/** The card callbacks of the money overlays; spread them into a `PostCard` or a `Feed`. */
export function usePostMoney(): PostMoneyActions | Record<string, never> {
  return useContext(PostMoneyContext) ?? {};
}
