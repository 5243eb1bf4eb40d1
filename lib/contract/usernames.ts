/**
 * Usernames are addresses: a profile lives at `/{username}` (SPEC §2), so a username must
 * never shadow one of the site's own routes or the server's prefixes. The site and the
 * server share this list and these rules.
 */
export const ReservedUsernames: readonly string[] = [
  // site routes (SPEC §2)
  'timeline', 'discover', 'search-hashtags', 'feed', 'post', 'who-to-follow', 'new-post', 'update-post',
  'chat-list', 'chat', 'notifications', 'settings', 'videocall', 'partner-registration', 'verify-request',
  'abuse-form', 'sign-up', 'signup', 'login', 'logout', 'reset-password', 'action', 'gopay-return',
  'tour-partners', 'tour-faq', 'contact', 'terms', 'terms-for-ag', 'terms2257', 'privacy', 'cookie-policy',
  '404', 'offline', 'wallet', 'earnings', 'subscriptions', 'search', 'profile', 'home', 'statistics',
  // server prefixes and files
  'api', 'papi', 'media', 'embed', 'demo', 'ws', 'assets', 'static', 'sw.js', 'release', 'favicon.ico',
  'robots.txt', 'manifest.json', 'index.html',
  // GET /api/users/{username} would never reach these: the API's own paths answer first
  'relations', 'invite',
  // names people would mistake for the platform speaking
  'admin', 'administrator', 'support', 'help', 'fanstage', 'root', 'system', 'moderator', 'staff', 'official',
  'me', 'null', 'undefined',
];

const reserved = new Set(ReservedUsernames);

export const UsernameLength = { min: 3, max: 30 } as const;

/** Letters, digits, dot and underscore; at least one letter so a username never reads as a user id. */
export const UsernamePattern = '^(?=.*[A-Za-z])[A-Za-z0-9._]{3,30}$';
const usernameRegExp = new RegExp(UsernamePattern);

export type UsernameProblem = 'invalid-username';

/** `null` when the username may be registered (availability aside), else why not. */
export function usernameProblem(username: string): UsernameProblem | null {
  if (!usernameRegExp.test(username)) return 'invalid-username';
  if (reserved.has(username.toLowerCase())) return 'invalid-username';
  return null;
}

export function isReservedUsername(username: string): boolean {
  return reserved.has(username.toLowerCase());
}
