/**
 * Page sizes of lists (SPEC §9): how many items one request asks for. A page shorter than
 * its size means the list has ended.
 */
export const pageSizes = {
  notifications: 30,
  conversations: 30,
  chatHistory: 30,
  subscriptions: 30,
  earnings: 30,
  comments: 30,
  timeline: 15,
  likes: 15,
  discoverSearch: 30,
  section: 15,
  tour: 7,
  onlineUsers: 20,
  whoToFollow: 15,
  /** Fewer suggestions when the timeline is empty, so they do not bury the placeholder. */
  whoToFollowEmptyTimeline: 10,
  /** What the API assumes when no limit is sent. */
  whoToFollowDefault: 10,
  tourTimeline: 30,
  hashtagTimeline: 30,
  scheduledPosts: 30,
  chatAside: 8,
  userLists: 30,
  /** SPEC §2: the quick search box shows at most 8 results. */
  quickSearch: 8,
} as const;

export type PageSizeKey = keyof typeof pageSizes;
