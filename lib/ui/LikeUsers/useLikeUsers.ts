import { useEffect, useMemo } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { avatarUrl, type PublicProfile } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';

export interface LikeUserRow {
  user: PublicProfile;
  name: string;
  handle: string;
  href: string;
  avatar: string | null;
  initials: string;
  /** The viewer themself: no follow button. */
  self: boolean;
}

export interface LikeUsersState {
  rows: LikeUserRow[];
  busy: boolean;
  statusText: string;
  errorText: string | null;
  emptyText: string | null;
  /** Null when there is no next page to ask for. */
  moreLabel: string | null;
  onMore: () => void;
  onRetry: () => void;
}

/** Who liked a post, paged by 15 (SPEC §7, §9), as render-ready rows. */
export function useLikeUsers(postId: number, hrefFor: (username: string) => string): LikeUsersState {
  useSignals();
  const fanstage = useFanstage();
  const { t } = useTranslation();
  const list = useMemo(() => fanstage.posts.likers(postId), [fanstage, postId]);
  useEffect(() => {
    void list.start();
  }, [list]);
  const settings = fanstage.settings.settings.value;
  useEffect(() => {
    if (fanstage.settings.status.peek() === 'idle') fanstage.settings.load().catch(() => undefined);
  }, [fanstage]);

  const viewerId = fanstage.session.userId.value;
  const status = list.status.value;
  const users = list.items.value;
  const rows = users.map((user) => {
    const name = user.displayName.trim() || user.username;
    return {
      user,
      name,
      handle: `@${user.username}`,
      href: hrefFor(user.username),
      avatar: settings ? avatarUrl(settings.mediaCDN, user.avatarMedia, 60) : null,
      initials: (Array.from(name)[0] ?? '?').toLocaleUpperCase(),
      self: viewerId !== null && user.id === viewerId,
    };
  });
  return {
    rows,
    busy: status === 'loading' || status === 'idle',
    statusText: status === 'loading' ? t('posts.likers.loading') : '',
    errorText: status === 'error' ? t('posts.likers.error') : null,
    emptyText: status === 'ended' && users.length === 0 ? t('posts.likers.empty') : null,
    moreLabel: list.canLoadMore.value ? t('posts.likers.more') : null,
    onMore: () => void list.nextPage(),
    onRetry: () => void list.nextPage(),
  };
}
