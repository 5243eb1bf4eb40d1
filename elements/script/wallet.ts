/**
 * The script tag's `<fanstage-wallet>`: what a visitor sees first, the sign-in button, without
 * React, with the React wallet's markup, styles and words (elements/wallet.ts, `wallet.signIn`).
 * The wallet (./wallet-full.ts) takes over on the first sign of intent, or at once for a fan
 * this tab has a session for (./lite.ts); a click that came first signs in once it is there.
 */
import tokensCss from '../../lib/ui/theme/tokens.css?inline';
import walletTopUpCss from '../../lib/ui/WalletTopUp/WalletTopUp.module.css?inline';
import styles from '../../lib/ui/WalletTopUp/WalletTopUp.module.css';
import { defineLite, escapeHtml, LiteElement, wordsOf, type LiteWords } from './lite';

/** elements/wallet.ts `walletTag`, spelled out: importing it would bring React along. */
const tag = 'fanstage-wallet';


/** The strings this view shows (vite.embed.config.ts `liteWordKeys.WALLET`). */
declare const __FANSTAGE_LITE_WORDS_WALLET__: LiteWords;
const liteWord = wordsOf(() => __FANSTAGE_LITE_WORDS_WALLET__);

const css = `${tokensCss}\n${walletTopUpCss}`;

class WalletElement extends LiteElement {
  protected readonly creatorAttribute = null;
  protected readonly css = css;
  protected override readonly upgradesOnSignIn = true;

  protected full() {
    return import('./wallet-full');
  }

  protected markup(language: 'en' | 'cs'): string {
    return (
      `<div class="fs-root ${styles.root}" lang="${language}">` +
      `<button type="button" class="${styles.pay}" data-fs-click="button.${styles.pay}">${escapeHtml(liteWord(language, 'wallet.signIn'))}</button></div>`
    );
  }

  protected fill(): void {
    // A visitor's wallet tells nothing that needs the API.
  }
}

export const define = defineLite(tag, WalletElement);
