import { createElement } from 'react';
import { FeedBase } from '../lib/ui/Feed/FeedBase';
import { PostCardBase, type PostCardParts, type PostCardProps } from '../lib/ui/PostCard/PostCardBase';
import { ShareDialog } from '../lib/ui/ShareDialog/ShareDialog';
import type { PostHrefs } from '../lib/ui/PostCard/usePostCard';
import tokensCss from '../lib/ui/theme/tokens.css?inline';
import feedCss from '../lib/ui/Feed/Feed.module.css?inline';
import postCardCss from '../lib/ui/PostCard/PostCard.module.css?inline';
import postMediaCss from '../lib/ui/PostMedia/PostMedia.module.css?inline';
import followButtonCss from '../lib/ui/FollowButton/FollowButton.module.css?inline';
import shareDialogCss from '../lib/ui/ShareDialog/ShareDialog.module.css?inline';
import dialogCss from '../lib/ui/dialog/Dialog.module.css?inline';
import { signInFor } from './shared';
import { widgetElement, type WidgetSpec } from './widget';
import { MissingCreator } from './MissingCreator';
import { usernameOf } from './base';

export const feedTag = 'fanstage-feed';

/** The element's attributes, as props (`api-base` becomes `apiBase`). */
export interface FeedElementProps {
  /** The creator's username. */
  creator?: string;
  apiBase?: string;
  language?: string;
}

/** Every style the feed may show inside its shadow root, the share dialog included. */
const css = [tokensCss, feedCss, postCardCss, postMediaCss, followButtonCss, dialogCss, shareDialogCss].join('\n');

/**
 * A partner page's card stays small: it shares in place, while the full-screen viewer and the
 * comments live on the post's page on the platform, one click away.
 */
const parts: PostCardParts = { ShareDialog };

function WidgetCard(props: PostCardProps) {
  return createElement(PostCardBase, {
    ...props,
    parts,
    onOpenMedia: (post) => {
      window.open(props.hrefs?.post?.(post.id) ?? `/post/${post.id}`, '_blank', 'noopener');
    },
  });
}

/** Links lead to the platform that serves the API, not to the partner's page. */
function platformHrefs(base: string): PostHrefs {
  const root = base || (typeof location !== 'undefined' ? location.origin : '');
  return {
    profile: (username) => `${root}/${encodeURIComponent(username)}`,
    hashtag: (tag) => `${root}/search-hashtags/${encodeURIComponent(tag)}`,
    post: (postId) => `${root}/post/${postId}`,
    editPost: (postId) => `${root}/update-post/${postId}`,
    report: (type, id) => `${root}/abuse-form?type=${type}&id=${id}`,
  };
}

export const feedWidget: WidgetSpec<FeedElementProps> = {
  attributes: ['creator'],
  css,
  render({ creator }, { base, fanstage }) {
    const username = usernameOf(creator);
    if (!username) return createElement(MissingCreator);
    return createElement(FeedBase, {
      card: WidgetCard,
      type: 'profile',
      param: username,
      hrefs: platformHrefs(base),
      shareBase: base || (typeof location !== 'undefined' ? location.origin : ''),
      // A visitor signs in through the platform's popup; the like or follow then goes ahead.
      onLoginRequired: () => signInFor(base, fanstage),
    });
  },
};

let elementClass: CustomElementConstructor | undefined;

/** The `<fanstage-feed>` class, made on first use (needs `HTMLElement`). */
export function feedElement(): CustomElementConstructor {
  elementClass ??= widgetElement(feedWidget);
  return elementClass;
}
