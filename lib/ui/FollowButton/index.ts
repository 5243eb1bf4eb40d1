export { FollowButton, FollowButtonView } from './FollowButton';
export type { FollowButtonProps, FollowButtonViewProps } from './FollowButton';
export { useFollowButton } from './useFollowButton';
export type { FollowButtonState, UseFollowButtonOptions } from './useFollowButton';
