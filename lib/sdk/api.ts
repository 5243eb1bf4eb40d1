import type {
  AccessTokenBody,
  Account,
  ActionResult,
  AffiliateInfo,
  Comment,
  CreateCommentBody,
  CreatedPost,
  CreateMediaBody,
  CreatePostBody,
  Gift,
  Invite,
  LikeState,
  MediaView,
  Post,
  PostList,
  PostStatsBody,
  UpdateMediaBody,
  UploadedBinary,
  LoginBody,
  ProfileList,
  PublicProfile,
  RelationsQuery,
  Settings,
  SignupBody,
  UpdateMeBody,
  ViewedProfile,
} from '../contract';
import type { FanstageClient } from './client';
import type { DeleteMeBody } from '../contract/account';

/** Typed calls of the public API (SPEC §7), one function per endpoint. */
export function publicApi(client: FanstageClient) {
  return {
    settings: () => client.get<Settings>('/papi/settings'),
    gifts: () => client.get<Gift[]>('/papi/gifts'),
    user: (idOrUsername: string | number, signal?: AbortSignal) =>
      client.get<PublicProfile>(`/papi/users/${encodeURIComponent(String(idOrUsername))}`, undefined, { signal }),
    whoToFollow: (query: { limit?: number; offset?: number; seed?: number } = {}) =>
      client.get<ProfileList>('/papi/who-to-follow', query),
    /** Who is behind an 8-character invite code (username, display name, avatar), for the invitation prompt. */
    affiliate: (code: string, signal?: AbortSignal) =>
      client.get<AffiliateInfo>(`/papi/users/aff-code/${encodeURIComponent(code)}`, undefined, { signal, withToken: true }),
  };
}

export type PublicApi = ReturnType<typeof publicApi>;

/** Calls of accounts and sessions (SPEC §7 Account and session). The session store uses them. */
export function accountApi(client: FanstageClient) {
  return {
    signup: (body: SignupBody) => client.post<undefined>('/papi/signup', body),
    login: (body: LoginBody) => client.post<AccessTokenBody>('/papi/login', body),
    /** Without a refresh token the HttpOnly cookie is used (the site); with one, the body (widgets). */
    refresh: (refreshToken?: string) =>
      refreshToken === undefined
        ? client.get<AccessTokenBody>('/papi/login/refresh')
        : client.post<AccessTokenBody>('/papi/login/refresh', { refreshToken }),
    logout: (refreshToken?: string) =>
      refreshToken === undefined ? client.get<undefined>('/papi/login/logout') : client.post<undefined>('/papi/login/logout', { refreshToken }),
    /** Mails a reset link; answers the same whether or not the address has an account. */
    requestPasswordReset: (email: string) => client.post<undefined>('/papi/login/reset', { email }),
    resetPassword: (hash: string, password: string) => client.post<undefined>('/papi/login/reset', { hash, password }),
    /** Confirms the action behind a mailed `/action/{hash}` link, e.g. verify-email. */
    confirmAction: (hash: string) => client.post<ActionResult>('/papi/action/jwt', { hash }),
    resendVerification: () => client.post<undefined>('/api/users/resend-verification'),
    me: () => client.get<Account>('/api/users/me'),
    /** The account's invite code and link (`/?aff=CODE`), and who invited it. */
    invite: () => client.get<Invite>('/api/users/invite'),
    /** Records who invited the account, from their invite code; the first inviter stays. */
    acceptInvite: (affCode: string) => client.post<undefined>('/api/users/aff-code', { affCode }),
    updateMe: (body: UpdateMeBody) => client.request<Account>('PUT', '/api/users/me', { body }),
    /** Deletes the account: the survey's reason (enum deleteReason), its text, and the password. Every session ends. */
    deleteMe: (body: DeleteMeBody) => client.request<undefined>('DELETE', '/api/users/me', { body }),
    /** Texts a verification code to `phone` (E.164); the answer names the number as the server read it. */
    sendPhoneCode: (phone: string) => client.get<{ phone: string; expiresInSeconds: number }>('/api/sms/send-verification-code', { phone }),
    /** Proves the number with the newest code; the account's `phoneVerified` is true afterwards. */
    verifyPhone: (code: string) => client.post<undefined>('/api/users/verify-phone', { code }),
    /**
     * A new avatar, sent as multipart `file`; the server reads the type from the bytes and
     * answers the account with the new `avatarMedia`. A FormData body can be sent again, so a
     * 401 still gets its one refresh and retry.
     */
    uploadAvatar: (file: Blob, fileName = 'avatar', signal?: AbortSignal) => {
      const form = new FormData();
      form.append('file', file, fileName);
      return client.post<Account>('/api/users/me/avatar', form, { signal });
    },
  };
}

