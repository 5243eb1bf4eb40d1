import { Type, type Static } from 'typebox';
import { DiscoverTabs } from './constants';
import { PublicProfile } from './users';
import { Int, Timestamp } from './bounds';

/** SPEC §3 Search filter. Absent fields do not filter. */
export const SearchFilter = Type.Object({
  gender: Type.Optional(Int({ minimum: 0, maximum: 4 })),
  sexuality: Type.Optional(Int({ minimum: 1, maximum: 4 })),
  preferences: Type.Optional(Int({ minimum: 1, maximum: 20 })),
  /** An ISO language code. */
  languages: Type.Optional(Type.String({ minLength: 2, maxLength: 5 })),
  hair: Type.Optional(Int({ minimum: 1, maximum: 10 })),
  bigBoobs: Type.Optional(Type.Boolean()),
  bigDick: Type.Optional(Type.Boolean()),
  body: Type.Optional(Int({ minimum: 1, maximum: 10 })),
  wantsFun: Type.Optional(Type.Boolean()),
  age_gte: Type.Optional(Int({ minimum: 18, maximum: 120 })),
  age_lte: Type.Optional(Int({ minimum: 18, maximum: 120 })),
  hasBadge: Type.Optional(Type.Boolean()),
  /** Free text over username and display name. */
  q: Type.Optional(Type.String({ maxLength: 100 })),
  /** A discover tab; its preset fields apply on top of the others. */
  tab: Type.Optional(Type.Enum(DiscoverTabs)),
  limit: Type.Optional(Int({ minimum: 1, maximum: 50 })),
  offset: Type.Optional(Int({ minimum: 0, maximum: 100_000 })),
});
export type SearchFilter = Static<typeof SearchFilter>;

export const SearchQuery = Type.Object({
  q: Type.String({ maxLength: 100 }),
  limit: Type.Optional(Int({ minimum: 1, maximum: 50 })),
  offset: Type.Optional(Int({ minimum: 0, maximum: 100_000 })),
  ts: Type.Optional(Timestamp()),
});
export type SearchQuery = Static<typeof SearchQuery>;

/** A hashtag and how many posts carry it (`/papi/search/tags`). */
export const TagResult = Type.Object({ tag: Type.String(), count: Type.Integer({ minimum: 0 }) });
export type TagResult = Static<typeof TagResult>;

/** `/papi/search/tips`: quick-search suggestions, at most 8 (SPEC §2). */
export const SearchTips = Type.Object({
  users: Type.Array(PublicProfile),
  tags: Type.Array(TagResult),
});
export type SearchTips = Static<typeof SearchTips>;

export { DiscoverTabs, AgeFilter, type DiscoverTab } from './constants';
