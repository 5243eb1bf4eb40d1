import { createElement } from 'react';
import { TipButton } from '../lib/ui/TipButton/TipButton';
import tokensCss from '../lib/ui/theme/tokens.css?inline';
import tipButtonCss from '../lib/ui/TipButton/TipButton.module.css?inline';
import giftPickerCss from '../lib/ui/GiftPicker/GiftPicker.module.css?inline';
import walletTopUpCss from '../lib/ui/WalletTopUp/WalletTopUp.module.css?inline';
import dialogCss from '../lib/ui/dialog/Dialog.module.css?inline';
import { signInFor } from './shared';
import { usernameOf } from './base';
import { widgetElement, type WidgetSpec } from './widget';
import { MissingCreator } from './MissingCreator';

export const tipButtonTag = 'fanstage-tip-button';

/** The element's attributes, as props (`api-base` becomes `apiBase`). */
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
export const tipButtonWidget: WidgetSpec<TipButtonElementProps> = {
  attributes: ['creator'],
  css,
  render({ creator }, { base, fanstage }) {
    const username = usernameOf(creator);
    if (!username) return createElement(MissingCreator);
    return createElement(TipButton, { creator: username, paymentMode: 'popup', onLoginRequired: () => signInFor(base, fanstage) });
  },
};

let elementClass: CustomElementConstructor | undefined;

/** The `<fanstage-tip-button>` class, made on first use (needs `HTMLElement`). */
export function tipButtonElement(): CustomElementConstructor {
  elementClass ??= widgetElement(tipButtonWidget);
  return elementClass;
}
