import { describe, expect, it } from 'vitest';
import { breakpointFor, breakpoints, cookieExpiryDays, pageSizes } from '../../lib/sdk';

describe('page sizes', () => {
  it('are those of SPEC §9', () => {
    expect(pageSizes).toMatchObject({
      notifications: 30,
      conversations: 30,
      chatHistory: 30,
      subscriptions: 30,
      earnings: 30,
      comments: 30,
      timeline: 15,
      likes: 15,
      discoverSearch: 30,
      section: 15,
      tour: 7,
      onlineUsers: 20,
      whoToFollow: 15,
      whoToFollowEmptyTimeline: 10,
      whoToFollowDefault: 10,
      tourTimeline: 30,
      hashtagTimeline: 30,
      scheduledPosts: 30,
      chatAside: 8,
      userLists: 30,
      quickSearch: 8,
    });
  });
});

describe('cookie expiries', () => {
  it('are those of SPEC §9 in days, two years being 730', () => {
    expect(cookieExpiryDays).toEqual({
      genderfilter: 30,
      pushdis: 14,
      accept: 365,
      smstip: 7,
      robin: 31,
      affcode: 31,
      cookielang: 730,
      preference: 730,
    });
  });
});

describe('layout breakpoints', () => {
  it('are phone 0, tablet 870, web 1280', () => {
    expect(breakpoints).toEqual({ phone: 0, tablet: 870, web: 1280 });
  });

  it('each apply from their own width up', () => {
    expect(breakpointFor(0)).toBe('phone');
    expect(breakpointFor(869)).toBe('phone');
    expect(breakpointFor(870)).toBe('tablet');
    expect(breakpointFor(1279)).toBe('tablet');
    expect(breakpointFor(1280)).toBe('web');
    expect(breakpointFor(2560)).toBe('web');
  });
});
