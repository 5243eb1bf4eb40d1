/**
 * Everything behind the script tag's chat (./chat.ts): React, the SDK, the conversation and all
 * it may open, as the `<fanstage-chat>` of `fanstage/elements` renders them.
 */
import { chatWidget } from '../chat';
import { takeOver as takeOverWith, type LiteProfile, type Takeover } from './takeover';

export function takeOver(host: HTMLElement, root: ShadowRoot, profile: LiteProfile | null): Takeover {
  return takeOverWith(chatWidget, 'button.fs-chat-signin-button', host, root, profile);
}
