import { Fragment, type ReactNode } from 'react';
import type { PostHrefs } from './usePostCard';
import type { TextPart } from './richText';

/** A post's or a comment's text with its mentions, hashtags and links as links. */
export function renderText(parts: readonly TextPart[], hrefs: PostHrefs): ReactNode {
  return parts.map((part, index) => {
    switch (part.kind) {
      case 'text':
        return <Fragment key={index}>{part.text}</Fragment>;
      case 'mention':
        return (
          <a key={index} href={hrefs.profile(part.username)}>
            {part.text}
          </a>
        );
      case 'hashtag':
        return (
          <a key={index} href={hrefs.hashtag(part.tag)}>
            {part.text}
          </a>
        );
      case 'link':
        return (
          <a key={index} href={part.href} target="_blank" rel="noopener noreferrer nofollow ugc">
            {part.text}
          </a>
        );
    }
  });
}
