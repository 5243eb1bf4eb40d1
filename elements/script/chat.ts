/**
 * The script tag's `<fanstage-chat>`: what a visitor sees first, the sign-in button naming the
 * creator, without React, drawn with the React widget's own markup, styles and words
 * (`chat.widget.signIn*`). The conversation with everything behind it (./chat-full.ts) takes
 * over on the first sign of intent, or at once for a fan this tab has a session for
 * (./lite.ts); a click on the sign-in button opens the sign-in once it has loaded.
 */
import tokensCss from '../../lib/ui/theme/tokens.css?inline';
import { chatSignInCss } from '../chatSignInCss';
import { defineLite, escapeHtml, LiteElement, profileOf, type LiteContext, wordsOf, type LiteWords } from './lite';

/** elements/chat.ts `chatTag`, spelled out: importing it would bring React along. */
const tag = 'fanstage-chat';


/** The strings this view shows (vite.embed.config.ts `liteWordKeys.CHAT`). */
declare const __FANSTAGE_LITE_WORDS_CHAT__: LiteWords;
const liteWord = wordsOf(() => __FANSTAGE_LITE_WORDS_CHAT__);

const css = `${tokensCss}\n${chatSignInCss}`;

class ChatElement extends LiteElement {
  protected readonly creatorAttribute = 'with';
  protected readonly css = css;
  protected override readonly upgradesOnSignIn = true;

  protected full() {
    return import('./chat-full');
  }

  protected markup(language: 'en' | 'cs'): string {
    return (
      `<div class="fs-root fs-chat-signin" lang="${language}">` +
      `<button type="button" class="fs-chat-signin-button" data-fs-click=".fs-chat-signin-button">${escapeHtml(liteWord(language, 'chat.widget.signInAnonymous'))}</button></div>`
    );
  }

  protected async fill({ serial, username, base, language }: LiteContext): Promise<void> {
    const profile = await profileOf(base, username, language);
    if (!this.current(serial)) return;
    this.profile = profile;
    const button = this.shadow.querySelector('button');
    // An unknown creator: the React widget says so.
    if (!profile) this.upgrade();
    else if (button) button.textContent = liteWord(language, 'chat.widget.signIn', { name: profile.displayName.trim() || profile.username });
  }
}

export const define = defineLite(tag, ChatElement);
