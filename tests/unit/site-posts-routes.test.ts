import { describe, expect, it } from 'vitest';
import { asksToLogIn, isLoginOnly, isTabScreen } from '../../host-web/navigation';
import { DEFAULT_GENDER_FILTER, effectiveGender, hasGenderFilter } from '../../host-web/components/genderFilter';
import { idOf } from '../../host-web/components/routeIds';

describe('the reference site’s post routes', () => {
  it('keeps the timeline and the editors for logged-in users, and asks visitors to log in for the editors', () => {
    for (const path of ['/timeline', '/new-post', '/update-post/12']) expect(isLoginOnly(path)).toBe(true);
    for (const path of ['/', '/post/12', '/post/12/comments', '/feed/hashtag-timeline/travel', '/post/12/4/full-screen-media']) expect(isLoginOnly(path)).toBe(false);
    expect(asksToLogIn('/new-post')).toBe(true);
    expect(asksToLogIn('/update-post/12?x=1')).toBe(true);
    expect(asksToLogIn('/timeline')).toBe(false);
    expect(asksToLogIn('/new-posts')).toBe(false);
  });

  it('treats the public and the private timeline as tab screens with the gender filter', () => {
    for (const path of ['/', '/timeline', '/timeline/']) {
      expect(isTabScreen(path)).toBe(true);
      expect(hasGenderFilter(path)).toBe(true);
    }
    for (const path of ['/discover', '/post/3', '/timelines']) expect(hasGenderFilter(path)).toBe(false);
  });

  it('never lets a visitor filter for everyone, which only logged-in users may', () => {
    expect(DEFAULT_GENDER_FILTER).toBe(1);
    expect(effectiveGender(0, false)).toBe(1);
    expect(effectiveGender(0, true)).toBe(0);
    expect(effectiveGender(3, false)).toBe(3);
  });

  it('reads ids from addresses only when they are positive 32-bit integers', () => {
    expect(idOf('42')).toBe(42);
    for (const segment of [undefined, '', '0', '-1', '1.5', '12abc', '2147483648', '99999999999']) expect(idOf(segment)).toBeNull();
  });
});