export type AccountApi = ReturnType<typeof accountApi>;

/** Calls of the social graph (SPEC §7 Users and social). */
export function socialApi(client: FanstageClient) {
  return {
    /** A profile with the logged-in viewer's relation to it. */
    viewedUser: (username: string | number, signal?: AbortSignal) =>
      client.get<ViewedProfile>(`/api/users/${encodeURIComponent(String(username))}`, undefined, { signal }),
    follow: (id: number) => client.post<undefined>('/api/users/follow', { id }),
    unfollow: (id: number) => client.request<undefined>('DELETE', '/api/users/follow', { body: { id } }),
    block: (id: number) => client.post<undefined>('/api/users/block', { id }),
    unblock: (id: number) => client.request<undefined>('DELETE', '/api/users/block', { body: { id } }),
    hide: (id: number) => client.post<undefined>('/api/users/hide', { id }),
    /** Lists of 30; `/api` for the viewer's own lists, `/papi` for another user's public ones. */
    relations: (query: RelationsQuery, loggedIn: boolean) =>
      client.get<ViewedProfile[] | PublicProfile[]>(loggedIn ? '/api/users/relations' : '/papi/users/relations', { ...query }),
  };
}

export type SocialApi = ReturnType<typeof socialApi>;

/** A page of a list: `ts` (older than this) or `offset`, and its size. */
export interface PageParams {
  limit?: number;
  offset?: number;
  ts?: number;
}

/**
 * Calls of posts, comments, likes and the timelines (SPEC §7 Posts). Lists a visitor may read
 * go to `/papi` (the client still sends the viewer's token there when it has one, so the
 * viewer's flags come back); the private ones to `/api`.
 */
