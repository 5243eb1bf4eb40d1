import { PostCard } from '../PostCard/PostCard';
import { FeedBase, type FeedProps } from './FeedBase';

/**
 * A list of posts (SPEC §2 Timeline): windowed, pages loaded as the reader nears the end,
 * 'Load New Posts' when newer posts exist, who-to-follow blocks every 5 posts, and the
 * "You're All Caught up" marker at the end.
 */
export function Feed(props: FeedProps) {
  return <FeedBase {...props} card={PostCard} />;
}

export type { FeedProps };
