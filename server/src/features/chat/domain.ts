import { ChatLimits, MassGroups, type MassGroupName } from '../../../../lib/contract/constants';
import type { ErrorKey } from '../../../../lib/contract/errors';
import { Int32 } from '../../../../lib/contract/bounds';
import { ChatCallStates, type ChatCall, type ChatCallState, type ChatMessage } from '../../../../lib/contract/chat';
import type { CallEndReason } from '../../../../lib/contract/calls';
import { isPriceStep } from '../../../../lib/contract/rules/price';

/**
 * The rules of paid chat, as pure functions (docs/realtime.md "Chat"). The service reads the
 * rows, these decide.
 */

/** SPEC §9: conversations and chat history come 30 a page. */
export const chatPageSize = ChatLimits.pageSize;

/** `resume` covers at most this many positions; with `more` the client resumes again after `last`. */
export const resumeLimit = 1_000;

/** Reactions are the client's own small catalogue; the server only keeps their numbers. */
export const maxReactionId = 1_000;

/**
 * The sender's id of a message: a UUID, hex or any short token of letters, digits, `_`, `-`,
 * `.` and `:`. `/` is left out on purpose: the copies of a mass message are stored as
 * `<msgId>/<receiverId>`, which can then never meet an id a client chose.
 */
const msgIdPattern = /^[A-Za-z0-9_.:-]{1,64}$/;

export function isMsgId(value: unknown): value is string {
  return typeof value === 'string' && msgIdPattern.test(value);
}

/** The copy of mass message `msgId` that receiver `r` gets has the msgId `<msgId>/<r>`. */
export const massCopySeparator = '/';

/** SPEC §6: support (100) and admins (500) are staff; a conversation with staff is free and never suspected. */
export function isStaff(level: number): boolean {
  return level >= 100;
}

export interface PricedSide {
  level: number;
  isSeller: boolean;
  messagePrice: number;
}

/**
 * What one message from `sender` to `receiver` costs (stored cents, before the salt): the
 * receiver's custom price for this sender, else their usual message price — only when the
 * receiver is a seller and neither side is staff. A seller writing to a fan writes for free
 * because the fan is no seller.
 */
export function conversationPrice(sender: PricedSide, receiver: PricedSide, receiverCustomPrice: number | null): number {
  if (isStaff(sender.level) || isStaff(receiver.level) || !receiver.isSeller) return 0;
  return Math.max(0, receiverCustomPrice ?? receiver.messagePrice);
}

/**
 * The price check of a message: the sender accepts `accepted` cents (what their client showed);
 * a higher current price refuses the message (`notAcceptedPrice`), anything up to it is charged
 * at the current price.
 */
export function acceptsPrice(current: number, accepted: number | undefined): boolean {
  return current <= (accepted ?? 0);
}

/** Why a seller's custom price for one conversation is refused (PUT /api/chat/conversations/). */
export function customPriceProblem(isSeller: boolean, customPrice: number | null): 'verify-required' | 'invalid-price' | null {
  if (!isSeller) return 'verify-required';
  if (customPrice !== null && !isPriceStep('chatMessage', customPrice)) return 'invalid-price';
  return null;
}

/**
 * The suspected rule (SPEC §4 "a suspected chat is marked 24 h"): a message that tries to take
 * the conversation off the platform — it holds an e-mail address, a phone number or a link (a
 * scheme, `www.`, or a name ending in a common top-level domain) — in a conversation where one
 * side is a seller and neither side is staff.
 */
const emailPattern = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
/** A run of digits with spaces, dots, dashes and brackets between them, maybe after a `+`. */
const digitRunPattern = /(?:\+|\b)\d(?:[\s.\-()]{0,2}\d)*/g;
const linkPattern = /\b(?:https?:\/\/|www\.)\S+|\b[A-Za-z0-9-]+\.(?:com|net|org|io|me|co|cz|sk|de|uk|info|biz|app|link|ly|gg|tv|xyz|site|online)\b/i;

/**
 * A phone number: 7 to 15 digits (E.164 has at most 15). Not one: a longer number (an order or
 * card number), a round amount (`1 000 000`, `2500000`), or a bare run of fewer than nine digits
 * written without a `+` or separators (a count, a code), where national numbers have nine or more.
 */
function holdsPhoneNumber(text: string): boolean {
  for (const [run] of text.matchAll(digitRunPattern)) {
    const digits = run.replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15) continue;
    const international = run.startsWith('+');
    if (!international && digits.endsWith('000')) continue;
    if (!international && digits.length < 9 && run === digits) continue;
    return true;
  }
  return false;
}

