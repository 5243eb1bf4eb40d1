export { UserList } from './UserList';
export type { UserListProps } from './UserList';
export { useUserList } from './useUserList';
export type { UserListState } from './useUserList';
