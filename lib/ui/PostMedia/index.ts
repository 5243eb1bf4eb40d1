export { PostMedia } from './PostMedia';
export type { PostMediaProps } from './PostMedia';
export { usePostMedia, useAutoplay } from './usePostMedia';
export type { PostMediaItem } from './usePostMedia';
