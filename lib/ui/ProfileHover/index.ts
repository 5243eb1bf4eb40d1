export { ProfileHover } from './ProfileHover';
export type { ProfileHoverProps } from './ProfileHover';
export { useProfileHover, PROFILE_HOVER_OPEN_MS, PROFILE_HOVER_CLOSE_MS } from './useProfileHover';
export type { ProfileHoverState, UseProfileHoverOptions } from './useProfileHover';
