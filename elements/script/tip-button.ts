/**
 * The script tag's `<fanstage-tip-button>`: the button without React, a few kilobytes, drawn
 * with the React button's own markup, styles and words (`TipButton.module.css`, the theme
 * tokens, `tip.button` and `tip.buttonName` of both languages). The dialog with everything
 * behind it (./tip-button-full.ts: React, the SDK, the gift picker, the top-up) takes over on
 * the first sign of intent (./lite.ts); a click that came first opens the dialog once it is there.
 */
import tokensCss from '../../lib/ui/theme/tokens.css?inline';
import tipButtonCss from '../../lib/ui/TipButton/TipButton.module.css?inline';
import styles from '../../lib/ui/TipButton/TipButton.module.css';
import { defineLite, escapeHtml, LiteElement, profileOf, type LiteContext, wordsOf, type LiteWords } from './lite';

/** elements/tip-button.ts `tipButtonTag`, spelled out: importing it would bring React along. */
const tag = 'fanstage-tip-button';


/** The strings this view shows (vite.embed.config.ts `liteWordKeys.TIP`). */
declare const __FANSTAGE_LITE_WORDS_TIP__: LiteWords;
const liteWord = wordsOf(() => __FANSTAGE_LITE_WORDS_TIP__);

const css = `${tokensCss}\n${tipButtonCss}`;

/** lib/ui/TipButton/TipButton.tsx's gift icon. */
const icon = `<svg class="${styles.icon}" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M20 7h-2.2A3 3 0 0 0 12 4.8 3 3 0 0 0 6.2 7H4a1 1 0 0 0-1 1v3a1 1 0 0 0 1 1h1v7a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-7h1a1 1 0 0 0 1-1V8a1 1 0 0 0-1-1Zm-5-1a1 1 0 1 1 0 2h-2a2 2 0 0 1 2-2Zm-6 0a2 2 0 0 1 2 2H9a1 1 0 1 1 0-2Zm-4 3h6v1H5Zm2 3h4v6H7Zm10 6h-4v-6h4Zm2-8h-6V9h6Z"/></svg>`;

/**
 * The button at once, so the element has its final box before the creator's name arrives; the
 * name (visually hidden, part of the button's accessible name as in the React button) is filled
 * in when it does. An unknown creator gets no button, as in React.
 */
class TipButtonElement extends LiteElement {
  protected readonly creatorAttribute = 'creator';
  protected readonly css = css;

  protected full() {
    return import('./tip-button-full');
  }

  protected markup(language: 'en' | 'cs'): string {
    return (
      `<span class="fs-root ${styles.root}" lang="${language}">` +
      `<button type="button" class="${styles.button}" aria-haspopup="dialog" data-fs-click='button[aria-haspopup="dialog"]'>${icon}<span>${escapeHtml(liteWord(language, 'tip.button'))}</span> ` +
      `<span class="${styles.visuallyHidden}" data-fs-name=""></span></button>` +
      `<span class="${styles.visuallyHidden}" role="status"></span></span>`
    );
  }

  protected async fill({ serial, username, base, language }: LiteContext): Promise<void> {
    const profile = await profileOf(base, username, language);
    if (!this.current(serial)) return;
    this.profile = profile;
    const name = this.shadow.querySelector('[data-fs-name]');
    if (!profile) this.view?.replaceChildren();
    else if (name) name.textContent = liteWord(language, 'tip.buttonName', { name: profile.displayName.trim() || profile.username });
  }
}

export const define = defineLite(tag, TipButtonElement);
