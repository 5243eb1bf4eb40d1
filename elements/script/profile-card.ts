/**
 * The script tag's `<fanstage-profile-card>`: the card without React — avatar, name, handle,
 * counts, bio, a seller's prices and the Follow button — drawn with the React card's markup,
 * styles and words (lib/ui/ProfileCard) from the public profile and the platform's settings.
 * The React card (./profile-card-full.ts) takes over on the first sign of intent (./lite.ts);
 * a click on Follow that came first follows (or asks the visitor to sign in) once it is there.
 */
import tokensCss from '../../lib/ui/theme/tokens.css?inline';
import profileCardCss from '../../lib/ui/ProfileCard/ProfileCard.module.css?inline';
import followButtonCss from '../../lib/ui/FollowButton/FollowButton.module.css?inline';
import styles from '../../lib/ui/ProfileCard/ProfileCard.module.css';
import { avatarUrl, type MediaRef } from '../../lib/sdk/rules/media';
import { formatCount } from '../../lib/sdk/rules/count';
import { formatPrice } from '../../lib/sdk/rules/price';
import { defineLite, escapeHtml, LiteElement, profileOf, settingsOf, type LiteContext, type LiteProfile, type LiteSettings, wordsOf, type LiteWords } from './lite';
import { followButton, initialsOf } from './liteParts';
import { badgeVerifierFor } from '../../lib/sdk/badge';

/** elements/profile-card.ts `profileCardTag`, spelled out: importing it would bring React along. */
const tag = 'fanstage-profile-card';


/** The strings this view shows (vite.embed.config.ts `liteWordKeys.CARD`). */
declare const __FANSTAGE_LITE_WORDS_CARD__: LiteWords;
const liteWord = wordsOf(() => __FANSTAGE_LITE_WORDS_CARD__);

const css = `${tokensCss}\n${profileCardCss}\n${followButtonCss}`;

/** What the card shows of a public profile (`GET /papi/users/{name}`). */
interface CardProfile extends LiteProfile {
  avatarMedia: MediaRef | null;
  bio: string;
  followersCount: number;
  postsCount: number;
  hasBadge: boolean;
  badgeVerifiedState: number;
  online: boolean;
  isSeller: boolean;
  messagePrice: number;
  callPrice: number;
}

type Language = 'en' | 'cs';

/** ProfileCardView's loading state. */
function loadingCard(language: Language): string {
  const bone = (style: string) => `<span class="${styles.bone}"${style ? ` style="${style}"` : ''}></span>`;
  return (
    `<div class="${styles.card} ${styles.loading}" role="status" aria-busy="true">` +
    `<span class="${styles.bone} ${styles.boneAvatar}" aria-hidden="true"></span>` +
    `<div class="${styles.body}" aria-hidden="true">${bone('width:9em;height:1.3em')}${bone('width:6em')}${bone('width:12em')}${bone('width:15em')}</div>` +
    `<span class="${styles.visuallyHidden}">${escapeHtml(liteWord(language, 'profile.loading'))}</span></div>`
  );
}

/** lib/ui/ProfileCard/ProfileCard.tsx's verified badge. */
function badge(label: string): string {
  return (
    `<svg class="${styles.badge}" viewBox="0 0 24 24" role="img" aria-label="${escapeHtml(label)}" focusable="false"><title>${escapeHtml(label)}</title>` +
    `<path fill="currentColor" d="M12 1.5l2.6 1.9 3.2-.1 1 3 2.6 1.9-1 3.1 1 3.1-2.6 1.9-1 3-3.2-.1L12 22.5l-2.6-1.9-3.2.1-1-3-2.6-1.9 1-3.1-1-3.1 2.6-1.9 1-3 3.2.1z"/>` +
    `<path class="${styles.badgeCheck}" fill="none" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round" d="M7.8 12.3l2.8 2.8 5.6-5.8"/></svg>`
  );
}

