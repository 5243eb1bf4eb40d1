import { useEffect } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { PagedList, PagedStatus, PublicProfile } from '../../sdk';

export interface UserListState {
  users: readonly PublicProfile[];
  status: PagedStatus;
  /** Said while the first page loads, and politely after each page. */
  statusText: string;
  /** Shown with a retry button when a page failed. */
  errorText: string | null;
  retryLabel: string;
  emptyText: string | null;
  /** Null when no further page would be fetched (ended, or the 30 of a user list are loaded). */
  loadMoreLabel: string | null;
  busy: boolean;
  onLoadMore: () => void;
  onRetry: () => void;
}

/** A paged list of creators, started on first render, as render-ready props. */
export function useUserList(list: PagedList<PublicProfile>, options: { emptyText?: string } = {}): UserListState {
  useSignals();
  const { t } = useTranslation();
  useEffect(() => {
    void list.start();
  }, [list]);

  const users = list.items.value;
  const status = list.status.value;
  const canLoadMore = list.canLoadMore.value;
  return {
    users,
    status,
    statusText: status === 'loading' ? t('discover.loading') : status === 'ended' && users.length > 0 ? t('discover.end') : '',
    errorText: status === 'error' ? t('discover.error') : null,
    retryLabel: t('app.retry'),
    emptyText: status === 'ended' && users.length === 0 ? (options.emptyText ?? t('discover.empty')) : null,
    loadMoreLabel: canLoadMore ? t('discover.loadMore') : null,
    busy: status === 'loading' || status === 'idle',
    onLoadMore: () => void list.nextPage(),
    onRetry: () => void list.nextPage(),
  };
}