export function looksOffPlatform(text: string): boolean {
  return emailPattern.test(text) || holdsPhoneNumber(text) || linkPattern.test(text);
}

export function isSuspected(text: string, sender: PricedSide, receiver: PricedSide): boolean {
  if (isStaff(sender.level) || isStaff(receiver.level)) return false;
  if (!sender.isSeller && !receiver.isSeller) return false;
  return looksOffPlatform(text);
}

/** SPEC §4: the mark lasts 24 h from the message. */
export function suspectedUntil(sentAt: number): number {
  return sentAt + ChatLimits.suspectedMs;
}

/** The `suspectedState` a viewer sees at `now`. */
export function suspectedStateAt(until: Date | null, now: number): 0 | 1 {
  return until !== null && until.getTime() > now ? 1 : 0;
}

/** Text as stored: surrounding blank space dropped, line ends made one kind. */
export function normaliseChatText(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

/** A refusal of a client message with the key the socket answers (`error`). */
export interface Problem {
  problem: ErrorKey;
  field?: string;
}

type Parsed<T> = { value: T } | Problem;

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= 2_147_483_647;
}

const optional = (value: unknown) => value === undefined || value === null;

/** Text of a message: absent means empty; too long refuses with message-too-long. */
function parseText(value: unknown): Parsed<string> {
  if (optional(value)) return { value: '' };
  if (typeof value !== 'string') return { problem: 'invalid-request', field: 'text' };
  const text = normaliseChatText(value);
  if ([...text].length > ChatLimits.maxTextLength) return { problem: 'message-too-long', field: 'text' };
  return { value: text };
}

/** Why a message the client sent was not stored: the client marks it failed (SPEC §4 failed draft states). */
export type ChatRefusalEvent = 'notAcceptedPrice' | 'noCredit' | 'emailNotVerified';

export type SendOutcome =
  | { stored: ChatMessage; replayed: boolean }
  | { refused: ChatRefusalEvent; receiverId: number; data: { msgId: string; price?: number } };

export interface ChatMessageInput {
  msgId: string;
  receiverId: number;
  text: string;
  mediaId: number | null;
  giftId: number | null;
  /** The price the sender accepts (stored cents); absent means they expect a free message. */
  price: number | undefined;
  /** From a widget: the spend request the fan confirmed for this message (docs/spending.md). */
  confirmation: string | null;
}

/** A `chatMessage` from a client; an empty one (no text, media or gift) is invalid. */
export function parseChatMessage(fields: Record<string, unknown>): Parsed<ChatMessageInput> {
  if (!isMsgId(fields.msgId)) return { problem: 'invalid-request', field: 'msgId' };
  if (!isId(fields.receiverId)) return { problem: 'invalid-request', field: 'receiverId' };
  const text = parseText(fields.text);
  if ('problem' in text) return text;
  if (!optional(fields.mediaId) && !isId(fields.mediaId)) return { problem: 'invalid-request', field: 'mediaId' };
  if (!optional(fields.giftId) && !isId(fields.giftId)) return { problem: 'invalid-request', field: 'giftId' };
  const price = fields.price;
  if (!optional(price) && !(typeof price === 'number' && Number.isSafeInteger(price) && price >= 0 && price <= Int32.max)) return { problem: 'invalid-request', field: 'price' };
  const mediaId = isId(fields.mediaId) ? fields.mediaId : null;
  const giftId = isId(fields.giftId) ? fields.giftId : null;
  if (text.value === '' && mediaId === null && giftId === null) return { problem: 'invalid-request', field: 'text' };
  const confirmation = fields.confirmation;
  if (!optional(confirmation) && !(typeof confirmation === 'string' && /^[A-Za-z0-9_-]{16,32}$/.test(confirmation))) return { problem: 'invalid-request', field: 'confirmation' };
  return {
    value: {
      msgId: fields.msgId,
      receiverId: fields.receiverId,
      text: text.value,
      mediaId,
      giftId,
      price: typeof price === 'number' ? price : undefined,
      confirmation: typeof confirmation === 'string' ? confirmation : null,
    },
  };
}

export interface MassMessageInput {
  msgId: string;
  recGroup: MassGroupName;
  text: string;
  mediaId: number | null;
}

