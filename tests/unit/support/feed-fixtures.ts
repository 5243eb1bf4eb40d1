import type { Comment, MediaView, Post, PostAuthor, Settings } from '../../../lib/contract';
import { profile } from './profiles';

/** A post author as the server answers it. */
export function author(overrides: Partial<PostAuthor> = {}): PostAuthor {
  return { ...profile(), isFollowed: false, ...overrides };
}

export function media(overrides: Partial<MediaView> = {}): MediaView {
  return {
    mediaId: 1,
    mediaHash: 'hash1',
    format: 'jpg',
    mediaUnlockHash: null,
    mediaStatus: 3,
    mediaType: 'image',
    mediaPrice: 0,
    mediaIsOwner: false,
    mediaAspectRatio: 1,
    mediaDominantColor: '#886644',
    mediaFilter: null,
    mediaDuration: null,
    earnedCents: 0,
    nsfw: 0,
    ...overrides,
  };
}

/** A post as a viewer sees it; `ts` falls with the id, so higher ids are newer. */
export function post(id: number, overrides: Partial<Post> = {}): Post {
  return {
    id,
    text: `Post number ${id}`,
    user: author(),
    media: [],
    totalLikesCount: 3,
    likedByMe: false,
    totalCommentsCount: 0,
    totalGiftsCount: 0,
    commentsCount: 0,
    startDate: null,
    ts: 1_700_000_000_000 + id * 60_000,
    isMy: false,
    ...overrides,
  };
}

export function comment(id: number, overrides: Partial<Comment> = {}): Comment {
  return {
    id,
    parentId: null,
    postId: 1,
    user: profile({ id: 7, username: 'bob', displayName: 'Bob' }),
    text: `Comment ${id}`,
    giftId: null,
    ts: 1_700_000_000_000 + id * 1000,
    replies: [],
    childrenCount: 0,
    likesCount: 0,
    isLiked: false,
    canDelete: false,
    isUnreadChildrenNotif: false,
    hasUnreadNotification: false,
    ...overrides,
  };
}

export const settings: Settings = {
  languages: [{ id: 1, languageIso: 'en', name: 'English' }],
  mediaCDN: 'https://cdn.example/media',
  salt: 10_000,
  regExpMentions: '@([A-Za-z0-9._]{3,30})',
  regExpEmail: '^[^@]+@[^@]+$',
  pushPubKey: '',
  slug: 'fanstage',
  partnerValidation: { name: '.+', street: '.+', zip: '.+', iban: '.+', companyId: '.+' },
};

/** An access token the SDK can read (it never verifies signatures; the server does). */
export function fakeToken(userId: number): string {
  const payload = Buffer.from(JSON.stringify({ userId, exp: Math.floor(Date.now() / 1000) + 3600, iat: 0 })).toString('base64url');
  return `eyJhbGciOiJIUzI1NiJ9.${payload}.signature`;
}

/** The posts of a list newest first, paged like the server: `ts` = older than, `limit`. */
export function page(all: readonly Post[], url: string): Post[] {
  const query = new URL(url, 'http://x').searchParams;
  const limit = Number(query.get('limit') ?? 15);
  const ts = query.get('ts');
  const sorted = [...all].sort((a, b) => b.ts - a.ts);
  return sorted.filter((p) => ts === null || p.ts < Number(ts)).slice(0, limit);
}
