/**
 * The chat store's types: what `fanstage.chat` hands out (exported from the SDK as before) and
 * what its parts tell each other about an open thread (`ThreadInternals`).
 */
import type { ReadonlySignal } from '@preact/signals-core';
import type { Account, ChatCall, ChatMessage, ChatMedia, Conversation, MassConversationList, MediaView, SpendRequestRef } from '../../../contract';
import type { ChatFailure } from '../../../contract/constants';
import type { SdkError } from '../../errors';
import type { ChatRefusal, ChatRow, DeliveryState } from '../../rules/chat';
import type { ChatDraftLimits, ChatDraftStorage } from '../chatDrafts';
import type { PagedStatus } from '../shared/paged';
import type { RefusalPrompt } from '../shared/errors';
/** What the chat needs of the session store. */
export interface ChatSession {
  readonly userId: ReadonlySignal<number | null>;
  readonly account: ReadonlySignal<Account | null>;
  readonly isLoggedIn: ReadonlySignal<boolean>;
  setAccount(account: Account): void;
}

export interface ChatStoreOptions {
  /** The badge counts of `GET /api/count/`; the notifications store shares its request. */
  refreshCounts?: () => Promise<unknown>;
  /** How long a sent message may wait for its echo before it shows as failed; default 15 s. */
  ackTimeoutMs?: number;
  /** How long to wait for `resumed` before reloading the list anyway; default 5 s. */
  resumeTimeoutMs?: number;
  /** Clock, for tests. */
  now?: () => number;
  /**
   * Where unsent drafts are kept so they survive a reload: `sessionStorage` when the host has
   * one (the default), any object with `getItem`/`setItem`/`removeItem`, or `null` for none.
   */
  draftStorage?: ChatDraftStorage | null;
  /** How much of it the drafts may take (drafts a conversation, characters, conversations). */
  draftLimits?: ChatDraftLimits;
}

/** A partner's indicator (SPEC §3 chat event slot types). */
export type ChatActivity = 'typing' | 'mediaupload' | 'audiorecord';

/** One message as a conversation shows it: stored, or the viewer's draft on its way or refused. */
export interface ChatItem {
  /** Stable across the draft becoming stored: `${senderId}:${msgId}`. */
  readonly key: string;
  /** The server's id once stored; null for a draft. */
  readonly id: number | null;
  readonly msgId: string;
  readonly senderId: number;
  readonly receiverId: number;
  readonly text: string;
  readonly sendDt: number;
  readonly price: number;
  readonly giftId: number | null;
  readonly mediaId: number | null;
  readonly media: ChatMedia | null;
  readonly suspectedState: number;
  readonly senderReactionId: number | null;
  readonly receiverReactionId: number | null;
  readonly massId: number | null;
  /** A call entry (docs/calls.md "In the chat"): shown as a line of the history, not a bubble. */
  readonly call?: ChatCall;
  /** Sent by the viewer. */
  readonly mine: boolean;
  /** SPEC §4 read state for the viewer's messages; 'sent' for the partner's. */
  readonly state: DeliveryState;
  /** Why a draft was refused (SPEC §4), else null. */
  readonly failure: ChatFailure | null;
  /** A more precise reason when there is one: an `errors.*` key such as `message_not_send-offline`. */
  readonly reason: string | null;
  /** not_delivered: the conversation's price now (cents), which `acceptPrice` sends at. */
  readonly newPrice: number | null;
}

export interface ChatDraftInput {
  text?: string;
  /** A media uploaded with purpose `chat`. */
  mediaId?: number;
  /** The uploaded media, so the draft shows it before the server's echo. */
  media?: MediaView;
  giftId?: number;
}

export type ChatSendProblem = 'empty' | 'too-long' | 'self' | 'no-recipient' | 'logged-out' | 'loading';
export type ChatSendResult = { ok: true; msgId: string } | { ok: false; problem: ChatSendProblem };

/** What the page should open because of a refused message. */
export interface ChatPrompt {
  kind: RefusalPrompt;
  userId: number;
  msgId: string;
}

export interface ChatFailureNotice {
  userId: number;
  msgId: string;
  failure: ChatFailure;
  /** Grows with every refusal, so the same refusal twice is two notices. */
  serial: number;
}

/** One mass-message group with its latest message (`GET /api/chat/mass-conversations`). */
export type MassConversation = MassConversationList['groups'][number];

export interface ChatCounts {
  chats: number;
  reactions: number;
}

export interface ChatThread {
  readonly userId: number;
  readonly conversation: ReadonlySignal<Conversation | null>;
  /** Oldest first; the viewer's drafts after the stored messages. */
  readonly items: ReadonlySignal<readonly ChatItem[]>;
  /** `items` with SPEC §9 time-gap markers. */
  readonly rows: ReadonlySignal<readonly ChatRow<ChatItem>[]>;
  /** The history's paging: 'ready' means older messages remain; 'ended' that the start is shown. */
  readonly status: ReadonlySignal<PagedStatus>;
  readonly error: ReadonlySignal<SdkError | null>;
  /** Whether the first page has arrived. */
  readonly loaded: ReadonlySignal<boolean>;
  /** Whether the conversation's price is known, so `send` can take a message ('loading' until then). */
  readonly priceKnown: ReadonlySignal<boolean>;
  readonly partnerActivity: ReadonlySignal<ChatActivity | null>;
  load(): Promise<void>;
  reload(): Promise<void>;
  loadOlder(): Promise<void>;
  send(draft: ChatDraftInput): ChatSendResult;
  resend(msgId: string): boolean;
  acceptPrice(msgId: string): boolean;
  discard(msgId: string): void;
  react(messageId: number, reactionId: number | null): boolean;
  setVisible(visible: boolean): void;
  markRead(): void;
  typing(kind?: ChatActivity): void;
  stopTyping(): void;
  applyUnlock(mediaId: number, mediaUnlockHash: string): void;
  applyMediaPrice(mediaId: number, mediaPrice: number): void;
}

/** An open thread as the rest of the store sees it: what the socket's messages do to it. */
export interface ThreadInternals extends ChatThread {
  /** A stored message for this conversation; false when it was held already. */
  receive(message: ChatMessage): boolean;
  refuse(msgId: string, refusal: ChatRefusal, data: { price?: number; reason?: string }): boolean;
  /**
   * A paid message from a partner site that needs the fan's word (docs/spending.md): asks him in
   * the platform's popup and sends it again with his confirmation, or marks it failed
   * (`spend-cancelled`). False when no draft of this thread has that msgId.
   */
  awaitConfirmation(msgId: string, ref: SpendRequestRef): boolean;
  hasDraft(msgId: string): boolean;
  applyReaction(messageId: number, reactorId: number, reactionId: number | null): ChatMessage | null;
  applyMediaStatus(mediaId: number, mediaStatus: number): void;
  /** A stored message a moderator deleted leaves the thread; false when it was not held. */
  forget(messageId: number): boolean;
  /** The highest position in the viewer's stream among the messages held. */
  maxSeq(): number;
  /** The connection dropped: drafts on their way wait for it instead of timing out. */
  holdAcks(): void;
  /** Back and caught up: drafts with no echo were not stored, and go again with their msgId. */
  resendUnacknowledged(): void;
  /** The connection is gone for good: drafts on their way failed. */
  failUnacknowledged(): void;
  /** Re-reads the newest page of a loaded history (after a reconnection). */
  refreshLatest(): void;
  /** Something of the partner's was seen as it arrived (a reaction): tell the server. */
  noteSeen(): void;
  readonly visible: boolean;
  /** Stops the timers (logout). */
  dispose(): void;
}