/** A `massChatMessage`; `senderId`, when sent, must be the sender's own id. */
export function parseMassMessage(fields: Record<string, unknown>, senderId: number): Parsed<MassMessageInput> {
  if (!isMsgId(fields.msgId)) return { problem: 'invalid-request', field: 'msgId' };
  if (!optional(fields.senderId) && fields.senderId !== senderId) return { problem: 'forbidden', field: 'senderId' };
  if (typeof fields.recGroup !== 'string' || !(MassGroups as readonly string[]).includes(fields.recGroup)) return { problem: 'invalid-request', field: 'recGroup' };
  const text = parseText(fields.text);
  if ('problem' in text) return text;
  if (!optional(fields.mediaId) && !isId(fields.mediaId)) return { problem: 'invalid-request', field: 'mediaId' };
  const mediaId = isId(fields.mediaId) ? fields.mediaId : null;
  if (text.value === '' && mediaId === null) return { problem: 'invalid-request', field: 'text' };
  return { value: { msgId: fields.msgId, recGroup: fields.recGroup as MassGroupName, text: text.value, mediaId } };
}

/** A `chatReaction`: a message id and a reaction number, or null to take one's reaction back. */
export function parseReaction(fields: Record<string, unknown>): Parsed<{ messageId: number; reactionId: number | null }> {
  if (!isId(fields.messageId)) return { problem: 'invalid-request', field: 'messageId' };
  const reactionId = fields.reactionId;
  if (reactionId === null || reactionId === undefined) return { value: { messageId: fields.messageId, reactionId: null } };
  if (!isId(reactionId) || reactionId > maxReactionId) return { problem: 'invalid-request', field: 'reactionId' };
  return { value: { messageId: fields.messageId, reactionId } };
}

/** A message naming one user in `field` (chatConvRead's userId, profileVisit's profileUserId). */
export function parseUserField(fields: Record<string, unknown>, field: string): Parsed<number> {
  const value = fields[field];
  return isId(value) ? { value } : { problem: 'invalid-request', field };
}

/**
 * `resume {after}`: a position in the user's chat stream (0 asks from the start, bounded by
 * `resumeLimit`). Required: a client of the older protocol (`afterId`, a message id) is told
 * `invalid-request` rather than being sent its whole history as if it had asked from 0.
 */
export function parseResume(fields: Record<string, unknown>): Parsed<number> {
  const value = fields.after;
  // Positions are int4 in the database; a larger cursor would make the query itself fail.
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= Int32.max ? { value } : { problem: 'invalid-request', field: 'after' };
}

/** A call entry's msgId, `call/<callId>`: a `/` no client msgId holds, so it never meets one. */
export const callEntryMsgId = (callId: string) => `call${massCopySeparator}${callId}`;

/**
 * Whether a call that ended in `state` leaves an entry in the pair's chat history: a call
 * that was live and ended, or one that rang and was missed, declined or cancelled. A call
 * refused at once (busy, noCredit at the offer) rang nobody; one that failed or found the
 * fan's wallet empty as it was accepted never became a conversation: they leave none.
 */
export function leavesCallEntry(state: string): state is ChatCallState {
  return (ChatCallStates as readonly string[]).includes(state);
}

/**
 * Whether a call entry counts as unread for its receiver (the callee; the caller sent it, so
 * never for them): only a missed call — somebody rang and nobody answered. A call that was
 * talked, declined or cancelled is something both people already know of.
 */
export function callEntryIsUnread(state: string): boolean {
  return state === 'missed';
}

/** The call's row as much of it as an entry shows. */
export interface CallEntrySource {
  id: string;
  callerId: number;
  calleeId: number;
  state: string;
  endReason: string | null;
  minutes: number;
  cost: number;
  earnings: number;
  startedAt: Date | null;
  endedAt: Date | null;
}

/**
 * A call entry as `viewerId` sees it: the caller what the call cost (credits), the callee
 * what it earned (cents), nobody else anything. `seconds` is how long it was live.
 */
export function callEntryView(call: CallEntrySource, viewerId: number): ChatCall {
  const seconds = call.startedAt !== null && call.endedAt !== null ? Math.max(0, Math.floor((call.endedAt.getTime() - call.startedAt.getTime()) / 1000)) : 0;
  const amount = viewerId === call.callerId ? call.cost : viewerId === call.calleeId ? call.earnings : 0;
  return {
    callId: call.id,
    state: leavesCallEntry(call.state) ? call.state : 'ended',
    endReason: (call.endReason as CallEndReason | null) ?? null,
    seconds,
    minutes: call.minutes,
    amount,
  };
}
