import { and, asc, desc, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../../db';
import { follows, media, users } from '../../db/schema';
import { profileColumns } from '../users/service';
import type { ProfileRow } from '../users/domain';
import { searchTerms } from './domain';

/**
 * People search, as the quick search, `/papi/search/users` and discover's `q` share it
 * (docs/api.md, "How people search matches and ranks").
 *
 * Names are compared folded (public.fanstage_fold: no accents, lower case, '.', '_' and '-' as
 * spaces), so "kralova" is "Králová" and "lucy.rivers" is "Lucy Rivers". A person matches
 *
 * 0. exactly: the query is their whole display name or username;
 * 1. by prefix: the query starts their display name or username, or the part after its first
 *    word (a surname), and then every word of it starts a word of theirs;
 * 2. fuzzily, only when nobody matches by 0 or 1: their names hold an extent close to the query
 *    by trigrams (pg_trgm word similarity ≥ pg_trgm.word_similarity_threshold, 0.6), best first.
 *
 * Fuzzy matches only stand in for an empty answer: a close name beside a real match (tp…4 when
 * tp…4 itself exists) is noise, a typo with nothing behind it ("lucy rivres") is not.
 *
 * Every read is bounded. Prefixes are ranges of btree indexes in byte order, each walked in order
 * and stopped after `pool` rows that pass the filters; the people the viewer follows are read from
 * their follows, verified ones from a partial index; only those candidates are ranked. A common
 * prefix ("ann" among 200 000 people) thus reads a few hundred index entries, not every Anna. The
 * fuzzy read is a GIN trigram scan, which only near names pass.
 */

/** Candidates each prefix source gives at most: the ranking orders this many, a few pages' worth. */
const poolStep = 200;

export interface PeopleSearch {
  q: string;
  viewerId: number | null;
  /** Who may be found at all (active, not staff, not blocked, a tab's preset…), as conditions on `users`. */
  filters: (SQL | undefined)[];
  /**
   * The order within a match tier. People search: those the viewer follows, then verified
   * ones, then the most followed. Discover keeps its tab's order (most followed, last seen,
   * latest post).
   */
  order: SQL[];
  limit: number;
  offset: number;
}

/** The order of people search within a tier: followed by the viewer, verified, most followed. */
export function peopleOrder(viewerId: number | null): SQL[] {
  return [
    ...(viewerId === null ? [] : [sql`exists(select 1 from ${follows} where ${follows.followerId} = ${viewerId} and ${follows.followedId} = ${users.id}) desc`]),
    desc(users.hasBadge),
    desc(users.followersCount),
    asc(users.id),
  ];
}

/** The query's words as the database folds names (searchTerms keeps no operator or quote). */
function queryWords(q: string): string[] {
  return searchTerms(q).slice(0, maxWords);
}

/** Each word of a longer query drives a walk of its own (any order of words matches): at most this many. */
const maxWords = 3;
/** A single word's walk of a longer query reads at most this many names before the other words filter them. */
const wordWalk = 1000;

/** Both names, folded, with a space in front: every word of the query starts with ' ' + word here. */
const haystack = sql`' ' || ${users.searchName} || ' ' || ${users.searchUsername}`;
/** What the trigram index holds. */
const trigramText = sql`(${users.searchName} || ' ' || ${users.searchUsername})`;
const tailOf = (column: SQLWrapper) => sql`public.fanstage_tail(${column})`;
const nameKeys: SQLWrapper[] = [users.searchName, tailOf(users.searchName), users.searchUsername, tailOf(users.searchUsername)];

export async function searchPeople(db: Database, search: PeopleSearch): Promise<ProfileRow[]> {
  const words = queryWords(search.q);
  if (words.length === 0) return [];
  const folded = sql`public.fanstage_fold(${words.join(' ')})`;
  const { filters, viewerId, limit, offset } = search;
  const pool = Math.ceil((offset + limit) / poolStep) * poolStep;
  const startsWith = (expr: SQLWrapper, start: SQL) => sql`${expr} >= ${start} and ${expr} < ${start} || chr(1114111)`;
  const everyWord = sql`not exists(select 1 from unnest(string_to_array(${folded}, ' ')) as w(word) where strpos(${haystack}, ' ' || w.word) = 0)`;
  // The whole query starting a name, or its part after the first word, or a username.
  const range = (expr: SQLWrapper, extra?: SQL) =>
    sql`(select ${users.id} from ${users} where ${and(startsWith(expr, folded), extra, ...filters)} order by ${expr} limit ${pool})`;
  const sources = [
    ...nameKeys.map((key) => range(key, everyWord)),
    // Verified people come first in people search: their own short walk, so a common prefix does not bury them.
    range(users.searchName, sql`${users.hasBadge}`),
  ];
  if (words.length > 1) {
    // "riv lucy", "fnab lncd": one word's walk, the others checked on what it reads.
    for (const word of new Set(words)) {
      const start = sql`public.fanstage_fold(${word})`;
      for (const key of nameKeys) {
        sources.push(
          sql`(select walked.id from (select ${users.id} as id from ${users} where ${startsWith(key, start)} order by ${key} limit ${wordWalk}) walked join ${users} on ${users.id} = walked.id where ${and(everyWord, ...filters)} limit ${pool})`,
        );
      }
    }
  }
  if (viewerId !== null) {
    sources.push(
      // By id, one probe each: joined, PostgreSQL may walk the users between the lowest and highest id followed.
      sql`(select ${users.id} from ${users} where ${and(sql`${users.id} = any(array(select ${follows.followedId} from ${follows} where ${eq(follows.followerId, viewerId)}))`, everyWord, ...filters)})`,
    );
  }
  const exact = sql`case when ${users.searchName} = ${folded} or ${users.searchUsername} = ${folded} then 0 else 1 end`;
  const ranked = (page: { limit: number; offset: number }) =>
    db
      .select(profileColumns)
      .from(users)
      .leftJoin(media, eq(media.id, users.avatarMediaId))
      // An array, read once: the candidates are few, and each is then one probe of the primary key.
      .where(sql`${users.id} = any(array(${sql.join(sources, sql` union `)}))`)
      .orderBy(exact, ...search.order)
      .limit(page.limit)
      .offset(page.offset);
  const rows: ProfileRow[] = await ranked({ limit, offset });
  if (rows.length > 0) return rows;
  if (offset > 0 && (await ranked({ limit: 1, offset: 0 })).length > 0) return rows;
  // Nobody by name or prefix: the names closest to the query, by trigrams.
  const fuzzy: ProfileRow[] = await db
    .select(profileColumns)
    .from(users)
    .leftJoin(media, eq(media.id, users.avatarMediaId))
    .where(and(sql`${folded} <% ${trigramText}`, ...filters))
    .orderBy(sql`word_similarity(${folded}, ${trigramText}) desc`, sql`similarity(${folded}, ${trigramText}) desc`, ...search.order)
    .limit(limit)
    .offset(offset);
  return fuzzy;
}
