import type { Counts, NotificationPage, NotificationsQuery, PostList, ProfileList, SearchFilter, SearchTips, TagResult } from '../contract';
import type { FanstageClient } from './client';

/** Paging of post lists: by `offset`, or by `ts` (older than the last post seen). */
export interface PostPageQuery {
  offset?: number;
  ts?: number;
  limit?: number;
}

/** Calls of discover, search and who-to-follow (SPEC §7 Users and social, Search). */
export function discoverApi(client: FanstageClient) {
  return {
    /** Creators by the search filter; only the fields present are sent (SPEC §5). */
    search: (filter: SearchFilter, signal?: AbortSignal) => client.get<ProfileList>('/papi/discover/search', { ...filter }, { signal }),
    newPosts: (query: PostPageQuery = {}, signal?: AbortSignal) => client.get<PostList>('/papi/discover/new-posts', { ...query }, { signal }),
    activeUsers: (query: { offset?: number; limit?: number } = {}, signal?: AbortSignal) =>
      client.get<ProfileList>('/papi/discover/active-users', { ...query }, { signal }),
    whoToFollow: (query: { limit?: number; offset?: number; seed?: number } = {}, signal?: AbortSignal) =>
      client.get<ProfileList>('/papi/who-to-follow', { ...query }, { signal }),
    users: (q: string, signal?: AbortSignal) => client.get<ProfileList>('/papi/search/users', { q }, { signal }),
    /** People search by name (the quick search's people), ranked by match, a page at a time. */
    people: (q: string, page: { limit?: number; offset?: number } = {}, signal?: AbortSignal) =>
      client.get<ProfileList>('/papi/search/users', { q, ...page }, { signal }),
    /** Quick-search suggestions: creators and hashtags, at most 8 in all. */
    tips: (q: string, signal?: AbortSignal) => client.get<SearchTips>('/papi/search/tips', { q }, { signal }),
    tags: (q: string, signal?: AbortSignal) => client.get<TagResult[]>('/papi/search/tags', { q }, { signal }),
    posts: (q: string, query: PostPageQuery = {}, signal?: AbortSignal) => client.get<PostList>('/papi/search/posts', { q, ...query }, { signal }),
    hashtagPosts: (tag: string, query: PostPageQuery = {}, signal?: AbortSignal) =>
      client.get<PostList>(`/papi/posts/hashtag/${encodeURIComponent(tag)}`, { ...query }, { signal }),
  };
}

export type DiscoverApi = ReturnType<typeof discoverApi>;

/** Calls of notifications and the navigation's badge counts (SPEC §7 Notifications). */
export function notificationsApi(client: FanstageClient) {
  return {
    page: (query: NotificationsQuery, signal?: AbortSignal) => client.get<NotificationPage>('/api/2/notifications', { ...query }, { signal }),
    markRead: () => client.post<undefined>('/api/2/notifications/read'),
    counts: (signal?: AbortSignal) => client.get<Counts>('/api/count/', undefined, { signal }),
  };
}

export type NotificationsApi = ReturnType<typeof notificationsApi>;
