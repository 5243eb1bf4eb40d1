import type {
  AccessTokenBody,
  Account,
  ActionResult,
  Gift,
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

/** Typed calls of the public API (SPEC §7), one function per endpoint. */
export function publicApi(client: FanstageClient) {
  return {
    settings: () => client.get<Settings>('/papi/settings'),
    gifts: () => client.get<Gift[]>('/papi/gifts'),
    user: (idOrUsername: string | number, signal?: AbortSignal) =>
      client.get<PublicProfile>(`/papi/users/${encodeURIComponent(String(idOrUsername))}`, undefined, { signal }),
    whoToFollow: (query: { limit?: number; offset?: number; seed?: number } = {}) =>
      client.get<ProfileList>('/papi/who-to-follow', query),
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
    updateMe: (body: UpdateMeBody) => client.request<Account>('PUT', '/api/users/me', { body }),
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
