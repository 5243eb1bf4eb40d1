import { Type, type Static } from 'typebox';
import { PublicProfile } from './users';
import { MediaView } from './media';
import { Int, Timestamp } from './bounds';

/** A post's author with the viewer's relation to them. */
export const PostAuthor = Type.Interface([PublicProfile], { isFollowed: Type.Boolean() }, { $id: 'PostAuthor' });
export type PostAuthor = Static<typeof PostAuthor>;

/** A post as a viewer sees it (SPEC §3 Post). Times are epoch milliseconds. */
export const Post = Type.Object(
  {
    id: Type.Integer(),
    text: Type.String(),
    user: PostAuthor,
    media: Type.Array(MediaView),
    totalLikesCount: Type.Integer({ minimum: 0 }),
    likedByMe: Type.Boolean(),
    /** Comments and replies together. */
    totalCommentsCount: Type.Integer({ minimum: 0 }),
    totalGiftsCount: Type.Integer({ minimum: 0 }),
    /** Top-level comments. */
    commentsCount: Type.Integer({ minimum: 0 }),
    /** Set while scheduled (in the future: visible to the owner only, no actions). */
    startDate: Type.Union([Type.Integer(), Type.Null()]),
    /** When it appeared on timelines; the paging cursor. */
    ts: Type.Integer(),
    isMy: Type.Boolean(),
  },
  { $id: 'Post' },
);
export type Post = Static<typeof Post>;

export const PostList = Type.Array(Post);
export type PostList = Static<typeof PostList>;

/** `POST /api/posts`. Media come from `POST /api/media` first. */
export const CreatePostBody = Type.Object({
  text: Type.Optional(Type.String({ maxLength: 5000 })),
  mediaIds: Type.Optional(Type.Array(Int({ minimum: 1 }), { maxItems: 10 })),
  /** Cents, a post-media price step, applied to every media of the post. */
  price: Type.Optional(Int({ minimum: 0, maximum: 1_000_000 })),
  /** Epoch ms in the future: the post is scheduled. */
  startDate: Type.Optional(Type.Union([Timestamp(), Type.Null()])),
});
export type CreatePostBody = Static<typeof CreatePostBody>;

/** Answer of `POST /api/posts`: the post, and `notASeller` when a price was dropped (SPEC §8). */
export const CreatedPost = Type.Interface([Post], { notASeller: Type.Optional(Type.Boolean()) });
export type CreatedPost = Static<typeof CreatedPost>;

export const UpdatePostBody = Type.Object({ text: Type.String({ maxLength: 5000 }) });
export type UpdatePostBody = Static<typeof UpdatePostBody>;

export const PostIdParams = Type.Object({ id: Int({ minimum: 1, maximum: 2_147_483_647 }) });
export type PostIdParams = Static<typeof PostIdParams>;

/** Paging by `offset` or by `ts` (epoch ms of the last item seen: older items follow). */
export const PageQuery = Type.Object({
  limit: Type.Optional(Int({ minimum: 1, maximum: 50 })),
  offset: Type.Optional(Int({ minimum: 0, maximum: 100_000 })),
  ts: Type.Optional(Timestamp()),
});
export type PageQuery = Static<typeof PageQuery>;

/** Gender filter of the public timeline (SPEC §3): 0 all (logged in only), 1 default, up to 4. */
export const TimelineQuery = Type.Interface([PageQuery], { gender: Type.Optional(Int({ minimum: 0, maximum: 4 })) });
export type TimelineQuery = Static<typeof TimelineQuery>;

export const UserPostsQuery = Type.Interface([PageQuery], { username: Type.String({ minLength: 1, maxLength: 64 }) });
export type UserPostsQuery = Static<typeof UserPostsQuery>;

export const HashtagParams = Type.Object({ tag: Type.String({ minLength: 1, maxLength: 64 }) });

/** SPEC §3 Comment. */
export const Comment = Type.Object(
  {
    id: Type.Integer(),
    parentId: Type.Union([Type.Integer(), Type.Null()]),
    postId: Type.Integer(),
    user: PublicProfile,
    text: Type.String(),
    giftId: Type.Union([Type.Integer(), Type.Null()]),
    ts: Type.Integer(),
    /** The first replies (up to 3) of a top-level comment. */
    replies: Type.Array(Type.Unknown()),
    childrenCount: Type.Integer({ minimum: 0 }),
    likesCount: Type.Integer({ minimum: 0 }),
    isLiked: Type.Boolean(),
    /** The viewer may delete it (author or post owner). */
    canDelete: Type.Boolean(),
    isUnreadChildrenNotif: Type.Boolean(),
    hasUnreadNotification: Type.Boolean(),
  },
  { $id: 'Comment' },
);
export type Comment = Static<typeof Comment> & { replies: Comment[] };

export const CommentList = Type.Array(Comment);

export const CreateCommentBody = Type.Object({
  postId: Int({ minimum: 1 }),
  /** A top-level comment's id to reply to it. */
  parentId: Type.Optional(Type.Union([Int({ minimum: 1 }), Type.Null()])),
  text: Type.String({ minLength: 1, maxLength: 2000 }),
});
export type CreateCommentBody = Static<typeof CreateCommentBody>;

export const CommentIdParams = Type.Object({ id: Int({ minimum: 1, maximum: 2_147_483_647 }) });
export const CommentRepliesParams = Type.Object({ commentId: Int({ minimum: 1, maximum: 2_147_483_647 }) });

export const ReportCommentBody = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 500 })) });

/** `POST /papi/ga/`: what a viewer saw of a post. */
export const PostStatsBody = Type.Object({
  postId: Int({ minimum: 1 }),
  duration: Int({ minimum: 0, maximum: 86_400_000 }),
  visibleRatio: Type.Number({ minimum: 0, maximum: 1 }),
  fullscreen: Type.Optional(Type.Boolean()),
  cta: Type.Optional(Type.String({ maxLength: 32 })),
});
export type PostStatsBody = Static<typeof PostStatsBody>;

/** Answer of liking or unliking a post. */
export const LikeState = Type.Object({ totalLikesCount: Type.Integer({ minimum: 0 }), likedByMe: Type.Boolean() });
export type LikeState = Static<typeof LikeState>;
