/**
 * The script tag's `<fanstage-call>`: the call button without React — "Call · $1.60/min" from
 * the creator's price and the platform's settings — with the React button's markup, styles and
 * words (lib/ui/CallButton). The call (./call-full.ts: React, the SDK, the call window,
 * simple-peer on demand) takes over on the first sign of intent (./lite.ts); a click that came
 * first rings (or asks the visitor to sign in) once it is there. A creator who takes no calls
 * gets no button, as in React.
 */
import tokensCss from '../../lib/ui/theme/tokens.css?inline';
import callButtonCss from '../../lib/ui/CallButton/CallButton.module.css?inline';
import styles from '../../lib/ui/CallButton/CallButton.module.css';
import { formatPrice } from '../../lib/sdk/rules/price';
import { takesCalls } from '../../lib/sdk/rules/calls';
import { defineLite, escapeHtml, LiteElement, profileOf, settingsOf, type LiteContext, type LiteProfile, wordsOf, type LiteWords } from './lite';

/** elements/call.ts `callTag`, spelled out: importing it would bring React along. */
const tag = 'fanstage-call';


/** The strings this view shows (vite.embed.config.ts `liteWordKeys.CALL`). */
declare const __FANSTAGE_LITE_WORDS_CALL__: LiteWords;
const liteWord = wordsOf(() => __FANSTAGE_LITE_WORDS_CALL__);

const css = `${tokensCss}\n${callButtonCss}`;

const icon = `<svg class="${styles.icon}" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M4 6a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v3.2l3.4-2.3A1 1 0 0 1 22 7.7v8.6a1 1 0 0 1-1.6.8L17 14.8V18a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2Z"/></svg>`;

interface CallProfile extends LiteProfile {
  isSeller: boolean;
  level: number;
  callPrice: number;
}

/** The button takes its place at once; its words come with the creator's price. */
class CallElement extends LiteElement {
  protected readonly creatorAttribute = 'with';
  protected readonly css = css;
  protected override readonly upgradesOnSignIn = true;

  protected full() {
    return import('./call-full');
  }

  protected markup(): string {
    return '';
  }

  protected async fill({ serial, username, base, language }: LiteContext): Promise<void> {
    const [profile, settings] = await Promise.all([profileOf(base, username, language) as Promise<CallProfile | null>, settingsOf(base, language)]);
    if (!this.current(serial)) return;
    this.profile = profile;
    if (!profile) {
      // An unknown creator: the React widget says so.
      this.upgrade();
      return;
    }
    const view = this.view;
    if (!view || !takesCalls(profile)) return;
    const name = profile.displayName.trim() || profile.username;
    // lib/ui/CallButton/useCallButton.ts
    const price = settings ? formatPrice(profile.callPrice, settings.salt, '') : '';
    const label = profile.callPrice > 0 && price ? liteWord(language, 'calls.button', { price }) : liteWord(language, 'calls.buttonFree');
    view.innerHTML =
      `<span class="fs-root ${styles.root}" lang="${language}">` +
      `<button type="button" class="${styles.button}" aria-label="${escapeHtml(`${label} — ${liteWord(language, 'calls.buttonName', { name })}`)}" data-testid="call-button" data-fs-click='button[data-testid="call-button"]'>` +
      `${icon}<span>${escapeHtml(label)}</span></button></span>`;
  }
}

export const define = defineLite(tag, CallElement);
