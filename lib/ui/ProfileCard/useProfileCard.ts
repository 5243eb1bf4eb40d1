import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { avatarUrl, formatCount, formatPrice, type PublicProfile, type Settings } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';
import { initialsOf } from '../../sdk/rules/initials';
import { useHydrated } from '../hydrated';
import { badgeVerifierFor } from '../../sdk/badge';

export interface ProfileCardStat {
  key: 'followers' | 'posts';
  /** The short count, e.g. `12.3k`. */
  value: string;
  /** The word after it, in the plural form the exact count needs. */
  label: string;
}

export interface ProfileCardPrice {
  key: 'message' | 'call';
  label: string;
}

/** Everything the card shows about a loaded profile, translated and formatted. */
export interface ProfileCardData {
  username: string;
  /** `@username`. */
  handle: string;
  displayName: string;
  /** Where the name links to; no link when absent. */
  href?: string;
  /** Accessible name of that link. */
  linkLabel: string;
  /** The 120 px avatar, or null for the initials fallback. */
  avatar: { src: string; alt: string } | null;
  initials: string;
  /** Same text as the avatar's alt, for the initials fallback. */
  initialsLabel: string;
  verified: { label: string } | null;
  online: { label: string } | null;
  stats: ProfileCardStat[];
  statsLabel: string;
  bio: string;
  /** Empty for fans; a seller's message and call prices as a fan pays them. */
  prices: ProfileCardPrice[];
  pricesLabel: string;
}

/** The card's props: one of four states, each with its texts ready to render. */
export type ProfileCardState =
  | { status: 'loading'; message: string }
  | { status: 'not-found'; message: string }
  | { status: 'error'; message: string; detail: string; retryLabel: string; onRetry: () => void }
  | { status: 'ready'; profile: ProfileCardData };

export interface UseProfileCardOptions {
  /** Makes the display name a link, e.g. to the profile on the platform. */
  href?: string;
}

/** Error codes that mean "no such profile" rather than "could not load it". */
const notFoundCodes = new Set(['user-not-found', 'not-found']);

/**
 * Turns the profile and settings stores into render-ready card props. All decisions live
 * here (which state, which texts, what a seller's prices cost a fan), so the React card,
 * the custom element and any other view only render.
 */
export function useProfileCard(username: string, options: UseProfileCardOptions = {}): ProfileCardState {
  // Tracks every signal read below during this render, so a store change re-renders.
  useSignals();
  const fanstage = useFanstage();
  const { t } = useTranslation();
  const hydrated = useHydrated();
  // `get` starts the request the first time a profile is asked for; later cards reuse it.
  // On the server and while hydrating, nothing is asked: the card shows its loading state.
  const entry = useMemo(() => (hydrated ? fanstage.profiles.get(username) : null), [fanstage, username, hydrated]);
  const settingsStore = fanstage.settings;

  useEffect(() => {
    // Avatars need the media CDN and prices need the salt. A failure is shown as a card
    // without avatar and prices rather than as an error: the profile itself is still there.
    if (settingsStore.status.peek() === 'idle') settingsStore.load().catch(() => undefined);
  }, [settingsStore]);

  // The badge is shown only when the platform's signed statement about this username verifies
  // (lib/sdk/badge.ts): asked for only when the profile says there is one.
  const shown = entry?.profile.value ?? null;
  const claimsBadge = shown !== null && (shown.hasBadge || shown.badgeVerifiedState === 3);
  const claimedName = claimsBadge ? shown.username : null;
  const [badge, setBadge] = useState<{ username: string; verified: boolean } | null>(null);
  useEffect(() => {
    if (claimedName === null) return;
    let live = true;
    void badgeVerifierFor(fanstage.client.baseUrl)
      .check(claimedName)
      .then((claims) => {
        if (live) setBadge({ username: claimedName, verified: claims !== null });
      });
    return () => {
      live = false;
    };
  }, [fanstage, claimedName]);

  const retry = useCallback(() => {
    void fanstage.profiles.load(username);
    if (settingsStore.status.peek() === 'error') settingsStore.load().catch(() => undefined);
  }, [fanstage, username, settingsStore]);

  if (!entry) return { status: 'loading', message: t('profile.loading') };
  const status = entry.status.value;
  const profile = entry.profile.value;
  const error = entry.error.value;
  const settingsStatus = settingsStore.status.value;
  const settings = settingsStore.settings.value;

  if (status === 'error' && error) {
    if (notFoundCodes.has(error.code)) return { status: 'not-found', message: t('profile.notFound') };
    return {
      status: 'error',
      message: t('profile.error'),
      detail: t(`errors.${error.code}`, { defaultValue: '' }),
      retryLabel: t('profile.retry'),
      onRetry: retry,
    };
  }
  // Waiting for the settings too keeps the avatar from popping in after the initials.
  if (!profile || settingsStatus === 'idle' || settingsStatus === 'loading') {
    return { status: 'loading', message: t('profile.loading') };
  }
  // And for the badge's check, so the badge does not pop in (or out) after the card is drawn.
  if (claimedName !== null && badge?.username !== claimedName) return { status: 'loading', message: t('profile.loading') };
  return { status: 'ready', profile: toCardData(profile, settings, t, options.href, claimedName !== null && badge?.verified === true) };
}

/**
 * The card's data. `badgeVerified` is whether the platform's signed badge about this username
 * verified (useProfileCard checks it); without it, the profile's own flags decide, for views
 * that show what the platform answered them directly.
 */
export function toCardData(profile: PublicProfile, settings: Settings | null, t: TFunction, href?: string, badgeVerified?: boolean): ProfileCardData {
  const name = profile.displayName.trim() || profile.username;
  const avatarLabel = t('profile.avatarOf', { name });
  const src = settings ? avatarUrl(settings.mediaCDN, profile.avatarMedia, 120) : null;
  const prices: ProfileCardPrice[] = [];
  if (profile.isSeller && settings) {
    const free = t('price.free');
    prices.push({
      key: 'message',
      label: profile.messagePrice === 0 ? t('profile.messageFree') : t('profile.messagePrice', { price: formatPrice(profile.messagePrice, settings.salt, free) }),
    });
    prices.push({
      key: 'call',
      label: profile.callPrice === 0 ? t('profile.callFree') : t('profile.callPrice', { price: formatPrice(profile.callPrice, settings.salt, free) }),
    });
  }
  return {
    username: profile.username,
    handle: `@${profile.username}`,
    displayName: name,
    ...(href ? { href } : {}),
    linkLabel: t('profile.open', { name }),
    avatar: src ? { src, alt: avatarLabel } : null,
    initials: initialsOf(name),
    initialsLabel: avatarLabel,
    verified: (badgeVerified ?? (profile.hasBadge || profile.badgeVerifiedState === 3)) ? { label: t('profile.verified') } : null,
    online: profile.online ? { label: t('profile.online') } : null,
    stats: [
      { key: 'followers', value: formatCount(profile.followersCount), label: t('profile.followersLabel', { count: profile.followersCount }) },
      { key: 'posts', value: formatCount(profile.postsCount), label: t('profile.postsLabel', { count: profile.postsCount }) },
    ],
    statsLabel: t('profile.stats'),
    bio: profile.bio.trim(),
    prices,
    pricesLabel: t('profile.prices'),
  };
}

export { initialsOf };