/** ProfileCardView's ready state (lib/ui/ProfileCard/useProfileCard.ts `toCardData` decides the same things). */
function readyCard(profile: CardProfile, settings: LiteSettings | null, language: Language, href: string, follow: boolean, badgeVerified: boolean): string {
  const w = (key: string, values?: Record<string, string | number>) => escapeHtml(liteWord(language, key, values));
  const name = profile.displayName.trim() || profile.username;
  const src = settings ? avatarUrl(settings.mediaCDN, profile.avatarMedia, 120) : null;
  const avatar = src
    ? `<img class="${styles.avatar}" src="${escapeHtml(src)}" alt="${w('profile.avatarOf', { name })}" width="120" height="120" loading="lazy" decoding="async">`
    : `<span class="${styles.initials}" role="img" aria-label="${w('profile.avatarOf', { name })}"><span aria-hidden="true">${escapeHtml(initialsOf(name))}</span></span>`;
  const online = profile.online ? `<span class="${styles.online}" role="img" aria-label="${w('profile.online')}" title="${w('profile.online')}"></span>` : '';
  // Only a signed badge that verifies (lib/sdk/badge.ts), as the React card.
  const verified = badgeVerified ? badge(liteWord(language, 'profile.verified')) : '';
  const stat = (key: 'followers' | 'posts', count: number) =>
    `<li data-stat="${key}"><span class="${styles.statValue}">${escapeHtml(formatCount(count))}</span> ${w(`profile.${key}Label`, { count })}</li>`;
  let prices = '';
  if (profile.isSeller && settings) {
    const free = liteWord(language, 'price.free');
    const price = (key: 'message' | 'call', cents: number) =>
      `<li class="${styles.price}" data-price="${key}">${cents === 0 ? w(`profile.${key}Free`) : w(`profile.${key}Price`, { price: formatPrice(cents, settings.salt, free) })}</li>`;
    prices = `<ul class="${styles.prices}" aria-label="${w('profile.prices')}">${price('message', profile.messagePrice)}${price('call', profile.callPrice)}</ul>`;
  }
  const bio = profile.bio.trim();
  return (
    `<article class="${styles.card}" aria-label="${escapeHtml(name)}">` +
    `<div class="${styles.avatarWrap}">${avatar}${online}</div>` +
    `<div class="${styles.body}"><div class="${styles.identity}">` +
    `<h2 class="${styles.name}"><a class="${styles.nameLink}" href="${escapeHtml(href)}" aria-label="${w('profile.open', { name })}">${escapeHtml(name)}</a>${verified}</h2>` +
    `<p class="${styles.handle}">@${escapeHtml(profile.username)}</p></div>` +
    (follow ? `<div class="${styles.actions}">${followButton(language, liteWord(language, 'follow.follow'), name, 'article button[aria-pressed]')}</div>` : '') +
    `<ul class="${styles.stats}" aria-label="${w('profile.stats')}">${stat('followers', profile.followersCount)}${stat('posts', profile.postsCount)}</ul>` +
    (bio ? `<p class="${styles.bio}">${escapeHtml(bio)}</p>` : '') +
    prices +
    `</div></article>`
  );
}

class ProfileCardElement extends LiteElement {
  protected readonly creatorAttribute = 'user';
  protected readonly css = css;

  protected full() {
    return import('./profile-card-full');
  }

  protected markup(language: Language): string {
    return `<div class="fs-root ${styles.root}" lang="${language}">${loadingCard(language)}</div>`;
  }

  protected async fill({ serial, username, base, language }: LiteContext): Promise<void> {
    const [profile, settings] = await Promise.all([profileOf(base, username, language), settingsOf(base, language)]);
    if (!this.current(serial)) return;
    this.profile = profile;
    // An unknown creator, an API that failed: the React card says so, in its own words.
    if (!profile) {
      this.upgrade();
      return;
    }
    const card = profile as CardProfile;
    const badgeVerified = (card.hasBadge || card.badgeVerifiedState === 3) && (await badgeVerifierFor(base).check(card.username)) !== null;
    if (!this.current(serial)) return;
    const root = this.shadow.querySelector(`.${styles.root}`);
    const follow = this.getAttribute('follow')?.trim().toLowerCase() !== 'false';
    // elements/shared.ts `profileHref`.
    if (root) root.innerHTML = readyCard(card, settings, language, `${base}/${encodeURIComponent(username)}`, follow, badgeVerified);
  }
}

export const define = defineLite(tag, ProfileCardElement);
