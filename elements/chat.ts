import { createElement, useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { useFanstage } from '../lib/ui/FanstageProvider/context';
import { ChatConversation } from '../lib/ui/ChatConversation/ChatConversation';
import { ChatComposer } from '../lib/ui/ChatComposer/ChatComposer';
import { ChatPriceBadge } from '../lib/ui/ChatPriceBadge/ChatPriceBadge';
import { useChatPartner } from '../lib/ui/ChatPanel/useChatPanel';
import tokensCss from '../lib/ui/theme/tokens.css?inline';
import conversationCss from '../lib/ui/ChatConversation/ChatConversation.module.css?inline';
import composerCss from '../lib/ui/ChatComposer/ChatComposer.module.css?inline';
import priceBadgeCss from '../lib/ui/ChatPriceBadge/ChatPriceBadge.module.css?inline';
import moneyDialogCss from '../lib/ui/PriceDetail/moneyDialog.module.css?inline';
import dialogCss from '../lib/ui/dialog/Dialog.module.css?inline';
import giftPickerCss from '../lib/ui/GiftPicker/GiftPicker.module.css?inline';
import walletTopUpCss from '../lib/ui/WalletTopUp/WalletTopUp.module.css?inline';
import priceSelectorCss from '../lib/ui/PriceSelector/PriceSelector.module.css?inline';
import uploadErrorCss from '../lib/ui/UploadError/UploadError.module.css?inline';
import verifyEmailCss from '../lib/ui/VerifyEmailNotice/VerifyEmailNotice.module.css?inline';
import formPartsCss from '../lib/ui/shared/formParts.module.css?inline';
import composerStyles from '../lib/ui/ChatComposer/ChatComposer.module.css';
import { profileHref, signInFor } from './shared';
import { usernameOf } from './base';
import { widgetElement, type WidgetSpec } from './widget';
import { MissingCreator } from './MissingCreator';
import { chatSignInCss } from './chatSignInCss';

export const chatTag = 'fanstage-chat';

/** Why the widget's live connection stopped, as the `realtimefailed` event's `detail`. */
export interface ChatRealtimeFailure {
  code: string;
}

/** The element's attributes, as props (`api-base` becomes `apiBase`). */
export interface ChatElementProps {
  /** The creator to chat with, by username. */
  with?: string;
  apiBase?: string;
  language?: string;
  /** Dispatched on the element as `realtimefailed` when the widget's socket gives up. */
  onRealtimeFailed?: (detail: ChatRealtimeFailure) => void;
}

/**
 * The conversation and everything it may open (top-up, unlock, gifts, prices, upload errors,
 * the e-mail verification), inside the shadow root. The element is 512px high unless the page
 * gives it another height; the conversation fills it and scrolls inside.
 */
const css = [
  tokensCss,
  conversationCss,
  composerCss,
  priceBadgeCss,
  moneyDialogCss,
  dialogCss,
  giftPickerCss,
  walletTopUpCss,
  priceSelectorCss,
  uploadErrorCss,
  formPartsCss,
  verifyEmailCss,
  chatSignInCss,
].join('\n');

function SignIn({ name, onSignIn }: { name: string; onSignIn: () => Promise<boolean> }) {
  const { t, i18n } = useTranslation();
  const [failed, setFailed] = useState(false);
  return createElement(
    'div',
    { className: 'fs-root fs-chat-signin', lang: i18n.resolvedLanguage ?? i18n.language },
    createElement(
      'button',
      {
        type: 'button',
        className: 'fs-chat-signin-button',
        onClick: () => {
          setFailed(false);
          onSignIn().catch(() => setFailed(true));
        },
      },
      name ? t('chat.widget.signIn', { name }) : t('chat.widget.signInAnonymous'),
    ),
    failed ? createElement('p', { role: 'alert', className: composerStyles.alert }, t('chat.widget.signInFailed')) : null,
  );
}

/**
 * A fan on a creator's own page: signed in through the platform's popup, then chatting with
 * that creator. The widget's socket gives up after its attempts (widget mode) and the page
 * hears of it.
 */
function ChatWidgetBody({ username, base, onRealtimeFailed }: { username: string; base: string; onRealtimeFailed?: ChatElementProps['onRealtimeFailed'] }) {
  useSignals();
  const fanstage = useFanstage();
  const partner = useChatPartner(username);
  const loggedIn = fanstage.session.isLoggedIn.value;
  const state = fanstage.socket.connectedState.value;

  useEffect(() => {
    if (state === 'failed') onRealtimeFailed?.({ code: fanstage.socket.lastError.peek() ?? 'gave-up' });
  }, [state, fanstage, onRealtimeFailed]);

  const name = partner.profile ? partner.profile.displayName.trim() || partner.profile.username : '';
  if (!loggedIn) return createElement(SignIn, { name, onSignIn: () => signInFor(base, fanstage) });
  if (partner.userId === null) return createElement('p', { className: 'fs-root fs-chat-signin', role: partner.missing ? 'alert' : 'status' }, partner.statusText);
  return createElement(
    ChatConversation,
    {
      userId: partner.userId,
      headerExtra: createElement(ChatPriceBadge, { userId: partner.userId }),
      profileHref: profileHref(base, username),
      paymentMode: 'popup',
    },
    createElement(ChatComposer, { userId: partner.userId }),
  );
}

export const chatWidget: WidgetSpec<ChatElementProps> = {
  attributes: ['with'],
  events: { onRealtimeFailed: { bubbles: true, composed: true } },
  css,
  render(props, { base }) {
    const username = usernameOf(props.with);
    if (!username) return createElement(MissingCreator);
    return createElement(ChatWidgetBody, { username, base, ...(props.onRealtimeFailed ? { onRealtimeFailed: props.onRealtimeFailed } : {}) });
  },
};

let elementClass: CustomElementConstructor | undefined;

/** The `<fanstage-chat>` class, made on first use (needs `HTMLElement`). */
export function chatElement(): CustomElementConstructor {
  elementClass ??= widgetElement(chatWidget);
  return elementClass;
}
