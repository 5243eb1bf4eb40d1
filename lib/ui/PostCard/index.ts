export { PostCard } from './PostCard';
export { PostCardBase } from './PostCardBase';
export { renderText } from './renderText';
export type { PostCardProps, PostCardParts } from './PostCardBase';
export { usePostCard, usePostSeen, defaultPostHrefs } from './usePostCard';
export type { PostCardState, PostCardData, PostCardCallbacks, PostHrefs, LoginRequired, UsePostCardOptions } from './usePostCard';
export { parseRichText } from './richText';
export type { TextPart } from './richText';
