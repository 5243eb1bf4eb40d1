/**
 * Pure rules of the paid chat (SPEC §4 read state and failed drafts, §5 chat validation, §6 the
 * chat price badge, §9 the 15-minute time gap). Nothing here touches the browser, so the server
 * may use the same rules.
 */
import { ChatLimits, type ChatFailure } from '../../contract/constants';

/**
 * Whether a message from the partner counts as unread: any message — but of call entries only
 * a missed call (docs/calls.md "In the chat"); a call that was talked, declined or cancelled
 * is known to both. The server counts the same way.
 */
export function countsAsUnread(message: { call?: { state: string } }): boolean {
  return message.call === undefined || message.call.state === 'missed';
}

/** SPEC §9: a time marker separates messages more than this far apart. */
export const CHAT_TIME_GAP_MS: number = ChatLimits.timeGapMs;

/** SPEC §3 level of support accounts: their chats are free and show no price badge (SPEC §6). */
export const SUPPORT_CHAT_LEVEL = 100;

/** SPEC §3 badgeVerifiedState of a verified creator. */
export const VERIFIED_BADGE_STATE = 3;

/**
 * Typing indicators (SPEC §3 chat event slots): a typist announces `typing` at most every
 * `announceEveryMs` while keys keep coming, and `stoptyping` after `idleMs` without a key (or
 * when the message is sent). The other side hides the indicator after `shownMs` with no news,
 * so a `stoptyping` lost with a dropped connection does not leave "typing…" up for good.
 */
export const typingTimings = { announceEveryMs: 3_000, idleMs: 5_000, shownMs: 7_000 } as const;

/** One row of a conversation as shown: a message, or a time marker before one. */
export type ChatRow<M> = { kind: 'gap'; at: number; key: string } | { kind: 'message'; message: M; key: string };

/**
 * Whether a time marker goes between two messages: the first message shown gets one (it
 * dates the conversation), and every message sent 15 minutes or more after the one before.
 * A clock that went backwards (a pending message stamped by a device behind the server)
 * is no gap.
 */
export function needsTimeGap(previousSendDt: number | null, sendDt: number, gapMs: number = CHAT_TIME_GAP_MS): boolean {
  if (previousSendDt === null) return true;
  return sendDt - previousSendDt >= gapMs;
}

/**
 * The rows of a conversation, oldest first, with time markers where SPEC §9 puts them.
 * `keyOf` names each message's row (React keys); a marker is keyed by the message it precedes,
 * so loading older pages does not re-key the markers already shown.
 */
export function withTimeGaps<M extends { sendDt: number }>(messages: readonly M[], keyOf: (message: M) => string, gapMs: number = CHAT_TIME_GAP_MS): ChatRow<M>[] {
  const rows: ChatRow<M>[] = [];
  let previous: number | null = null;
  for (const message of messages) {
    const key = keyOf(message);
    if (needsTimeGap(previous, message.sendDt, gapMs)) rows.push({ kind: 'gap', at: message.sendDt, key: `gap:${key}` });
    rows.push({ kind: 'message', message, key });
    previous = previous === null ? message.sendDt : Math.max(previous, message.sendDt);
  }
  return rows;
}

/**
 * SPEC §4 read state of a message the viewer sent: a clock while it is unsent, one check once
 * the server stored it, two checks when the partner's `lastReadDate` reached its `sendDt`;
 * `failed` for a draft the server refused or that could not leave.
 */
export type DeliveryState = 'sending' | 'sent' | 'read' | 'failed';

export function deliveryState(message: { sendDt: number; stored: boolean; failed?: boolean }, partnerLastReadDate: number | null): DeliveryState {
  if (message.failed) return 'failed';
  if (!message.stored) return 'sending';
  return partnerLastReadDate !== null && partnerLastReadDate >= message.sendDt ? 'read' : 'sent';
}

