import { createElement } from 'react';
import r2wc from '@r2wc/react-to-web-component';
import { FanstageProvider } from '../lib/ui/FanstageProvider';
import { TipButton } from '../lib/ui/TipButton/TipButton';
import tokensCss from '../lib/ui/theme/tokens.css?inline';
import tipButtonCss from '../lib/ui/TipButton/TipButton.module.css?inline';
import giftPickerCss from '../lib/ui/GiftPicker/GiftPicker.module.css?inline';
import walletTopUpCss from '../lib/ui/WalletTopUp/WalletTopUp.module.css?inline';
import dialogCss from '../lib/ui/dialog/Dialog.module.css?inline';
import { fanstageFor, resolveApiBase, resolveLanguage, signInFor } from './shared';
import { MissingCreator } from './MissingCreator';

export const tipButtonTag = 'fanstage-tip-button';

/** The element's attributes, as r2wc hands them over (`api-base` becomes `apiBase`). */
export interface TipButtonElementProps {
  /** The creator's username. */
  creator?: string;
  apiBase?: string;
  language?: string;
}

/** The button, the gift picker dialog and the top-up inside it, all in the shadow root. */
const css = [tokensCss, dialogCss, tipButtonCss, giftPickerCss, walletTopUpCss].join('\n');

/**
 * A tip button for a creator's own page: a fan signs in through the platform's popup, picks
 * a gift, buys credits when short (the card page opens in a popup, the page stays) and tips.
 */
function TipButtonWidget({ creator, apiBase, language }: TipButtonElementProps) {
  const base = resolveApiBase(apiBase);
  const lang = resolveLanguage(language);
  const username = creator?.trim().replace(/^@/, '') ?? '';
  const fanstage = fanstageFor(base, lang);
  return createElement(
    FanstageProvider,
    { fanstage, language: lang },
    createElement('style', null, css),
    username
      ? createElement(TipButton, {
          creator: username,
          paymentMode: 'popup',
          onLoginRequired: () => signInFor(base, fanstage),
        })
      : createElement(MissingCreator),
  );
}

let elementClass: CustomElementConstructor | undefined;

/** The `<fanstage-tip-button>` class, made on first use (needs `HTMLElement`). */
export function tipButtonElement(): CustomElementConstructor {
  elementClass ??= r2wc(TipButtonWidget, {
    shadow: 'open',
    props: { creator: 'string', apiBase: 'string', language: 'string' },
  });
  return elementClass;
}
