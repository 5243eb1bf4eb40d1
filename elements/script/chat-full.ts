/**
 * Everything behind the script tag's chat (./chat.ts): React, the SDK, the conversation and all
 * it may open, as the `<fanstage-chat>` of `fanstage/elements` renders them.
 */
import { chatWidget } from '../chat';
import { takeOver as takeOverWith, type LiteProfile, type Takeover } from './takeover';

export function takeOver(host: HTMLElement, root: ShadowRoot, profile: LiteProfile | null, onReady: () => void): Takeover {
  // The sign-in, the conversation, or what the widget says instead (an unknown creator).
  return takeOverWith(chatWidget, '.fs-chat-signin-button, .fs-chat-signin[role], [data-testid="chat-conversation"], p.fs-root[role="status"]', host, root, profile, onReady);
}
