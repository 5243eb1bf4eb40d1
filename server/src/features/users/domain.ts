import type { PublicProfile } from '../../../../lib/contract/users';
import { BlockedStatus, type Account, type UpdateMeBody, type ViewedProfile } from '../../../../lib/contract/account';
import { usernameProblem } from '../../../../lib/contract/usernames';
import { isPriceStep } from '../../../../lib/contract/rules/price';
import { isValidEmail } from '../settings/domain';

/** Largest value of the `integer` id column. */
const maxId = 2_147_483_647;

/**
 * `/papi/users/{id}` takes a numeric id or a username. Usernames always hold a letter
 * (UsernamePattern), so an all-digit reference is unambiguously an id.
 */
export function parseUserRef(ref: string): { id: number } | { username: string } | null {
  if (/^\d{1,10}$/.test(ref)) {
    const id = Number(ref);
    return id >= 1 && id <= maxId ? { id } : null;
  }
  if (/^[A-Za-z0-9._]{1,64}$/.test(ref)) return { username: ref };
  return null;
}

/** A user counts as online when seen in the last five minutes (heartbeats come every 50 s). */
export const onlineWindowMs = 5 * 60_000;

export function isOnline(lastSeenAt: Date | null, now: number): boolean {
  return lastSeenAt !== null && now - lastSeenAt.getTime() < onlineWindowMs;
}

export interface ProfileRow {
  id: number;
  username: string;
  displayName: string;
  bio: string;
  level: number;
  hasBadge: boolean;
  badgeVerifiedState: number;
  isPartner: boolean;
  isSeller: boolean;
  messagePrice: number;
  callPrice: number;
  gender: number;
  followersCount: number;
  postsCount: number;
  offersSubscriptions: boolean;
  lastSeenAt: Date | null;
  avatarHash: string | null;
  avatarFormat: string | null;
}

export function toPublicProfile(row: ProfileRow, now: number): PublicProfile {
  return {
    id: row.id,
    username: row.username,
    displayName: row.displayName,
    bio: row.bio,
    avatarMedia: row.avatarHash !== null && row.avatarFormat !== null ? { mediaHash: row.avatarHash, format: row.avatarFormat } : null,
    level: row.level,
    hasBadge: row.hasBadge,
    badgeVerifiedState: row.badgeVerifiedState,
    online: isOnline(row.lastSeenAt, now),
    followersCount: row.followersCount,
    postsCount: row.postsCount,
    isPartner: row.isPartner,
    isSeller: row.isSeller,
    messagePrice: row.messagePrice,
    callPrice: row.callPrice,
    gender: row.gender,
    offersSubscriptions: row.offersSubscriptions,
  };
}

export interface ViewerRelation {
  isFollowed: boolean;
  blockedByMe: boolean;
  blockedMe: boolean;
  isHidden: boolean;
}

export function toViewedProfile(profile: PublicProfile, relation: ViewerRelation): ViewedProfile {
  return {
    ...profile,
    isFollowed: relation.isFollowed,
    blockedStatus: relation.blockedByMe ? BlockedStatus.blockedByMe : relation.blockedMe ? BlockedStatus.blockedMe : BlockedStatus.none,
    // Subscriptions arrive with the subscriptions work; until then nobody subscribes.
    isMySubscriber: false,
    isHidden: relation.isHidden,
  };
}

/**
 * How long a public profile may be answered from memory. Short enough that counts and
 * prices look live; long enough to spare the database when one profile is suddenly popular.
 */
export const profileCacheTtlMs = 2_000;

export const whoToFollowDefaults = { limit: 10, maxLimit: 30 } as const;

/** The age a birthday must show (SPEC §5: under 18 answers `must_be_18`). */
export const minimumAge = 18;

/**
 * A `YYYY-MM-DD` birthday as a calendar date, or `null` when no such day exists
 * (2023-02-30, month 13) or it lies before 1900 or in the future.
 */
export function parseBirthday(text: string, today: Date): { year: number; month: number; day: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  if (year < 1900 || date.getTime() > today.getTime()) return null;
  return { year, month, day };
}

/** Whole years between a birthday and today (UTC); someone born on 29 February turns a year older on 1 March. */
export function ageOn(birthday: { year: number; month: number; day: number }, today: Date): number {
  const month = today.getUTCMonth() + 1;
  const day = today.getUTCDate();
  let age = today.getUTCFullYear() - birthday.year;
  if (month < birthday.month || (month === birthday.month && day < birthday.day)) age -= 1;
  return age;
}

/** Languages an account may use the app in (SPEC §1). */
export const appLanguages: readonly string[] = ['en', 'cs'];

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An origin a creator allows to embed their widgets, normalised (`https://Lucy.Example:443/`
 * becomes `https://lucy.example`), or `null` when it is not one: only https, or plain http on
 * this machine for development; no path, query, credentials or wildcard.
 */
export function normaliseOrigin(text: string): string | null {
  const trimmed = text.trim();
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(trimmed)) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '' || url.hostname === '' || url.hostname.includes('*')) return null;
  if (url.protocol === 'http:' && !loopbackHosts.has(url.hostname)) return null;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  // A bare host needs a dot (or to be loopback): `https://intranet` is not a partner's site.
  if (url.protocol === 'https:' && !url.hostname.includes('.') && !loopbackHosts.has(url.hostname)) return null;
  return url.origin;
}

