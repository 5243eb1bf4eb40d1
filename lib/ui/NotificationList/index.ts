export { NotificationList, NotificationListView } from './NotificationList';
export type { NotificationListProps } from './NotificationList';
export { useNotificationList } from './useNotificationList';
export type { NotificationListState, NotificationRow, UseNotificationListOptions } from './useNotificationList';
