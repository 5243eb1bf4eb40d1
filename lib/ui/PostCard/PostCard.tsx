import { lazy } from 'react';
import { PostCardBase, type PostCardParts, type PostCardProps } from './PostCardBase';

// The dialogs are loaded when first opened: most cards are scrolled past without them.
const parts: PostCardParts = {
  ShareDialog: lazy(() => import('../ShareDialog/ShareDialog').then((m) => ({ default: m.ShareDialog }))),
  MediaViewer: lazy(() => import('../MediaViewer/MediaViewer').then((m) => ({ default: m.MediaViewer }))),
  Comments: lazy(() => import('../Comments/Comments').then((m) => ({ default: m.Comments }))),
  LikeUsers: lazy(() => import('../LikeUsers/LikeUsers').then((m) => ({ default: m.LikeUsers }))),
  MediaEarnings: lazy(() => import('../MediaEarnings/MediaEarnings').then((m) => ({ default: m.MediaEarnings }))),
};

/** One post: author, text, media behind their lock, stats and actions, with its own share dialog, viewer and comments. */
export function PostCard(props: PostCardProps) {
  return <PostCardBase {...props} parts={parts} />;
}

export type { PostCardProps };
