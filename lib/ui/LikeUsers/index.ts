export { LikeUsers } from './LikeUsers';
export type { LikeUsersProps } from './LikeUsers';
export { useLikeUsers } from './useLikeUsers';
export type { LikeUsersState, LikeUserRow } from './useLikeUsers';
