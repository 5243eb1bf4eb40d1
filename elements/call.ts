import { createElement, useEffect, useRef } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useFanstage } from '../lib/ui/FanstageProvider/context';
import { CallButton } from '../lib/ui/CallButton/CallButton';
import { CallWindow } from '../lib/ui/CallWindow/CallWindow';
import type { CallEndReason } from '../lib/sdk';
import tokensCss from '../lib/ui/theme/tokens.css?inline';
import callButtonCss from '../lib/ui/CallButton/CallButton.module.css?inline';
import callWindowCss from '../lib/ui/CallWindow/CallWindow.module.css?inline';
import dialogCss from '../lib/ui/dialog/Dialog.module.css?inline';
import giftPickerCss from '../lib/ui/GiftPicker/GiftPicker.module.css?inline';
import walletTopUpCss from '../lib/ui/WalletTopUp/WalletTopUp.module.css?inline';
import { signInFor } from './shared';
import { usernameOf } from './base';
import { widgetElement, type WidgetSpec } from './widget';
import { MissingCreator } from './MissingCreator';

export const callTag = 'fanstage-call';

/** What the `callended` event tells the page (`detail`). */
export interface CallEndedDetail {
  callId: string;
  reason: CallEndReason | null;
  minutes: number;
}

/** The element's attributes, as props (`api-base` becomes `apiBase`). */
export interface CallElementProps {
  /** The creator to call, by username. */
  with?: string;
  apiBase?: string;
  language?: string;
  /** Dispatched on the element as `callended` when a call of the widget ends. */
  onCallEnded?: (detail: CallEndedDetail) => void;
}

/**
 * The call button, then the call window in its place, with the top-up and the gift picker, in
 * the shadow root. The host page must let the widget use the camera and microphone: a secure
 * (https) page, and `allow="camera; microphone"` on an iframe holding it (docs/embedding.md).
 */
const css = [
  tokensCss,
  dialogCss,
  callButtonCss,
  callWindowCss,
  giftPickerCss,
  walletTopUpCss,
  ':host { display: block; }',
].join('\n');

/**
 * A fan on a creator's own page calls that creator: signs in through the platform's popup,
 * buys credits in the platform's card popup when short, and the call shows where the button was.
 */
function CallWidgetBody({ username, base, onCallEnded }: { username: string; base: string; onCallEnded?: CallElementProps['onCallEnded'] }) {
  useSignals();
  const fanstage = useFanstage();
  const call = fanstage.calls.current.value;
  const reported = useRef<string | null>(null);

  useEffect(() => {
    if (!call || call.phase !== 'ended' || reported.current === call.callId) return;
    reported.current = call.callId;
    onCallEnded?.({ callId: call.callId, reason: call.endReason, minutes: call.totals?.minutes ?? 0 });
  }, [call, onCallEnded]);

  // This widget shows the fan's own outgoing call; a call that rings the viewer belongs to the platform's site.
  if (call && call.direction === 'outgoing') return createElement(CallWindow, { headingLevel: 2 });
  return createElement(CallButton, { creator: username, paymentMode: 'popup', onLoginRequired: () => signInFor(base, fanstage) });
}

export const callWidget: WidgetSpec<CallElementProps> = {
  attributes: ['with'],
  events: { onCallEnded: { bubbles: true, composed: true } },
  css,
  render(props, { base }) {
    const username = usernameOf(props.with);
    if (!username) return createElement(MissingCreator);
    return createElement(CallWidgetBody, { username, base, ...(props.onCallEnded ? { onCallEnded: props.onCallEnded } : {}) });
  },
};

let elementClass: CustomElementConstructor | undefined;

/** The `<fanstage-call>` class, made on first use (needs `HTMLElement`). */
export function callElement(): CustomElementConstructor {
  elementClass ??= widgetElement(callWidget);
  return elementClass;
}
