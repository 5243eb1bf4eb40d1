export { Comments } from './Comments';
export type { CommentsProps } from './Comments';
export { useComments, AUTO_REPLIES_BELOW } from './useComments';
export type { CommentsState, CommentsStatus, ReplyThread, UseCommentsOptions } from './useComments';