export function postsApi(client: FanstageClient) {
  const id = (value: number) => encodeURIComponent(String(value));
  return {
    publicTimeline: (query: PageParams & { gender?: number } = {}, signal?: AbortSignal) =>
      client.get<PostList>('/papi/2/timeline', { ...query }, { signal, withToken: true }),
    privateTimeline: (query: PageParams = {}, signal?: AbortSignal) => client.get<PostList>('/api/2/timeline', { ...query }, { signal }),
    userPosts: (username: string, query: PageParams = {}, signal?: AbortSignal) =>
      client.get<PostList>('/papi/2/posts', { username, ...query }, { signal, withToken: true }),
    /** A user's posts with media, for the profile grid. */
    mediaTimeline: (userId: number | string, query: Pick<PageParams, 'ts'> = {}, signal?: AbortSignal) =>
      client.get<PostList>(`/papi/posts/media/timeline/${encodeURIComponent(String(userId))}`, { ...query }, { signal, withToken: true }),
    hashtag: (tag: string, query: PageParams = {}, signal?: AbortSignal) =>
      client.get<PostList>(`/papi/posts/hashtag/${encodeURIComponent(tag)}`, { ...query }, { signal, withToken: true }),
    unlocked: (query: PageParams = {}, signal?: AbortSignal) => client.get<PostList>('/api/unlocked-posts', { ...query }, { signal }),
    scheduled: (query: PageParams = {}, signal?: AbortSignal) => client.get<PostList>('/api/scheduled-posts', { ...query }, { signal }),
    tour: (limit = 7, signal?: AbortSignal) => client.get<PostList>('/papi/posts/media/tour', { limit }, { signal, withToken: true }),
    /** One post; `loggedIn` picks `/api` (the viewer's own scheduled posts are there too). */
    post: (postId: number, loggedIn: boolean, signal?: AbortSignal) =>
      client.get<Post>(`${loggedIn ? '/api' : '/papi'}/posts/${id(postId)}`, undefined, { signal }),
    create: (body: CreatePostBody) => client.post<CreatedPost>('/api/posts', body),
    update: (postId: number, text: string) => client.request<Post>('PUT', `/api/posts/${id(postId)}`, { body: { text } }),
    remove: (postId: number) => client.request<undefined>('DELETE', `/api/posts/${id(postId)}`),
    like: (postId: number) => client.post<LikeState>(`/api/posts/${id(postId)}/likes`),
    unlike: (postId: number) => client.request<LikeState>('DELETE', `/api/posts/${id(postId)}/likes`),
    likes: (postId: number, query: Pick<PageParams, 'limit' | 'offset'> = {}) =>
      client.get<PublicProfile[]>(`/api/posts/${id(postId)}/likes`, { limit: 15, ...query }),
    /** Top-level comments, newest first; `ts` asks for older ones. */
    comments: (postId: number, query: Pick<PageParams, 'limit' | 'ts'>, loggedIn: boolean) =>
      client.get<Comment[]>(`${loggedIn ? '/api' : '/papi'}/posts/${id(postId)}/comments`, { limit: 30, ...query }),
    /** Replies of a comment, oldest first; `ts` asks for newer ones. */
    replies: (commentId: number, query: Pick<PageParams, 'ts'>, loggedIn: boolean) =>
      client.get<Comment[]>(`${loggedIn ? '/api' : '/papi'}/posts/comments/${id(commentId)}`, { ...query }),
    comment: (body: CreateCommentBody) => client.post<Comment>('/api/posts/comments', body),
    removeComment: (commentId: number) => client.request<undefined>('DELETE', `/api/posts/comments/${id(commentId)}`),
    likeComment: (commentId: number) => client.post<undefined>(`/api/posts/comments/${id(commentId)}/like`),
    unlikeComment: (commentId: number) => client.request<undefined>('DELETE', `/api/posts/comments/${id(commentId)}/like`),
    reportComment: (commentId: number, reason?: string) =>
      client.post<undefined>(`/api/posts/comments/${id(commentId)}/report`, reason ? { reason } : {}),
    visit: (postId: number) => client.post<undefined>(`/papi/posts/${id(postId)}/visit`),
    stats: (body: PostStatsBody) => client.post<undefined>('/papi/ga/', body, { withToken: true }),
  };
}

export type PostsApi = ReturnType<typeof postsApi>;

/** Calls of the media pipeline (SPEC §7 Media). The binary upload with progress lives in upload.ts. */
export function mediaApi(client: FanstageClient) {
  const id = (value: number) => encodeURIComponent(String(value));
  return {
    /** Sends a file without progress; `upload.ts` uses XMLHttpRequest when it can, for the percentage. */
    binary: (file: Blob, fileName = 'upload', signal?: AbortSignal) => {
      const form = new FormData();
      form.append('file', file, fileName);
      return client.post<UploadedBinary>('/api/media/binary', form, { signal });
    },
    create: (body: CreateMediaBody) => client.post<MediaView[]>('/api/media', body),
    update: (mediaId: number, body: UpdateMediaBody) => client.request<MediaView>('PUT', `/api/media/${id(mediaId)}`, { body }),
    copy: (mediaId: number) => client.post<MediaView>(`/api/media/${id(mediaId)}/copy/`),
    get: (mediaId: number) => client.get<MediaView>(`/api/media/${id(mediaId)}`),
  };
}

export type MediaApi = ReturnType<typeof mediaApi>;
