import type { IconName } from './layout/icons';

export type TabId = 'timeline' | 'discover' | 'notifications' | 'chat' | 'profile';

export interface Tab {
  readonly id: TabId;
  readonly icon: IconName;
  /** Where the tab leads; the Profile tab leads to the user's own username (SPEC §2). */
  readonly path: string | null;
  /** SPEC §2: visitors may open Discover; every other tab asks them to log in. */
  readonly openToVisitors: boolean;
}

export const tabs: readonly Tab[] = [
  { id: 'timeline', icon: 'timeline', path: '/timeline', openToVisitors: false },
  { id: 'discover', icon: 'discover', path: '/discover', openToVisitors: true },
  { id: 'notifications', icon: 'notifications', path: '/notifications', openToVisitors: false },
  { id: 'chat', icon: 'chat', path: '/chat-list', openToVisitors: false },
  { id: 'profile', icon: 'profile', path: null, openToVisitors: false },
];

/** The tab a location belongs to, if any. The public home belongs to none for visitors. */
export function activeTab(location: string): TabId | null {
  const first = location.split('/')[1] ?? '';
  switch (first) {
    case 'timeline':
      return 'timeline';
    case 'discover':
      return 'discover';
    case 'notifications':
      return 'notifications';
    case 'chat-list':
    case 'chat':
      return 'chat';
    default:
      return null;
  }
}

/** Tab screens have no back arrow in the header; everything deeper does (SPEC §2). */
export function isTabScreen(location: string): boolean {
  return ['/', '/timeline', '/discover', '/notifications', '/chat-list'].includes(location.replace(/\/+$/, '') || '/');
}

let previousLocation: string | null = null;

/** SPEC §2: the previous route is remembered before every navigation. */
export function rememberLocation(previous: string | null): void {
  previousLocation = previous;
}

export function getPreviousLocation(): string | null {
  return previousLocation;
}

/** SPEC §2: the routes marked "login"; a visitor who reaches one is sent to `/`. */
const loginOnlyPrefixes = [
  '/timeline',
  '/who-to-follow',
  '/new-post',
  '/update-post',
  '/chat-list',
  '/chat',
  '/notifications',
  '/settings',
  '/videocall',
  '/partner-registration',
  '/verify-request',
  '/abuse-form',
  '/terms-for-ag',
  // Not in SPEC §2: the creator's statistics (issue 34).
  '/statistics',
];

export function isLoginOnly(location: string): boolean {
  const path = location.split('?')[0] ?? '';
  return loginOnlyPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** SPEC §5: a visitor trying to create or edit a post is asked to log in, not just sent away. */
const loginPromptPrefixes = ['/new-post', '/update-post'];

export function asksToLogIn(location: string): boolean {
  const path = location.split('?')[0] ?? '';
  return loginPromptPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * SPEC §6: with the optional FORCE_LOGIN the login prompt opens for visitors on every page but
 * the information pages (terms, privacy, cookies, 2257, FAQ and contact) — and the ways into an
 * account (sign-up, password reset, a mailed link), without which nobody could log in at all.
 */
const sparedFromForcedLogin = ['/terms', '/terms2257', '/privacy', '/cookie-policy', '/tour-faq', '/contact', '/sign-up', '/reset-password', '/action', '/404', '/offline'];

export function isSparedFromForcedLogin(location: string): boolean {
  const path = location.split('?')[0] ?? '';
  return sparedFromForcedLogin.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