/** The websocket notices that refuse a chat message (lib/contract/realtime.ts), and what each means for the draft. */
export type ChatRefusal = 'notAcceptedPrice' | 'noCredit' | 'emailNotVerified' | 'error';

/** SPEC §4 failed draft states: a refusal as the state the draft shows. */
export function chatFailureOf(refusal: ChatRefusal): ChatFailure {
  switch (refusal) {
    case 'notAcceptedPrice':
      return 'not_delivered';
    case 'noCredit':
      return 'no_credit';
    case 'emailNotVerified':
      return 'waiting_for_email';
    case 'error':
      return 'not_delivered-general';
  }
}

/** What the price rules need of a person. */
export interface ChatPerson {
  level: number;
  isPartner: boolean;
  isSeller: boolean;
  badgeVerifiedState: number;
}

export function isSupportAccount(person: Pick<ChatPerson, 'level'> | null | undefined): boolean {
  return person?.level === SUPPORT_CHAT_LEVEL;
}

/**
 * SPEC §6 chat price badge on an opened chat, never in a support chat:
 * - `'seller'` when the viewer sells their messages: the badge shows this conversation's price
 *   and opens the custom price setting (SPEC §5: setting a chat price requires a seller);
 * - `'price'` when the partner is a partner, a seller or verified: the fan sees what one
 *   message costs before writing;
 * - null otherwise (two fans chat for free; nothing to show).
 */
export function chatPriceBadge(viewer: ChatPerson | null, partner: ChatPerson | null, isSupport: boolean): 'seller' | 'price' | null {
  if (isSupport || isSupportAccount(viewer) || isSupportAccount(partner)) return null;
  if (viewer?.isSeller) return 'seller';
  if (partner && (partner.isPartner || partner.isSeller || partner.badgeVerifiedState === VERIFIED_BADGE_STATE)) return 'price';
  return null;
}

/** SPEC §2 main layout: the chat aside's message price setting is offered to gender 2 profiles. */
export function offersMessagePriceSetting(viewer: { gender: number } | null | undefined): boolean {
  return viewer?.gender === 2;
}

/**
 * SPEC §5: "Cannot chat with self", and typing indicators need a receiver id above 0. Null
 * when a message may go to `receiverId`, else why not.
 */
export function chatRecipientProblem(viewerId: number | null, receiverId: number): 'no-recipient' | 'self' | null {
  if (!Number.isSafeInteger(receiverId) || receiverId <= 0) return 'no-recipient';
  if (viewerId !== null && viewerId === receiverId) return 'self';
  return null;
}

export interface ChatDraft {
  text?: string | undefined;
  mediaId?: number | null | undefined;
  giftId?: number | null | undefined;
}

/**
 * Whether a draft may be sent: some text, a media or a gift, and text no longer than the
 * contract allows. Null when it may, else why not (`empty`, `too-long`).
 */
export function chatDraftProblem(draft: ChatDraft): 'empty' | 'too-long' | null {
  const text = draft.text?.trim() ?? '';
  if (text.length > ChatLimits.maxTextLength) return 'too-long';
  if (text === '' && !draft.mediaId && !draft.giftId) return 'empty';
  return null;
}

/**
 * The reactions a message can get (`reactionId` of `chatReaction`), in the order the picker
 * shows them. The symbol is what the message shows; `name` is a translation key under
 * `chat.reaction.*`, for screen readers and tooltips.
 */
export const chatReactions = [
  { id: 1, symbol: '❤️', name: 'love' },
  { id: 2, symbol: '😂', name: 'laugh' },
  { id: 3, symbol: '😮', name: 'wow' },
  { id: 4, symbol: '😢', name: 'sad' },
  { id: 5, symbol: '🔥', name: 'fire' },
  { id: 6, symbol: '👍', name: 'like' },
] as const;

export type ChatReaction = (typeof chatReactions)[number];

export function chatReactionOf(id: number | null | undefined): ChatReaction | null {
  return chatReactions.find((reaction) => reaction.id === id) ?? null;
}
