/**
 * Pieces several first views draw (./profile-card.ts, ./feed.ts): the follow button and the
 * initials, with the React components' markup (lib/ui/FollowButton, lib/ui/ProfileCard).
 */
import followStyles from '../../lib/ui/FollowButton/FollowButton.module.css';
import { escapeHtml } from './lite';

/** lib/ui/ProfileCard/useProfileCard.ts `initialsOf`: that module brings React along. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  if (!first) return '?';
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const letter = (word: string) => Array.from(word)[0] ?? '';
  return (letter(first) + (last ? letter(last) : '')).toLocaleUpperCase();
}

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
