export { Feed } from './Feed';
export { FeedBase } from './FeedBase';
export type { FeedProps } from './FeedBase';
export { useFeed, toRows, POSTS_PER_SUGGESTION_BLOCK, SUGGESTIONS_PER_BLOCK } from './useFeed';
export type { FeedRow, FeedState, UseFeedOptions } from './useFeed';
export { useWindowedList } from './useWindowedList';
export type { WindowedRange } from './useWindowedList';
