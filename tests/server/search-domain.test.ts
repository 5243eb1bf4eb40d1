import { describe, expect, it } from 'vitest';
import { birthdayRange, discoverPlan, prefixTsQuery, searchTerms, tagPrefix } from '../../server/src/features/search/domain';
import { pageOf, profileGenderOf, resolveGenderFilter, sample } from '../../server/src/features/timeline/domain';
import { ageOn, parseBirthday } from '../../server/src/features/users/domain';

describe('search terms', () => {
  it('keep only letters, digits, dots, underscores and dashes, so no tsquery syntax gets through', () => {
    expect(searchTerms("Lucy  O'Brien & | ! :* (x) <-> \\ ")).toEqual(['lucy', 'o', 'brien', 'x']);
    expect(searchTerms('lucy.rivers anna_bell a-b')).toEqual(['lucy.rivers', 'anna_bell', 'a-b']);
    expect(searchTerms('... -- __ ')).toEqual([]);
    expect(searchTerms('Novák ŽLUŤOUČKÝ')).toEqual(['novák', 'žluťoučký']);
    expect(searchTerms('a b c d e f g h i j')).toHaveLength(8);
  });

  it('become prefix lexemes joined by and, or nothing at all', () => {
    expect(prefixTsQuery('Luc Riv')).toBe("'luc':* & 'riv':*");
    expect(prefixTsQuery("'; drop table users; --")).toBe("'drop':* & 'table':* & 'users':*");
    expect(prefixTsQuery('  !!  ')).toBeNull();
  });

  it('give a tag prefix from the first word, without # or anything after a dash', () => {
    expect(tagPrefix('#Summer')).toBe('summer');
    expect(tagPrefix('beach-day')).toBe('beach');
    expect(tagPrefix('#')).toBeNull();
  });
});

describe('the age filter', () => {
  const today = new Date(Date.UTC(2026, 10, 22));

  it('turns ages into birthday bounds that agree with the age of every birthday around them', () => {
    const { bornOnOrBefore, bornAfter } = birthdayRange(18, 25, today);
    expect([bornOnOrBefore, bornAfter]).toEqual(['2008-11-22', '2000-11-22']);
    for (const birthday of ['2008-11-22', '2008-11-23', '2000-11-22', '2000-11-23', '2004-02-29', '1999-01-01', '2010-01-01']) {
      const age = ageOn(parseBirthday(birthday, today)!, today);
      const inRange = birthday <= bornOnOrBefore! && birthday > bornAfter!;
      expect(inRange, birthday).toBe(age >= 18 && age <= 25);
    }
  });

  it('handles 29 February and open bounds', () => {
    const leap = new Date(Date.UTC(2028, 1, 29));
    const { bornOnOrBefore } = birthdayRange(18, null, leap);
    expect(bornOnOrBefore).toBe('2010-02-29');
    expect('2010-02-28' <= bornOnOrBefore!).toBe(true);
    expect('2010-03-01' <= bornOnOrBefore!).toBe(false);
    expect(birthdayRange(null, null, leap)).toEqual({ bornOnOrBefore: null, bornAfter: null });
  });
});

describe('discover presets', () => {
  it('apply over the fields sent', () => {
    expect(discoverPlan({ tab: 'teens' })).toMatchObject({ genderFilter: 1, ageMin: 18, ageMax: 25 });
    expect(discoverPlan({ tab: 'teens', age_gte: 21, age_lte: 40 })).toMatchObject({ ageMin: 21, ageMax: 25 });
    expect(discoverPlan({ tab: 'milf', gender: 2 })).toMatchObject({ genderFilter: 1, ageMin: 30, ageMax: 50 });
    expect(discoverPlan({ tab: 'blonde-girls', hair: 3 })).toMatchObject({ genderFilter: 1, hair: 1 });
    expect(discoverPlan({ tab: 'boobs' })).toMatchObject({ bigBoobs: true, genderFilter: null });
    expect(discoverPlan({ tab: 'activeusers' }).order).toBe('active');
    expect(discoverPlan({ tab: 'newposts' }).order).toBe('newPosts');
    expect(discoverPlan({ bigDick: false, hasBadge: false })).toMatchObject({ bigDick: false, hasBadge: false, order: 'popular', limit: 30, offset: 0 });
  });
});

describe('the timeline gender filter', () => {
  it('maps 1 to women, 2 to men, 0 to everyone, and keeps 0 for logged-in viewers', () => {
    expect([0, 1, 2, 3, 4].map(profileGenderOf)).toEqual([null, 2, 1, 3, 4]);
    expect(resolveGenderFilter(undefined, false)).toBe(1);
    expect(resolveGenderFilter(0, false)).toBeNull();
    expect(resolveGenderFilter(0, true)).toBe(0);
  });

  it('pages by ts and offset together', () => {
    expect(pageOf({ ts: 1000, offset: 5 }, 15)).toEqual({ limit: 15, offset: 5, before: new Date(1000) });
    expect(pageOf({}, 30)).toEqual({ limit: 30, offset: 0, before: null });
  });

  it('draws distinct items for the tour', () => {
    const pool = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const drawn = sample(pool, 7);
    expect(new Set(drawn).size).toBe(7);
    expect(drawn.every((x) => pool.includes(x))).toBe(true);
    expect(sample([1, 2], 7)).toHaveLength(2);
    expect(sample(pool, 3, () => 0)).toEqual([1, 2, 3]);
  });
});
