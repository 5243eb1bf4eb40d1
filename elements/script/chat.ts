/**
 * The script tag's `<fanstage-chat>`: what a visitor sees first, the sign-in button naming the
 * creator, without React, drawn with the React widget's own markup, styles and words
 * (`chat.widget.signIn*`). The conversation with everything behind it (./chat-full.ts) takes
 * over on the first interaction, when the browser is idle, or at once for a fan this tab has
 * a session for (./lite.ts); a click on the sign-in button opens the sign-in once it has loaded.
 */
import tokensCss from '../../lib/ui/theme/tokens.css?inline';
import { chatSignInCss } from '../chatSignInCss';
import { defineLite, escapeHtml, liteWord, LiteElement, type LiteProfile } from './lite';

/** elements/chat.ts `chatTag`, spelled out: importing it would bring React along. */
const tag = 'fanstage-chat';

const css = `${tokensCss}\n${chatSignInCss}`;

class ChatElement extends LiteElement {
  protected readonly creatorAttribute = 'with';
  protected readonly css = css;

  protected full() {
    return import('./chat-full');
  }

  protected markup(language: 'en' | 'cs'): string {
    return (
      `<div class="fs-root fs-chat-signin" lang="${language}" data-fs-lite="">` +
      `<button type="button" class="fs-chat-signin-button">${escapeHtml(liteWord(language, 'chat.widget.signInAnonymous'))}</button></div>`
    );
  }

  protected named(profile: LiteProfile | null, language: 'en' | 'cs'): void {
    const button = this.shadow.querySelector('button');
    // An unknown creator: the React widget says so.
    if (!profile) this.upgrade();
    else if (button) button.textContent = liteWord(language, 'chat.widget.signIn', profile.displayName.trim() || profile.username);
  }
}

export const define = defineLite(tag, ChatElement);
