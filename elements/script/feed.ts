/**
 * The script tag's `<fanstage-feed>`: the creator's first posts without React — author, time,
 * text, pictures (locked ones blurred behind their price), counts and the actions — with the
 * React feed's markup, styles and words (lib/ui/Feed, lib/ui/PostCard, lib/ui/PostMedia), from
 * the same first page the feed asks for (`GET /papi/2/posts`). The feed (./feed-full.ts) takes
 * over on the first sign of intent (./lite.ts); a click on a post's like, share or follow
 * button that came first goes to the same button of the same post once it is there.
 */
import tokensCss from '../../lib/ui/theme/tokens.css?inline';
import feedCss from '../../lib/ui/Feed/Feed.module.css?inline';
import postCardCss from '../../lib/ui/PostCard/PostCard.module.css?inline';
import postMediaCss from '../../lib/ui/PostMedia/PostMedia.module.css?inline';
import followButtonCss from '../../lib/ui/FollowButton/FollowButton.module.css?inline';
import feedStyles from '../../lib/ui/Feed/Feed.module.css';
import styles from '../../lib/ui/PostCard/PostCard.module.css';
import mediaStyles from '../../lib/ui/PostMedia/PostMedia.module.css';
import { avatarUrl, isLocked, mediaUrl, pictureSrcSet, postMediaUrl, type MediaRef } from '../../lib/sdk/rules/media';
import { formatCount } from '../../lib/sdk/rules/count';
import { formatPrice } from '../../lib/sdk/rules/price';
import { relativeTime } from '../../lib/sdk/rules/time';
import { parseRichText } from '../../lib/ui/PostCard/richText';
import { cachedBody, defineLite, escapeHtml, LiteElement, settingsOf, type LiteContext, type LiteSettings, wordsOf, type LiteWords } from './lite';
import { followButton, initialsOf } from './liteParts';

/** elements/feed.ts `feedTag`, spelled out: importing it would bring React along. */
const tag = 'fanstage-feed';


/** The strings this view shows (vite.embed.config.ts `liteWordKeys.FEED`). */
declare const __FANSTAGE_LITE_WORDS_FEED__: LiteWords;
const liteWord = wordsOf(() => __FANSTAGE_LITE_WORDS_FEED__);

const css = [tokensCss, feedCss, postCardCss, postMediaCss, followButtonCss].join('\n');

/** How many posts the first view draws: what a reader sees before scrolling, and more. */
const shownPosts = 3;

/**
 * The feed's first page (lib/sdk/rules/constants.ts `pageSizes.timeline`), spelled out: that
 * module would be a chunk of its own here, a few hundred bytes of a tight budget. Only the
 * first few posts are drawn, so a different page size would change nothing the reader sees.
 */
const firstPage = 15;

type Language = 'en' | 'cs';

interface LiteMedia extends MediaRef {
  mediaId: number;
  mediaStatus: number;
  mediaType: 'image' | 'video';
  mediaPrice: number;
  mediaUnlockHash: string | null;
  mediaAspectRatio: number;
  mediaDominantColor: string;
  mediaIsOwner?: boolean;
}

interface LitePost {
  id: number;
  ts: number;
  text: string;
  startDate: number | null;
  user: { id: number; username: string; displayName: string; avatarMedia: MediaRef | null };
  media: LiteMedia[];
  totalLikesCount: number;
  totalCommentsCount: number;
  totalGiftsCount: number;
  likedByMe: boolean;
}

const iconPath = {
  heart: '<path fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round" d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8.2 3.4 4.5 7 4.5c2 0 3.4 1.1 5 3 1.6-1.9 3-3 5-3 3.6 0 5.5 3.7 4.3 6.8-1.8 4.6-9.3 9.2-9.3 9.2z"/>',
  comment: '<path fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round" d="M4 5h16v11H9l-5 4z"/>',
  share: '<path fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" d="M12 3v12M7 8l5-5 5 5M5 13v7h14v-7"/>',
  lock: '<path fill="currentColor" d="M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5zm-3 8V7a3 3 0 1 1 6 0v3H9z"/>',
};
const icon = (path: string, className = styles.icon) => `<svg class="${className}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${path}</svg>`;

/** lib/ui/PostCard/usePostCard.ts `timeLabel`. */
function timeLabel(language: Language, ts: number): string {
  const relative = relativeTime(ts, Date.now());
  if (relative.key === 'justNow') return liteWord(language, 'time.justNow');
  if (relative.key !== 'date') return liteWord(language, `time.${relative.key}`, { count: relative.count });
  try {
    return new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(relative.date);
  } catch {
    return relative.date.toISOString().slice(0, 10);
  }
}