/** Normalised and deduplicated origins, or the first one that is not an origin. */
export function normaliseOrigins(list: readonly string[]): { origins: string[] } | { invalid: string } {
  const origins: string[] = [];
  for (const item of list) {
    const origin = normaliseOrigin(item);
    if (origin === null) return { invalid: item };
    if (!origins.includes(origin)) origins.push(origin);
  }
  return { origins };
}

export interface AccountRow extends ProfileRow {
  email: string | null;
  emailVerified: boolean;
  phoneVerified: boolean;
  approvedState: number;
  sexuality: number | null;
  birthday: string | null;
  appLanguage: string;
  nsfwAgreement: number;
  notificationSound: number;
  isPushRegistered: boolean;
}

export function toAccount(row: AccountRow, origins: string[], now: number): Account {
  return {
    ...toPublicProfile(row, now),
    email: row.email ?? '',
    emailVerified: row.emailVerified,
    phoneVerified: row.phoneVerified,
    approvedState: row.approvedState,
    sexuality: row.sexuality,
    birthday: row.birthday,
    appLanguage: row.appLanguage,
    nsfwAgreement: row.nsfwAgreement,
    notificationSound: row.notificationSound,
    isPushRegistered: row.isPushRegistered,
    embedOrigins: origins,
  };
}

export type UpdateProblem =
  | { key: 'invalid-request'; field: string; reason: string }
  | { key: 'verify-required'; field: string }
  | { key: 'invalid-username' | 'invalid-email' | 'must_be_18' };

/** The users columns a profile edit writes. */
export interface ProfileChanges {
  displayName?: string;
  bio?: string;
  username?: string;
  gender?: number;
  sexuality?: number;
  appLanguage?: string;
  birthday?: string;
  messagePrice?: number;
  callPrice?: number;
  nsfwAgreement?: number;
  notificationSound?: number;
}

export interface ProfileUpdatePlan {
  changes: ProfileChanges;
  /** The new list of embed origins, when the edit sends one. */
  embedOrigins?: string[];
  password?: { current: string; next: string };
  /** A new e-mail address, confirmed by `currentPassword`. */
  email?: { address: string; password: string };
}

/**
 * Checks a PUT /api/users/me body against the SPEC §5 rules and turns it into the columns to
 * write. The order of the checks is the order a form shows its fields, so the first problem
 * reported is the first one the person sees.
 */
export function planProfileUpdate(body: UpdateMeBody, account: { isSeller: boolean; today: Date }): ProfileUpdatePlan | { problem: UpdateProblem } {
  const changes: ProfileChanges = {};
  const invalid = (field: string, reason: string) => ({ problem: { key: 'invalid-request' as const, field, reason } });

  if (body.displayName !== undefined) {
    const displayName = body.displayName.trim();
    if (displayName === '') return invalid('displayName', 'must not be blank');
    changes.displayName = displayName;
  }
  if (body.bio !== undefined) changes.bio = body.bio.trim();
  if (body.username !== undefined) {
    const username = body.username.trim();
    if (usernameProblem(username) !== null) return { problem: { key: 'invalid-username' } };
    changes.username = username;
  }
  if (body.gender !== undefined) changes.gender = body.gender;
  if (body.sexuality !== undefined) changes.sexuality = body.sexuality;
  if (body.appLanguage !== undefined) {
    if (!appLanguages.includes(body.appLanguage)) return invalid('appLanguage', 'unsupported language');
    changes.appLanguage = body.appLanguage;
  }
  if (body.birthday !== undefined) {
    const birthday = parseBirthday(body.birthday, account.today);
    if (birthday === null) return invalid('birthday', 'not a date');
    if (ageOn(birthday, account.today) < minimumAge) return { problem: { key: 'must_be_18' } };
    changes.birthday = body.birthday;
  }
  for (const [field, kind] of [
    ['messagePrice', 'chatMessage'],
    ['callPrice', 'callMinute'],
  ] as const) {
    const price = body[field];
    if (price === undefined) continue;
    if (!account.isSeller) return { problem: { key: 'verify-required', field } };
    if (!isPriceStep(kind, price)) return invalid(field, 'not a price step');
    changes[field] = price;
  }
  if (body.nsfwAgreement !== undefined) changes.nsfwAgreement = body.nsfwAgreement;
  if (body.notificationSound !== undefined) changes.notificationSound = body.notificationSound;

  const plan: ProfileUpdatePlan = { changes };
  if (body.embedOrigins !== undefined) {
    const result = normaliseOrigins(body.embedOrigins);
    if ('invalid' in result) return invalid('embedOrigins', `not an origin: ${result.invalid.slice(0, 100)}`);
    plan.embedOrigins = result.origins;
  }
  if (body.email !== undefined) {
    const address = body.email.trim();
    if (!isValidEmail(address)) return { problem: { key: 'invalid-email' } };
    // Whoever holds a signed-in device for a moment must not be able to take the account over.
    if (body.currentPassword === undefined) return invalid('currentPassword', 'required with email');
    plan.email = { address, password: body.currentPassword };
  }
  if (body.newPassword !== undefined || (body.currentPassword !== undefined && body.email === undefined)) {
    if (body.currentPassword === undefined) return invalid('currentPassword', 'required with newPassword');
    if (body.newPassword === undefined) return invalid('newPassword', 'required with currentPassword');
    plan.password = { current: body.currentPassword, next: body.newPassword };
  }
  return plan;
}

/** Who may list sites for their widgets: approved creators (sellers) and administrators. */
export function mayListEmbedOrigins(account: { isSeller: boolean; level: number }): boolean {
  return account.isSeller || account.level >= 500;
}
