import { describe, expect, it } from 'vitest';
import { maxHashtagsPerPost, parseHashtags, parseMentions, planPrice, planSchedule } from '../../server/src/features/posts/domain';
import { mentionsPattern } from '../../server/src/features/settings/domain';
import { parseTypes } from '../../server/src/features/notifications/domain';
import { demoPostsOf } from '../../server/src/features/demo/posts-domain';

describe('hashtags of a post', () => {
  it('are the SPEC §5 tags of the text, lower-cased, once each, in order', () => {
    expect(parseHashtags('Hello #Sunset and #studio #SUNSET')).toEqual(['sunset', 'studio']);
    expect(parseHashtags('#Praha #léto #a.b_c #x')).toEqual(['praha', 'léto', 'a.b_c', 'x']);
  });

  it('leave out digit-only runs, tags inside words and entities, and trailing dots', () => {
    expect(parseHashtags('#2024 #... a#b &#38; #end. #mid.dle')).toEqual(['end', 'mid.dle']);
  });

  it('leave out runs longer than 64 characters and stop at the per-post cap', () => {
    expect(parseHashtags(`#${'a'.repeat(64)} #${'b'.repeat(65)}`)).toEqual(['a'.repeat(64)]);
    const many = Array.from({ length: 40 }, (_, i) => `#t${i}x`).join(' ');
    expect(parseHashtags(many)).toHaveLength(maxHashtagsPerPost);
  });
});

describe('mentions of a post', () => {
  it('are read with the expression clients get from the settings', () => {
    expect(parseMentions('hi @Lucy.Rivers and @tom_b, not @ab or @lucy.rivers', mentionsPattern)).toEqual(['lucy.rivers', 'tom_b']);
  });
});

describe('the price of a new post', () => {
  it('is a post-media step for sellers, dropped with notASeller for others, ignored without media', () => {
    expect(planPrice(320, true, true)).toEqual({ price: 320, notASeller: false });
    expect(planPrice(0, true, true)).toEqual({ price: 0, notASeller: false });
    expect(planPrice(100, true, true)).toEqual({ problem: 'invalid-price' });
    expect(planPrice(95, false, true)).toEqual({ price: 0, notASeller: true });
    expect(planPrice(0, false, true)).toEqual({ price: null, notASeller: false });
    expect(planPrice(95, true, false)).toEqual({ price: null, notASeller: false });
    expect(planPrice(undefined, true, true)).toEqual({ price: null, notASeller: false });
  });
});

describe('the start date of a new post', () => {
  it('schedules future dates up to a year ahead and publishes the rest now', () => {
    const now = 1_700_000_000_000;
    expect(planSchedule(undefined, now)).toEqual({ publishedAt: new Date(now), startDate: null });
    expect(planSchedule(now - 5, now)).toEqual({ publishedAt: new Date(now), startDate: null });
    expect(planSchedule(now + 60_000, now)).toEqual({ publishedAt: new Date(now + 60_000), startDate: new Date(now + 60_000) });
    expect(planSchedule(now + 366 * 86_400_000, now)).toEqual({ problem: 'too-far' });
  });
});

describe('the types filter of notifications', () => {
  it('takes a comma-separated list of known types and names the first unknown one', () => {
    expect(parseTypes(undefined)).toEqual({ types: null });
    expect(parseTypes(' , ')).toEqual({ types: null });
    expect(parseTypes('follow, profileVisit,follow')).toEqual({ types: ['follow', 'profileVisit'] });
    expect(parseTypes('follow,likes')).toEqual({ unknown: 'likes' });
  });
});

describe('the demo posts', () => {
  it('give every creator 3 or 4 posts, some priced with post-media steps, with hashtags, likes and a reply', () => {
    const all = Array.from({ length: 8 }, (_, i) => demoPostsOf(i, 6));
    for (const list of all) expect(list.length === 3 || list.length === 4).toBe(true);
    const flat = all.flat();
    expect(new Set(flat.map((p) => p.price))).toEqual(new Set([0, 95, 320]));
    for (const post of flat) expect(parseHashtags(post.text).length).toBeGreaterThan(0);
    expect(flat.some((p) => p.comments.some((c) => c.reply !== undefined))).toBe(true);
    expect(flat.every((p) => p.likedBy.every((f) => f >= 0 && f < 6))).toBe(true);
    expect(demoPostsOf(3, 6)).toEqual(demoPostsOf(3, 6));
  });
});