/** lib/ui/PostMedia/PostMedia.tsx, for a visitor: pictures open full screen, locked ones show their price. */
function media(post: LitePost, name: string, settings: LiteSettings, language: Language): string {
  const items = post.media.filter((m) => m.mediaStatus !== 4);
  if (items.length === 0) return '';
  const w = (key: string, values?: Record<string, string | number>) => liteWord(language, key, values);
  const frames = items.map((m, index) => {
    const locked = isLocked(m) || (Boolean(m.mediaIsOwner) && m.mediaPrice > 0);
    const video = m.mediaType === 'video';
    const label = items.length > 1 ? w('posts.mediaOf', { index: index + 1, count: items.length, name }) : w(video ? 'posts.videoBy' : 'posts.photoBy', { name });
    const ratio = Math.max(m.mediaAspectRatio > 0 ? m.mediaAspectRatio : 1, 0.8);
    const style = `aspect-ratio: ${ratio};${m.mediaDominantColor ? ` background-color: ${escapeHtml(m.mediaDominantColor)};` : ''}`;
    const price = formatPrice(m.mediaPrice, settings.salt, w('price.free'));
    let content: string;
    if (video && !locked) {
      const poster = postMediaUrl(settings.mediaCDN, m, 'poster');
      content = `<video class="${mediaStyles.media}" src="${escapeHtml(postMediaUrl(settings.mediaCDN, m))}" poster="${escapeHtml(poster)}" muted playsinline loop controls preload="metadata" aria-label="${escapeHtml(label)}"></video>`;
    } else {
      const src = locked ? (video ? postMediaUrl(settings.mediaCDN, m, 'blur') : mediaUrl(settings.mediaCDN, m, { variant: 'blur' })) : postMediaUrl(settings.mediaCDN, m, 640);
      const srcSet = locked || video ? '' : pictureSrcSet(settings.mediaCDN, m);
      content =
        `<img class="${mediaStyles.media}${locked ? ` ${mediaStyles.blurred}` : ' '}" src="${escapeHtml(src)}"` +
        (srcSet ? ` srcset="${escapeHtml(srcSet)}" sizes="(min-width: 870px) 640px, 100vw"` : '') +
        ` alt="${escapeHtml(locked ? w('posts.lockedMedia', { label }) : label)}" loading="lazy" decoding="async">`;
    }
    const opened = locked ? content : `<button type="button" class="${mediaStyles.open}" aria-label="${escapeHtml(w('posts.openMedia', { label }))}">${content}</button>`;
    const lock = locked ? `<div class="${mediaStyles.lock}">${icon(iconPath.lock, mediaStyles.lockIcon)}<span class="${mediaStyles.price}">${escapeHtml(w('posts.lockedPrice', { price }))}</span></div>` : '';
    return `<figure class="${mediaStyles.frame}" style="${style}"${locked ? ' data-locked="true"' : ''}>${opened}${lock}</figure>`;
  });
  return `<div class="${mediaStyles.root}" data-count="${items.length}">${frames.join('')}</div>`;
}

/** lib/ui/PostCard/PostCardBase.tsx `renderText`: mentions, hashtags and links as links to the platform. */
function richText(text: string, settings: LiteSettings, root: string): string {
  return parseRichText(text, settings.regExpMentions)
    .map((part) => {
      const link = (href: string, extra = '') => `<a href="${escapeHtml(href)}"${extra}>${escapeHtml(part.text)}</a>`;
      switch (part.kind) {
        case 'text':
          return escapeHtml(part.text);
        case 'mention':
          return link(`${root}/${encodeURIComponent(part.username)}`);
        case 'hashtag':
          return link(`${root}/search-hashtags/${encodeURIComponent(part.tag)}`);
        case 'link':
          return link(part.href, ' target="_blank" rel="noopener noreferrer nofollow ugc"');
      }
    })
    .join('');
}

