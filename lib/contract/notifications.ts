import { Type, type Static } from 'typebox';
import { NotificationTypes } from './constants';
import { PublicProfile } from './users';

export const Notification = Type.Object(
  {
    id: Type.Integer(),
    type: Type.Enum(NotificationTypes),
    /** Epoch ms of the latest event merged into it. */
    createdDate: Type.Integer(),
    fromUser: Type.Union([PublicProfile, Type.Null()]),
    giftId: Type.Union([Type.Integer(), Type.Null()]),
    postId: Type.Union([Type.Integer(), Type.Null()]),
    commentId: Type.Union([Type.Integer(), Type.Null()]),
    mediaId: Type.Union([Type.Integer(), Type.Null()]),
    /** How many events were merged (likes and missed calls within an hour). */
    count: Type.Integer({ minimum: 1 }),
    unread: Type.Boolean(),
  },
  { $id: 'Notification' },
);
export type Notification = Static<typeof Notification>;

export const NotificationsQuery = Type.Object({
  /** Comma-separated types; all when absent. */
  types: Type.Optional(Type.String({ maxLength: 600 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
});
export type NotificationsQuery = Static<typeof NotificationsQuery>;

export const NotificationPage = Type.Object({
  notifications: Type.Array(Notification),
  /** Unread notifications of the viewer (the Notifications tab badge). */
  unreadCount: Type.Integer({ minimum: 0 }),
});
export type NotificationPage = Static<typeof NotificationPage>;

/**
 * `GET /api/count/` and the websocket's `updateCount`: the badge counts of the navigation —
 * unread notifications, conversations with unread messages, and reactions to the viewer's
 * chat messages the viewer has not seen yet (the Chat tab shows chats + reactions).
 */
export const Counts = Type.Object({
  notifications: Type.Integer({ minimum: 0 }),
  chats: Type.Integer({ minimum: 0 }),
  reactions: Type.Integer({ minimum: 0 }),
});
export type Counts = Static<typeof Counts>;

export { NotificationTypes, NotificationTabs, type NotificationType } from './constants';
