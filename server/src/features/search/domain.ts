import { AgeFilter, type DiscoverTab, type SearchFilter } from '../../../../lib/contract/search';

/** SPEC §9 page sizes of discover and search. */
export const searchSizes = {
  discover: 30,
  newPosts: 30,
  activeUsers: 30,
  users: 30,
  tags: 30,
  posts: 15,
  /** Quick search shows at most 8 results in all (SPEC §2). */
  tips: 8,
  /** Of the 8 tips, at most this many are people; tags fill the rest. */
  tipUsers: 5,
} as const;

/** Search terms longer than this are cut: no username or tag is longer. */
const maxTermLength = 64;
const maxTerms = 8;

/**
 * The words of a search box as lexemes: lower case, NFC, only letters, digits, '.', '_' and
 * '-' (what usernames and display names are made of), at most 8 of them, each holding a letter
 * or digit. Everything else separates words, so no quote, backslash or operator of the
 * tsquery syntax can reach the database.
 */
export function searchTerms(q: string): string[] {
  return q
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}._-]+/u)
    .map((word) => word.replace(/^[._-]+|[._-]+$/g, '').slice(0, maxTermLength))
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .slice(0, maxTerms);
}

/**
 * A `to_tsquery` text matching every word as a prefix (`'luc':* & 'riv':*`), or null when the
 * box holds no word. The terms are quoted lexemes made only of safe characters (searchTerms).
 */
export function prefixTsQuery(q: string): string | null {
  const terms = searchTerms(q);
  if (terms.length === 0) return null;
  return terms.map((t) => `'${t}':*`).join(' & ');
}

/** A tag prefix for tag search: the first word, without '#', lower case; null when none. */
export function tagPrefix(q: string): string | null {
  const first = searchTerms(q.replace(/#/g, ' '))[0];
  if (first === undefined) return null;
  // Tags hold letters, digits, '.' and '_' only (SPEC §5); a '-' cannot start a match.
  const prefix = first.replace(/-.*$/, '');
  return prefix === '' ? null : prefix;
}

/**
 * The birthdays (text `YYYY-MM-DD`, which sorts as dates do) of people whose age today lies
 * in [min, max]: age ≥ min means born on or before today minus `min` years; age ≤ max means
 * born after today minus `max + 1` years. A day that does not exist (29 February of a common
 * year) still compares right as text.
 */
export function birthdayRange(min: number | null, max: number | null, today: Date): { bornOnOrBefore: string | null; bornAfter: string | null } {
  const y = today.getUTCFullYear();
  const md = `${String(today.getUTCMonth() + 1).padStart(2, '0')}-${String(today.getUTCDate()).padStart(2, '0')}`;
  const yearsAgo = (years: number) => `${String(y - years).padStart(4, '0')}-${md}`;
  return {
    bornOnOrBefore: min === null ? null : yearsAgo(min),
    bornAfter: max === null ? null : yearsAgo(max + 1),
  };
}

/** The order of a discover list. */
export type DiscoverOrder = 'popular' | 'active' | 'newPosts';

/** A discover request with its tab's preset applied: what the query filters on and how it orders. */
export interface DiscoverPlan {
  /** The gender filter value (0–4, see timeline/domain.ts), or null for no filter. */
  genderFilter: number | null;
  sexuality: number | null;
  preferences: number | null;
  language: string | null;
  hair: number | null;
  body: number | null;
  bigBoobs: boolean;
  bigDick: boolean;
  wantsFun: boolean;
  hasBadge: boolean;
  ageMin: number | null;
  ageMax: number | null;
  q: string | null;
  order: DiscoverOrder;
  limit: number;
  offset: number;
}

/** Hair values named in lib/i18n enums (hair). */
export const hair = { blonde: 1, brunette: 2 } as const;

/**
 * SPEC §2 tabs and §3/§9 filter rules. Absent fields do not filter; a boolean filters only when
 * true. An age bound given alone leaves the other side open (the client's slider starts at
 * 18–42, SPEC §9, and sends both). A tab's preset applies on top of the fields sent: teens are
 * women up to 25, milf women 30–50, boobs big boobs, blonde and brunette girls women with that
 * hair, hasBadge verified creators; newposts orders creators by their latest post and
 * activeusers by when they were last seen. Otherwise the most followed come first.
 */
/** The search filter with its tab typed (the contract builds the tab union from a mapped array, which its static type loses). */
export type DiscoverFilter = Omit<SearchFilter, 'tab'> & { tab?: DiscoverTab };

export function discoverPlan(filter: DiscoverFilter): DiscoverPlan {
  const plan: DiscoverPlan = {
    genderFilter: filter.gender ?? null,
    sexuality: filter.sexuality ?? null,
    preferences: filter.preferences ?? null,
    language: filter.languages?.toLowerCase() ?? null,
    hair: filter.hair ?? null,
    body: filter.body ?? null,
    bigBoobs: filter.bigBoobs === true,
    bigDick: filter.bigDick === true,
    wantsFun: filter.wantsFun === true,
    hasBadge: filter.hasBadge === true,
    ageMin: filter.age_gte ?? null,
    ageMax: filter.age_lte ?? null,
    q: filter.q?.trim() || null,
    order: 'popular',
    limit: filter.limit ?? searchSizes.discover,
    offset: filter.offset ?? 0,
  };
  const women = 1;
  switch (filter.tab) {
    case 'teens':
      plan.genderFilter = women;
      plan.ageMin = Math.max(plan.ageMin ?? AgeFilter.min, AgeFilter.min);
      plan.ageMax = Math.min(plan.ageMax ?? AgeFilter.teenMax, AgeFilter.teenMax);
      break;
    case 'milf':
      plan.genderFilter = women;
      plan.ageMin = Math.max(plan.ageMin ?? AgeFilter.milfMin, AgeFilter.milfMin);
      plan.ageMax = Math.min(plan.ageMax ?? AgeFilter.milfMax, AgeFilter.milfMax);
      break;
    case 'boobs':
      plan.bigBoobs = true;
      break;
    case 'blonde-girls':
      plan.genderFilter = women;
      plan.hair = hair.blonde;
      break;
    case 'brunette-girls':
      plan.genderFilter = women;
      plan.hair = hair.brunette;
      break;
    case 'hasBadge':
      plan.hasBadge = true;
      break;
    case 'newposts':
      plan.order = 'newPosts';
      break;
    case 'activeusers':
      plan.order = 'active';
      break;
    default:
      break;
  }
  return plan;
}
