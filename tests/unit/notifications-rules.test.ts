import { describe, expect, it } from 'vitest';
import {
  groupNotifications,
  notificationGroup,
  notificationHref,
  notificationMessage,
  notificationTarget,
  notificationTypesOf,
  type Notification,
  type NotificationTab,
} from '../../lib/sdk';
import { NotificationTabs, NotificationTypes } from '../../lib/contract';
import { createI18n, loadLanguage } from '../../lib/i18n';
import { profile } from './support/profiles';

// Czech is a chunk of its own; the Czech texts below need it loaded.
await loadLanguage('cs');

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
// Midday local time, so "today" reaches back twelve hours whatever the machine's zone.
const now = new Date(2026, 10, 18, 12, 0, 0).getTime();

function notification(overrides: Partial<Notification> = {}): Notification {
  return {
    id: 1,
    type: 'postLike',
    createdDate: now,
    fromUser: profile({ id: 7, username: 'lucy.rivers', displayName: 'Lucy Rivers' }),
    giftId: null,
    postId: 55,
    commentId: null,
    mediaId: null,
    count: 1,
    unread: true,
    ...overrides,
  };
}

describe('notification grouping', () => {
  it('puts everything since midnight under today, even from eleven hours ago', () => {
    expect(notificationGroup(now, now)).toBe('today');
    expect(notificationGroup(now - 11 * HOUR, now)).toBe('today');
    // A clock slightly ahead of the reader's is still today.
    expect(notificationGroup(now + 30_000, now)).toBe('today');
  });

  it('puts yesterday evening under this week, not today', () => {
    expect(notificationGroup(now - 13 * HOUR, now)).toBe('thisWeek');
  });

  it('keeps this week to seven days and this month to thirty', () => {
    expect(notificationGroup(now - 7 * DAY + 1, now)).toBe('thisWeek');
    expect(notificationGroup(now - 7 * DAY, now)).toBe('thisMonth');
    expect(notificationGroup(now - 30 * DAY + 1, now)).toBe('thisMonth');
    expect(notificationGroup(now - 30 * DAY, now)).toBe('older');
    expect(notificationGroup(now - 400 * DAY, now)).toBe('older');
  });

  it('lists the non-empty groups in order, each keeping the list’s own order', () => {
    const list = [
      notification({ id: 1, createdDate: now - HOUR }),
      notification({ id: 2, createdDate: now - 2 * HOUR }),
      notification({ id: 3, createdDate: now - 40 * DAY }),
      notification({ id: 4, createdDate: now - 3 * DAY }),
    ];
    const sections = groupNotifications(list, now);
    expect(sections.map((s) => [s.group, s.items.map((n) => n.id)])).toEqual([
      ['today', [1, 2]],
      ['thisWeek', [4]],
      ['older', [3]],
    ]);
    expect(groupNotifications([], now)).toEqual([]);
  });
});

describe('notification tabs', () => {
  it('asks for every type on all and for the contract’s types on the others', () => {
    expect(notificationTypesOf('all')).toBeUndefined();
    for (const tab of ['follow', 'subscriptions', 'replies'] as const satisfies readonly NotificationTab[]) {
      expect(notificationTypesOf(tab)?.split(',')).toEqual([...NotificationTabs[tab]]);
    }
  });
});

describe('what a notification says and where it leads', () => {
  const i18n = createI18n('en');
  const say = (n: Notification) => {
    const m = notificationMessage(n);
    return i18n.t(`notifications.text.${m.key}`, { name: m.name, count: m.others });
  };

  it('names the sender of a single like and links to the post', () => {
    const n = notification();
    expect(say(n)).toBe('Lucy Rivers liked your post');
    expect(notificationHref(notificationTarget(n)!)).toBe('/post/55');
  });

  it('counts the others of merged likes: "Lucy and 3 others liked your post"', () => {
    expect(say(notification({ count: 4, fromUser: profile({ displayName: 'Lucy', username: 'lucy' }) }))).toBe('Lucy and 3 others liked your post');
    expect(say(notification({ count: 2, fromUser: profile({ displayName: 'Lucy', username: 'lucy' }) }))).toBe('Lucy and 1 other liked your post');
  });

  it('says it in Czech with the Czech plural forms', () => {
    const cs = createI18n('cs');
    const m = notificationMessage(notification({ count: 4, fromUser: profile({ displayName: 'Lucy', username: 'lucy' }) }));
    expect(cs.t(`notifications.text.${m.key}`, { name: m.name, count: m.others })).toBe('Lucy a 3 dalším se líbí váš příspěvek');
  });

  it('links a follow to the follower’s profile and a reply to the comment thread', () => {
    expect(notificationHref(notificationTarget(notification({ type: 'follow', postId: null }))!)).toBe('/lucy.rivers');
    const reply = notification({ type: 'postCommentReply', commentId: 9 });
    expect(notificationHref(notificationTarget(reply)!)).toBe('/post/55/9');
    expect(say(reply)).toBe('Lucy Rivers replied to your comment');
    expect(notificationHref(notificationTarget(notification({ type: 'missedCall', postId: null }))!)).toBe('/chat/lucy.rivers');
    expect(notificationHref(notificationTarget(notification({ type: 'verificationApproved', postId: null, fromUser: null }))!)).toBe('/settings');
  });

  it('does not count others for a type the server never merges', () => {
    expect(notificationMessage(notification({ type: 'follow', count: 3 })).key).toBe('follow');
  });

  it('has a text for every type in both languages', () => {
    for (const lng of ['en', 'cs'] as const) {
      const t = createI18n(lng).t;
      for (const type of NotificationTypes) {
        expect(t(`notifications.text.${type}`, { name: 'X', defaultValue: '' }), `${lng} ${type}`).not.toBe('');
      }
    }
  });
});