/** lib/ui/PostCard/PostCardBase.tsx's ready post, as a visitor sees it in the widget. */
function postCard(post: LitePost, index: number, settings: LiteSettings, base: string, language: Language): string {
  const w = (key: string, values?: Record<string, string | number>) => escapeHtml(liteWord(language, key, values));
  const root = base || location.origin;
  const name = post.user.displayName.trim() || post.user.username;
  const profileHref = escapeHtml(`${root}/${encodeURIComponent(post.user.username)}`);
  const postHref = escapeHtml(`${root}/post/${post.id}`);
  const avatar = avatarUrl(settings.mediaCDN, post.user.avatarMedia, 60);
  const headingId = `fs-lite-post-${post.id}`;
  const inPost = `article[data-post-id="${post.id}"]`;
  const action = (label: string, path: string, click: string) =>
    `<button type="button" class="${styles.action}" aria-label="${label}" title="${label}"${click === 'like' ? ' aria-pressed="false"' : ''} data-fs-click='${inPost} .${styles.actions} button[title="${label}"]'>${icon(path)}</button>`;
  const stats = [
    `<li>${w('posts.likesCount', { count: post.totalLikesCount, value: formatCount(post.totalLikesCount) })}</li>`,
    `<li>${w('posts.commentsCount', { count: post.totalCommentsCount, value: formatCount(post.totalCommentsCount) })}</li>`,
    post.totalGiftsCount > 0 ? `<li>${w('posts.giftsCount', { count: post.totalGiftsCount, value: formatCount(post.totalGiftsCount) })}</li>` : '',
  ].join('');
  return (
    `<div data-row-key="p${post.id}" class="${feedStyles.row}">` +
    `<article class="fs-root ${styles.root} ${styles.card}" lang="${language}" aria-labelledby="${headingId}" data-post-id="${post.id}" aria-posinset="${index + 1}" aria-setsize="-1">` +
    `<header class="${styles.header}">` +
    `<a class="${styles.avatarLink}" href="${profileHref}" tabindex="-1" aria-hidden="true">` +
    (avatar ? `<img class="${styles.avatar}" src="${escapeHtml(avatar)}" alt="" width="44" height="44" loading="lazy">` : `<span class="${styles.initials}">${escapeHtml(initialsOf(name))}</span>`) +
    `</a><div class="${styles.identity}"><h3 id="${headingId}" class="${styles.name}"><a href="${profileHref}">${escapeHtml(name)}</a></h3>` +
    `<p class="${styles.meta}"><span class="${styles.handle}">@${escapeHtml(post.user.username)}</span><span aria-hidden="true"> · </span>` +
    `<a class="${styles.time}" href="${postHref}"><time datetime="${new Date(post.ts).toISOString()}">${escapeHtml(timeLabel(language, post.ts))}</time></a></p></div>` +
    followButton(language, liteWord(language, 'follow.follow'), name, `${inPost} header button[aria-pressed]`, styles.follow) +
    `</header>` +
    (post.text ? `<p class="${styles.text}">${richText(post.text, settings, root)}</p>` : '') +
    media(post, name, settings, language) +
    `<ul class="${styles.stats}" aria-label="${w('posts.stats')}">${stats}</ul>` +
    `<div class="${styles.actions}" role="group" aria-label="${w('posts.actions')}">` +
    action(w('posts.like'), iconPath.heart, 'like') +
    `<a class="${styles.action}" href="${postHref}" aria-label="${w('posts.comment')}">${icon(iconPath.comment)}</a>` +
    action(w('posts.share'), iconPath.share, 'share') +
    `</div><span class="${styles.visuallyHidden}" role="status"></span></article></div>`
  );
}

class FeedElement extends LiteElement {
  protected readonly creatorAttribute = 'creator';
  protected readonly css = css;

  protected full() {
    return import('./feed-full');
  }

  protected markup(language: Language): string {
    return (
      `<section class="fs-root ${feedStyles.root}" lang="${language}">` +
      `<p class="${feedStyles.status}" role="status"><span class="${feedStyles.spinner}" aria-hidden="true"></span>${escapeHtml(liteWord(language, 'posts.feed.loading'))}</p></section>`
    );
  }

  protected async fill({ serial, username, base, language }: LiteContext): Promise<void> {
    const query = `/papi/2/posts?username=${encodeURIComponent(username)}&limit=${firstPage}`;
    const [posts, settings] = await Promise.all([cachedBody<LitePost[]>(base, query, language), settingsOf(base, language)]);
    if (!this.current(serial)) return;
    const section = this.shadow.querySelector('section');
    if (!section) return;
    // No posts, an unknown creator, an API that failed: the React feed says so, in its own words.
    if (!posts || posts.length === 0 || !settings) {
      this.upgrade();
      return;
    }
    const label = escapeHtml(liteWord(language, 'posts.feed.label.profile', { name: username }));
    section.setAttribute('aria-label', liteWord(language, 'posts.feed.label.profile', { name: username }));
    const now = Date.now();
    const shown = posts.filter((post) => post.startDate === null || post.startDate <= now).slice(0, shownPosts);
    section.innerHTML =
      `<div role="feed" aria-busy="false" aria-label="${label}" class="${feedStyles.list}">` +
      shown.map((post, index) => postCard(post, index, settings, base, language)).join('') +
      `</div>`;
  }
}

export const define = defineLite(tag, FeedElement);
