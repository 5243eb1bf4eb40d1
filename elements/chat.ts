import { createElement, useEffect, useState } from 'react';
import r2wc from '@r2wc/react-to-web-component';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { FanstageProvider } from '../lib/ui/FanstageProvider';
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
import formPartsCss from '../lib/ui/LoginForm/formParts.module.css?inline';
import composerStyles from '../lib/ui/ChatComposer/ChatComposer.module.css';
import { fanstageFor, profileHref, resolveApiBase, resolveLanguage, signInFor } from './shared';
import { MissingCreator } from './MissingCreator';

export const chatTag = 'fanstage-chat';

/** Why the widget's live connection stopped, as the `realtimefailed` event's `detail`. */
export interface ChatRealtimeFailure {
  code: string;
}

/** The element's attributes, as r2wc hands them over (`api-base` becomes `apiBase`). */
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
 * the e-mail verification), inside the shadow root. The element is 32rem high unless the page
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
  ':host { height: 32rem; }',
  '.fs-chat-signin { display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 0.75rem; height: 100%; padding: var(--_fs-space); text-align: center; background: var(--_fs-color-surface); }',
  '.fs-chat-signin-button { min-height: 2.75rem; padding: 0 1.1rem; font: inherit; font-weight: var(--_fs-font-weight-bold); color: var(--_fs-color-on-accent); background: var(--_fs-color-accent); border: 0; border-radius: 999px; cursor: pointer; }',
  '.fs-chat-signin-button:focus-visible { outline: 3px solid var(--_fs-color-focus); outline-offset: 2px; }',
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

function ChatWidget(props: ChatElementProps) {
  const base = resolveApiBase(props.apiBase);
  const lang = resolveLanguage(props.language);
  const username = props.with?.trim().replace(/^@/, '') ?? '';
  const fanstage = fanstageFor(base, lang);
  return createElement(
    FanstageProvider,
    { fanstage, language: lang },
    createElement('style', null, css),
    username ? createElement(ChatWidgetBody, { username, base, ...(props.onRealtimeFailed ? { onRealtimeFailed: props.onRealtimeFailed } : {}) }) : createElement(MissingCreator),
  );
}

let elementClass: CustomElementConstructor | undefined;

/** The `<fanstage-chat>` class, made on first use (needs `HTMLElement`). */
export function chatElement(): CustomElementConstructor {
  elementClass ??= r2wc(ChatWidget, {
    shadow: 'open',
    props: { with: 'string', apiBase: 'string', language: 'string' },
    events: { onRealtimeFailed: { bubbles: true, composed: true } },
  });
  return elementClass;
}
