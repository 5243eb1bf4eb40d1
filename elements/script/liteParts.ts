/**
 * Pieces several first views draw (./profile-card.ts, ./feed.ts): the follow button and the
 * initials, with the React components' markup (lib/ui/FollowButton, lib/ui/ProfileCard).
 */
import followStyles from '../../lib/ui/FollowButton/FollowButton.module.css';
import { escapeHtml } from './lite';

export { initialsOf } from '../../lib/sdk/rules/initials';

/**
 * A visitor's follow button (FollowButtonView, not pressed), `label` its word (`follow.follow`). `click`: the selector of its twin
 * in the React widget, which a click on this one is passed on to.
 */
export function followButton(language: 'en' | 'cs', label: string, name: string, click: string, extraClass = ''): string {
  return (
    `<span class="fs-root ${followStyles.root}${extraClass ? ` ${extraClass}` : ''}" lang="${language}">` +
    `<button type="button" class="${followStyles.button}" aria-pressed="false" data-fs-click="${escapeHtml(click)}">` +
    `<span>${escapeHtml(label)}</span> <span class="${followStyles.visuallyHidden}">${escapeHtml(name)}</span></button>` +
    `<span class="${followStyles.visuallyHidden}" role="status"></span></span>`
  );
}
