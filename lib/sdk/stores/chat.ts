/**
 * The paid chat (SPEC §2 ChatList and ChatOpened, §3 Conversation and Chat message, §4 failed
 * drafts and read state, §5 chat rules, §8 chat events, §9 page sizes and the time gap).
 * Messages travel over the websocket (`fanstage.socket`); lists and histories are HTTP.
 *
 * API (stable):
 *
 *   const chat = fanstage.chat;               // createChatStore(client, socket, session, options)
 *
 *   chat.conversations        ReadonlySignal<readonly Conversation[]>  newest activity first, 30 a page
 *   chat.conversationsStatus  ReadonlySignal<PagedStatus>  'idle' | 'loading' | 'ready' | 'ended' | 'error'
 *   chat.conversationsError   ReadonlySignal<SdkError | null>
 *   chat.query                ReadonlySignal<string>  the search (partner's username or display name)
 *   chat.loadConversations()  the first page, once;  chat.reloadConversations()  again
 *   chat.moreConversations()  the next page;  chat.search(q)  a new search from its first page
 *   chat.conversation(userId) ReadonlySignal<Conversation | null>  one conversation, kept live
 *   chat.archive(userId)      DELETE: gone from the list until the next message
 *   chat.setCustomPrice(userId, cents | null)   a seller's price for one fan (PUT)
 *   chat.setMessagePrice(cents)                 the viewer's usual message price (PUT /api/users/me)
 *
 *   chat.thread(userId)       ChatThread: one open conversation (below); the same object per user
 *   chat.activity             ReadonlySignal<ReadonlyMap<userId, 'typing' | 'mediaupload' | 'audiorecord'>>
 *   chat.counts               ReadonlySignal<{chats, reactions}>;  chat.badgeCount  chats + reactions
 *   chat.refreshCounts()      GET /api/count/ (shared with the notifications badge)
 *   chat.prompt               ReadonlySignal<ChatPrompt | null>  what the page should open for a
 *                             refused message: 'topUp' (noCredit) or 'verifyEmail'; clearPrompt()
 *   chat.lastFailure          ReadonlySignal<ChatFailureNotice | null>  the latest refusal (error sound)
 *   chat.mass                 a seller's mass messages: groups, loadGroups(), history(), send()
 *   chat.reset()              forgets everything (a logout does it)
 *
 *   thread.conversation / items / rows (with time-gap markers) / status / error / partnerActivity
 *   thread.load()  first page, once;  thread.loadOlder()  the page before the oldest held
 *   thread.send({text?, mediaId?, media?, giftId?})  → {ok: true, msgId} | {ok: false, problem}
 *   thread.resend(msgId)  thread.acceptPrice(msgId)  thread.discard(msgId)   for failed drafts
 *   thread.react(messageId, reactionId | null)
 *   thread.setVisible(visible)   read receipts are sent while the thread is shown
 *   thread.typing(kind?)  thread.stopTyping()   indicators to the partner
 *   thread.applyUnlock(mediaId, key)  thread.applyMediaPrice(mediaId, cents)
 *
 * Rules:
 * - Every message the viewer sends carries a fresh `msgId`. It shows at once with a clock;
 *   the server's echo of it on this socket is the acknowledgement (one check); the partner's
 *   `lastReadDate` reaching its `sendDt` makes two checks. A resend uses the same `msgId`, so
 *   a message that did arrive after all is stored and charged once.
 * - A message sent while the socket is not open fails at once with
 *   `message_not_send-offline`; nothing is queued behind the person's back.
 * - Refusals: `notAcceptedPrice` → not_delivered with the new price (acceptPrice resends at
 *   it); `noCredit` → no_credit and `prompt` asks for the top-up; `emailNotVerified` →
 *   waiting_for_email and `prompt` asks for the verification; an `error` → not_delivered-general.
 * - Messages arriving twice (a resend's echo, a resume) are kept once, by id and by msgId.
 * - Every message the server sends names its position in the viewer's chat stream (`seq`,
 *   1, 2, 3, … without gaps, docs/realtime.md "Resume"). The store keeps the position up to
 *   which it has seen every message — from live messages, resumed ones and a mass message's
 *   acknowledgement — and a message that arrives ahead of a missing one waits above it until
 *   the hole is filled. After a reconnection it asks the server to `resume` after that
 *   position (again while the server says `more`), for every conversation, open or not:
 *   previews and unread counts follow. Then it sends the drafts that got no echo again with
 *   their msgId, re-reads the histories it shows and reloads the conversation list, so nothing
 *   is missed, doubled or counted twice. On the first connection it resumes after the highest
 *   position among the messages it loaded before, or — holding none — starts at the position
 *   the server's `hello` names. A draft on its way when the connection is lost for good (a
 *   widget gave up) fails with `message_not_send-offline`.
 * - Unsent drafts (on their way or failed) are kept in web storage (`draftStorage`,
 *   `sessionStorage` by default) per logged-in user and partner, rewritten whenever they change,
 *   removed on their echo or discard, and forgotten on logout. A thread made again (after a
 *   reload) takes them back: failed ones as they were, those that were on their way as failed
 *   `not_delivered-general` (to be sent again with the same msgId) unless the history the
 *   server sends holds their msgId — then they were stored and are dropped, so each message
 *   shows once.
 */
import { batch, computed, effect, signal, type ReadonlySignal } from '@preact/signals-core';
import type { Account, ChatHistory, ChatMedia, ChatMessage, Conversation, MassConversationList, MassGroup, MassHistory, MassMessage, MediaView } from '../../contract';
import type { ChatFailure } from '../../contract/constants';
import type { ClientEvent, ServerMessageOf } from '../../contract/realtime';
import type { FanstageClient } from '../client';
import { accountApi } from '../api';
import { chatApi } from '../api-chat';
import { SdkError } from '../errors';
import { pageSizes } from '../rules/constants';
import {
  chatDraftProblem,
  chatFailureOf,
  chatRecipientProblem,
  deliveryState,
  typingTimings,
  withTimeGaps,
  type ChatRefusal,
  type ChatRow,
  type DeliveryState,
} from '../rules/chat';
import type { FanstageSocket } from '../socket';
import type { PagedStatus } from './search';
import { newIdempotencyKey } from './wallet';
import { createChatDraftStore, defaultChatDraftStorage, type ChatDraftLimits, type ChatDraftStorage, type StoredChatDraft } from './chatDrafts';

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
  kind: 'topUp' | 'verifyEmail';
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

/** A draft of the viewer's, as kept (in memory and in the draft storage) until the server stores it. */
type Draft = StoredChatDraft;

interface ThreadInternals extends ChatThread {
  /** A stored message for this conversation; false when it was held already. */
  receive(message: ChatMessage): boolean;
  refuse(msgId: string, refusal: ChatRefusal, data: { price?: number; reason?: string }): boolean;
  hasDraft(msgId: string): boolean;
  applyReaction(messageId: number, reactorId: number, reactionId: number | null): ChatMessage | null;
  applyMediaStatus(mediaId: number, mediaStatus: number): void;
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

function asSdkError(cause: unknown): SdkError {
  return cause instanceof SdkError ? cause : new SdkError({ code: 'internal-error', statusCode: 0, cause });
}

const CLIENT_ACTIVITY: ReadonlySet<string> = new Set<ChatActivity>(['typing', 'mediaupload', 'audiorecord']);

export function createChatStore(client: FanstageClient, socket: FanstageSocket, session: ChatSession, options: ChatStoreOptions = {}) {
  const api = chatApi(client);
  const account = accountApi(client);
  const now = options.now ?? (() => Date.now());
  const ackTimeoutMs = options.ackTimeoutMs ?? 15_000;
  const resumeTimeoutMs = options.resumeTimeoutMs ?? 5_000;
  const pageSize = pageSizes.conversations;
  const historySize = pageSizes.chatHistory;
  const me = () => session.userId.peek();
  const draftStore = createChatDraftStore(options.draftStorage === undefined ? defaultChatDraftStorage() : options.draftStorage, options.draftLimits);

  // Every conversation the page knows, by partner id; the list is an order over it, so a
  // change (a new message, a read receipt) shows in the list and the open thread alike.
  const known = signal<ReadonlyMap<number, Conversation>>(new Map());
  const order = signal<readonly number[]>([]);
  const listStatus = signal<PagedStatus>('idle');
  const listError = signal<SdkError | null>(null);
  const query = signal('');
  const conversations = computed(() => {
    const map = known.value;
    const list: Conversation[] = [];
    for (const id of order.value) {
      const conversation = map.get(id);
      if (conversation && !conversation.archived) list.push(conversation);
    }
    return list;
  });
  const counts = signal<ChatCounts>({ chats: 0, reactions: 0 });
  const badgeCount = computed(() => counts.value.chats + counts.value.reactions);
  const activity = signal<ReadonlyMap<number, ChatActivity>>(new Map());
  const prompt = signal<ChatPrompt | null>(null);
  const lastFailure = signal<ChatFailureNotice | null>(null);
  const threads = new Map<number, ThreadInternals>();
  const activityTimers = new Map<number, ReturnType<typeof setTimeout>>();
  const fetchingOne = new Map<number, Promise<void>>();
  let listController: AbortController | null = null;
  let failureSerial = 0;
  // Bumped by reset, so an answer that arrives after a logout is dropped.
  let generation = 0;

  // ------------------------------------------------------------------------------------------
  // Conversations
  // ------------------------------------------------------------------------------------------

  /**
   * Takes a conversation from the server. A live message that arrived while the request was
   * on its way is newer than the answer: it is kept, with its unread count, and the partner's
   * read time never goes back.
   */
  function merged(fresh: Conversation, held: Conversation | undefined): Conversation {
    if (!held) return fresh;
    const lastReadDate = Math.max(fresh.lastReadDate ?? 0, held.lastReadDate ?? 0) || null;
    if (held.lastMessage && (!fresh.lastMessage || held.lastMessage.id > fresh.lastMessage.id)) {
      return { ...fresh, lastMessage: held.lastMessage, unreadCount: held.unreadCount, archived: held.archived, lastReadDate };
    }
    return { ...fresh, lastReadDate };
  }

  function remember(list: readonly Conversation[]): void {
    if (list.length === 0) return;
    const map = new Map(known.peek());
    for (const conversation of list) map.set(conversation.id, merged(conversation, map.get(conversation.id)));
    known.value = map;
  }

  function update(userId: number, change: (conversation: Conversation) => Conversation): void {
    const held = known.peek().get(userId);
    if (!held) return;
    const next = change(held);
    if (next === held) return;
    const map = new Map(known.peek());
    map.set(userId, next);
    known.value = map;
  }

  function toTop(userId: number): void {
    const list = order.peek();
    if (list[0] === userId) return;
    order.value = [userId, ...list.filter((id) => id !== userId)];
  }

  async function fetchList(reset: boolean): Promise<void> {
    if (!session.isLoggedIn.peek()) return;
    listController?.abort();
    const own = new AbortController();
    listController = own;
    const asOf = generation;
    const offset = reset ? 0 : order.peek().length;
    const q = query.peek().trim();
    batch(() => {
      listStatus.value = 'loading';
      listError.value = null;
    });
    try {
      const page = await api.conversations({ limit: pageSize, ...(offset ? { offset } : {}), ...(q ? { q } : {}) }, own.signal);
      if (own.signal.aborted || asOf !== generation) return;
      batch(() => {
        remember(page.conversations);
        const ids = page.conversations.map((c) => c.id);
        if (reset) order.value = ids;
        else {
          const have = new Set(order.peek());
          order.value = [...order.peek(), ...ids.filter((id) => !have.has(id))];
        }
        // SPEC §4: a page shorter than asked for is the last one.
        listStatus.value = page.conversations.length < pageSize ? 'ended' : 'ready';
      });
    } catch (cause) {
      if (own.signal.aborted || asOf !== generation) return;
      batch(() => {
        listError.value = asSdkError(cause);
        listStatus.value = 'error';
      });
    } finally {
      if (listController === own) listController = null;
    }
  }

  function loadConversations(): Promise<void> {
    return listStatus.peek() === 'idle' ? fetchList(true) : Promise.resolve();
  }

  function moreConversations(): Promise<void> {
    const status = listStatus.peek();
    if (status === 'idle') return fetchList(true);
    if (status === 'loading' || status === 'ended') return Promise.resolve();
    return fetchList(order.peek().length === 0);
  }

  function search(q: string): Promise<void> {
    query.value = q;
    return fetchList(true);
  }

  /** One conversation the page did not hold (a message from someone new): asked for by itself. */
  function fetchOne(userId: number): Promise<void> {
    const pending = fetchingOne.get(userId);
    if (pending) return pending;
    const asOf = generation;
    const request = api
      .conversations({ senderId: userId })
      .then((answer) => {
        if (asOf !== generation) return;
        const conversation = answer.conversations[0];
        if (!conversation) return;
        batch(() => {
          remember([conversation]);
          if (query.peek().trim() === '' && listStatus.peek() !== 'idle') toTop(userId);
        });
      })
      .catch(() => undefined)
      .finally(() => fetchingOne.delete(userId));
    fetchingOne.set(userId, request);
    return request;
  }

  function conversationSignal(userId: number): ReadonlySignal<Conversation | null> {
    return computed(() => known.value.get(userId) ?? null);
  }

  async function archive(userId: number): Promise<void> {
    const held = known.peek().get(userId);
    update(userId, (c) => ({ ...c, archived: true }));
    try {
      await api.archive(userId);
    } catch (error) {
      if (held) update(userId, (c) => ({ ...c, archived: held.archived }));
      throw error;
    }
  }

  async function setCustomPrice(userId: number, customPrice: number | null): Promise<void> {
    const held = known.peek().get(userId);
    update(userId, (c) => ({ ...c, customPrice }));
    try {
      await api.setCustomPrice(userId, customPrice);
    } catch (error) {
      if (held) update(userId, (c) => ({ ...c, customPrice: held.customPrice }));
      throw error;
    }
  }

  async function setMessagePrice(messagePrice: number): Promise<Account> {
    const updated = await account.updateMe({ messagePrice });
    session.setAccount(updated);
    return updated;
  }

  // ------------------------------------------------------------------------------------------
  // Counts
  // ------------------------------------------------------------------------------------------

  function applyCounts(next: Partial<ChatCounts>): void {
    const current = counts.peek();
    const chats = typeof next.chats === 'number' ? Math.max(0, Math.floor(next.chats)) : current.chats;
    const reactions = typeof next.reactions === 'number' ? Math.max(0, Math.floor(next.reactions)) : current.reactions;
    if (chats !== current.chats || reactions !== current.reactions) counts.value = { chats, reactions };
  }

  function refreshCounts(): Promise<unknown> {
    if (!session.isLoggedIn.peek()) {
      counts.value = { chats: 0, reactions: 0 };
      return Promise.resolve();
    }
    return options.refreshCounts?.() ?? Promise.resolve();
  }

  // ------------------------------------------------------------------------------------------
  // Partner activity
  // ------------------------------------------------------------------------------------------

  function setActivity(userId: number, kind: ChatActivity | null): void {
    const timer = activityTimers.get(userId);
    if (timer) clearTimeout(timer);
    activityTimers.delete(userId);
    const map = activity.peek();
    if (kind === null) {
      if (!map.has(userId)) return;
      const next = new Map(map);
      next.delete(userId);
      activity.value = next;
      return;
    }
    if (map.get(userId) !== kind) activity.value = new Map(map).set(userId, kind);
    // A `stoptyping` lost with a dropped connection must not leave the indicator up.
    activityTimers.set(
      userId,
      setTimeout(() => setActivity(userId, null), typingTimings.shownMs),
    );
  }

  // ------------------------------------------------------------------------------------------
  // Threads
  // ------------------------------------------------------------------------------------------

  function noteFailure(userId: number, msgId: string, failure: ChatFailure): void {
    failureSerial += 1;
    lastFailure.value = { userId, msgId, failure, serial: failureSerial };
  }

  function createThread(userId: number): ThreadInternals {
    const conversation = conversationSignal(userId);
    const stored = signal<readonly ChatMessage[]>([]);
    const drafts = signal<readonly Draft[]>([]);
    const status = signal<PagedStatus>('idle');
    const error = signal<SdkError | null>(null);
    const loaded = signal(false);
    const partnerActivity = computed(() => activity.value.get(userId) ?? null);
    const ackTimers = new Map<string, ReturnType<typeof setTimeout>>();
    let visible = false;
    let controller: AbortController | null = null;
    let readUpTo = 0;
    let typingAnnounced: { kind: ChatActivity; at: number } | null = null;
    let idleTimer: ReturnType<typeof setTimeout> | null = null;
    // Whose kept drafts this thread took over; until then nothing is written over them.
    let owner: number | null = null;

    const items = computed<readonly ChatItem[]>(() => {
      const viewer = session.userId.value;
      const lastRead = conversation.value?.lastReadDate ?? null;
      const out: ChatItem[] = stored.value.map((m) => {
        const mine = m.senderId === viewer;
        return {
          ...m,
          key: `${m.senderId}:${m.msgId}`,
          mine,
          state: mine ? deliveryState({ sendDt: m.sendDt, stored: true }, lastRead) : 'sent',
          failure: null,
          reason: null,
          newPrice: null,
        };
      });
      for (const d of drafts.value) {
        out.push({
          key: `${viewer ?? 0}:${d.msgId}`,
          id: null,
          msgId: d.msgId,
          senderId: viewer ?? 0,
          receiverId: d.receiverId,
          text: d.text,
          sendDt: d.sendDt,
          price: d.price,
          giftId: d.giftId,
          mediaId: d.mediaId,
          media: d.media,
          suspectedState: 0,
          senderReactionId: null,
          receiverReactionId: null,
          massId: null,
          mine: true,
          state: deliveryState({ sendDt: d.sendDt, stored: false, failed: d.status === 'failed' }, lastRead),
          failure: d.failure,
          reason: d.reason,
          newPrice: d.newPrice,
        });
      }
      return out;
    });
    const rows = computed(() => withTimeGaps(items.value, (item) => item.key));

    /** Every change of the drafts goes through here, so the kept copy follows it. */
    function setDrafts(next: readonly Draft[]): void {
      drafts.value = next;
      const viewer = me();
      if (owner !== null && viewer === owner) draftStore.write(owner, userId, next);
    }

    /**
     * Takes over the drafts kept from an earlier page of the same person. Those that were on
     * their way may or may not have been stored: they come back failed, to be sent again with
     * their msgId (harmless if they were), and the history drops any it holds already.
     */
    function restore(): void {
      const viewer = me();
      if (owner !== null || viewer === null) return;
      owner = viewer;
      const kept = draftStore.read(viewer, userId);
      if (kept.length === 0) return;
      const held = new Set([...drafts.peek().map((d) => d.msgId), ...stored.peek().filter((m) => m.senderId === viewer).map((m) => m.msgId)]);
      const back = kept
        .filter((d) => !held.has(d.msgId))
        .map((d): Draft => (d.status === 'sending' ? { ...d, status: 'failed', failure: 'not_delivered-general', reason: null } : d));
      setDrafts([...back, ...drafts.peek()].sort((a, b) => a.sendDt - b.sendDt));
    }

    function setDraft(msgId: string, change: (draft: Draft) => Draft | null): void {
      const list = drafts.peek();
      const at = list.findIndex((d) => d.msgId === msgId);
      if (at < 0) return;
      const next = change(list[at] as Draft);
      setDrafts(next === null ? list.filter((_, i) => i !== at) : list.map((d, i) => (i === at ? next : d)));
    }

    function clearAck(msgId: string): void {
      const timer = ackTimers.get(msgId);
      if (timer) clearTimeout(timer);
      ackTimers.delete(msgId);
    }

    function fail(msgId: string, failure: ChatFailure, reason: string | null, newPrice: number | null = null): void {
      clearAck(msgId);
      setDraft(msgId, (d) => ({ ...d, status: 'failed', failure, reason, newPrice: newPrice ?? d.newPrice }));
      noteFailure(userId, msgId, failure);
    }

    function mergeStored(list: readonly ChatMessage[]): void {
      if (list.length === 0) return;
      const byId = new Map(stored.peek().map((m) => [m.id, m]));
      for (const m of list) byId.set(m.id, m);
      stored.value = [...byId.values()].sort((a, b) => a.id - b.id);
    }

    function dispatch(msgId: string): void {
      const draft = drafts.peek().find((d) => d.msgId === msgId);
      if (!draft) return;
      const viewer = session.account.peek();
      // SPEC §5: chatting needs a verified e-mail; asking the server first would only say so later.
      if (viewer && !viewer.emailVerified) {
        fail(msgId, 'waiting_for_email', null);
        prompt.value = { kind: 'verifyEmail', userId, msgId };
        return;
      }
      setDraft(msgId, (d) => ({ ...d, status: 'sending', failure: null, reason: null }));
      const sent = socket.send({
        type: 'chatMessage',
        msgId,
        receiverId: draft.receiverId,
        ...(draft.text ? { text: draft.text } : {}),
        ...(draft.mediaId ? { mediaId: draft.mediaId } : {}),
        ...(draft.giftId ? { giftId: draft.giftId } : {}),
        price: draft.price,
      });
      if (!sent) {
        // SPEC §5 and §8: refused at once while offline; the person decides when to try again.
        fail(msgId, 'not_delivered-general', 'message_not_send-offline');
        return;
      }
      clearAck(msgId);
      ackTimers.set(
        msgId,
        setTimeout(() => {
          ackTimers.delete(msgId);
          // No echo: it may still arrive (a resume delivers it), and a resend is harmless.
          if (drafts.peek().some((d) => d.msgId === msgId && d.status === 'sending')) fail(msgId, 'not_delivered-general', 'server_not_responding');
        }, ackTimeoutMs),
      );
    }

    async function fetchPage(older: boolean): Promise<void> {
      if (!session.isLoggedIn.peek()) return;
      restore();
      controller?.abort();
      const own = new AbortController();
      controller = own;
      const asOf = generation;
      const oldest = stored.peek()[0];
      batch(() => {
        status.value = 'loading';
        error.value = null;
      });
      let page: ChatHistory;
      try {
        page = await api.history(userId, { limit: historySize, ...(older && oldest ? { ts: oldest.sendDt } : {}) }, own.signal);
      } catch (cause) {
        if (own.signal.aborted || asOf !== generation) return;
        batch(() => {
          error.value = asSdkError(cause);
          status.value = 'error';
        });
        return;
      } finally {
        if (controller === own) controller = null;
      }
      if (own.signal.aborted || asOf !== generation) return;
      batch(() => {
        remember([page.conversation]);
        mergeStored(page.messages);
        // Echoes of drafts may be in the page (sent from here just before a reload).
        const ids = new Set(page.messages.filter((m) => m.senderId === me()).map((m) => m.msgId));
        if (ids.size > 0 && drafts.peek().some((d) => ids.has(d.msgId))) setDrafts(drafts.peek().filter((d) => !ids.has(d.msgId)));
        status.value = page.messages.length < historySize ? 'ended' : 'ready';
        loaded.value = true;
      });
      maybeMarkRead();
    }

    function load(): Promise<void> {
      return status.peek() === 'idle' ? fetchPage(false) : Promise.resolve();
    }

    function loadOlder(): Promise<void> {
      const now = status.peek();
      if (!loaded.peek()) return now === 'loading' ? Promise.resolve() : fetchPage(false);
      if (now === 'loading' || now === 'ended') return Promise.resolve();
      return fetchPage(true);
    }

    function send(input: ChatDraftInput): ChatSendResult {
      if (!session.isLoggedIn.peek()) return { ok: false, problem: 'logged-out' };
      const recipient = chatRecipientProblem(me(), userId);
      if (recipient) return { ok: false, problem: recipient };
      const problem = chatDraftProblem(input);
      if (problem) return { ok: false, problem };
      // Until the conversation is loaded its price is unknown, and a message goes only at the
      // price the person was shown: sent now, it would go at 0 and come back not delivered.
      if (conversation.peek() === null && !loaded.peek()) return { ok: false, problem: 'loading' };
      restore();
      const msgId = newIdempotencyKey();
      const draft: Draft = {
        msgId,
        receiverId: userId,
        text: input.text?.trim() ?? '',
        mediaId: input.mediaId ?? null,
        media: input.media ? { ...input.media, mediaUnlocked: true } : null,
        giftId: input.giftId ?? null,
        // The price the person saw on the badge is the price they accept (notAcceptedPrice otherwise).
        price: conversation.peek()?.price ?? 0,
        sendDt: now(),
        status: 'sending',
        failure: null,
        reason: null,
        newPrice: null,
      };
      setDrafts([...drafts.peek(), draft]);
      stopTyping();
      dispatch(msgId);
      return { ok: true, msgId };
    }

    function resend(msgId: string): boolean {
      const draft = drafts.peek().find((d) => d.msgId === msgId);
      if (!draft || draft.status !== 'failed') return false;
      dispatch(msgId);
      return true;
    }

    function acceptPrice(msgId: string): boolean {
      const draft = drafts.peek().find((d) => d.msgId === msgId);
      if (!draft || draft.status !== 'failed' || draft.newPrice === null) return false;
      const price = draft.newPrice;
      setDraft(msgId, (d) => ({ ...d, price, newPrice: null }));
      dispatch(msgId);
      return true;
    }

    function discard(msgId: string): void {
      clearAck(msgId);
      setDraft(msgId, (d) => (d.status === 'failed' ? null : d));
      const current = prompt.peek();
      if (current?.msgId === msgId) prompt.value = null;
    }

    function findStored(messageId: number): ChatMessage | null {
      return stored.peek().find((m) => m.id === messageId) ?? null;
    }

    function applyReaction(messageId: number, reactorId: number, reactionId: number | null): ChatMessage | null {
      const message = findStored(messageId);
      if (!message) return null;
      const next = reactorId === message.senderId ? { ...message, senderReactionId: reactionId } : { ...message, receiverReactionId: reactionId };
      stored.value = stored.peek().map((m) => (m.id === messageId ? next : m));
      return next;
    }

    function react(messageId: number, reactionId: number | null): boolean {
      const viewer = me();
      if (viewer === null || !findStored(messageId)) return false;
      if (!socket.send({ type: 'chatReaction', messageId, reactionId })) return false;
      // Shown at once; the server's chatReaction confirms it (or a reload shows the truth).
      applyReaction(messageId, viewer, reactionId);
      return true;
    }

    /** Sends a read receipt when something unread is in view: a message, or (`seen`) a reaction. */
    function maybeMarkRead(seen = false): void {
      if (!visible || !loaded.peek()) return;
      const held = conversation.peek();
      const viewer = me();
      const lastIncoming = stored.peek().reduce((max, m) => (m.senderId !== viewer && m.id > max ? m.id : max), 0);
      const unseen = seen || (held !== null && (held.unreadCount > 0 || held.lastReactionMessage !== null));
      if (!unseen && lastIncoming <= readUpTo) return;
      if (!socket.send({ type: 'chatConvRead', userId })) return;
      readUpTo = lastIncoming;
      if (held && (held.unreadCount > 0 || held.lastReactionMessage !== null)) {
        update(userId, (c) => ({ ...c, unreadCount: 0, lastReactionMessage: null }));
        // The server's updateCount confirms it; the badge need not wait for that.
        if (held.unreadCount > 0) applyCounts({ chats: counts.peek().chats - 1 });
      }
    }

    function setVisible(next: boolean): void {
      visible = next;
      if (!next) stopTyping();
      maybeMarkRead();
    }

    function typing(kind: ChatActivity = 'typing'): void {
      if (chatRecipientProblem(me(), userId)) return;
      const at = now();
      if (!typingAnnounced || typingAnnounced.kind !== kind || at - typingAnnounced.at >= typingTimings.announceEveryMs) {
        if (socket.send({ type: 'eventMessage', event: kind, userId })) typingAnnounced = { kind, at };
      }
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = setTimeout(stopTyping, typingTimings.idleMs);
    }

    function stopTyping(): void {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = null;
      if (!typingAnnounced) return;
      typingAnnounced = null;
      const stop: ClientEvent = 'stoptyping';
      socket.send({ type: 'eventMessage', event: stop, userId });
    }

    function mapMedia(mediaId: number, change: (media: ChatMedia) => ChatMedia): void {
      let changed = false;
      const next = stored.peek().map((m) => {
        if (m.media?.mediaId !== mediaId) return m;
        changed = true;
        return { ...m, media: change(m.media) };
      });
      if (changed) stored.value = next;
    }

    const thread: ThreadInternals = {
      userId,
      conversation,
      items,
      rows,
      status,
      error,
      loaded,
      partnerActivity,
      get visible() {
        return visible;
      },
      load,
      reload: () => fetchPage(false),
      loadOlder,
      send,
      resend,
      acceptPrice,
      discard,
      react,
      setVisible,
      markRead: () => maybeMarkRead(),
      typing,
      stopTyping,
      applyUnlock(mediaId, mediaUnlockHash) {
        mapMedia(mediaId, (media) => ({ ...media, mediaUnlockHash, mediaUnlocked: true }));
      },
      applyMediaPrice(mediaId, mediaPrice) {
        mapMedia(mediaId, (media) => ({ ...media, mediaPrice }));
      },
      applyMediaStatus(mediaId, mediaStatus) {
        mapMedia(mediaId, (media) => ({ ...media, mediaStatus }));
      },
      receive(message) {
        const held = stored.peek();
        if (held.some((m) => m.id === message.id)) return false;
        batch(() => {
          if (message.senderId === me()) {
            clearAck(message.msgId);
            setDraft(message.msgId, () => null);
          }
          mergeStored([message]);
        });
        if (message.senderId !== me()) maybeMarkRead();
        return true;
      },
      refuse(msgId, refusal, data) {
        if (!drafts.peek().some((d) => d.msgId === msgId)) return false;
        fail(msgId, chatFailureOf(refusal), data.reason ?? null, refusal === 'notAcceptedPrice' ? (data.price ?? null) : null);
        return true;
      },
      hasDraft: (msgId) => drafts.peek().some((d) => d.msgId === msgId),
      holdAcks() {
        for (const timer of ackTimers.values()) clearTimeout(timer);
        ackTimers.clear();
      },
      resendUnacknowledged() {
        for (const d of drafts.peek()) if (d.status === 'sending') dispatch(d.msgId);
      },
      failUnacknowledged() {
        for (const d of drafts.peek()) if (d.status === 'sending') fail(d.msgId, 'not_delivered-general', 'message_not_send-offline');
      },
      noteSeen: () => maybeMarkRead(true),
      refreshLatest() {
        if (loaded.peek() && status.peek() !== 'loading') void fetchPage(false);
      },
      applyReaction,
      maxSeq: () => stored.peek().reduce((max, m) => Math.max(max, m.seq ?? 0), 0),
      dispose() {
        controller?.abort();
        for (const timer of ackTimers.values()) clearTimeout(timer);
        ackTimers.clear();
        if (idleTimer) clearTimeout(idleTimer);
        idleTimer = null;
      },
    };
    restore();
    return thread;
  }

  function thread(userId: number): ChatThread {
    let existing = threads.get(userId);
    if (!existing) {
      existing = createThread(userId);
      threads.set(userId, existing);
    }
    return existing;
  }

  // ------------------------------------------------------------------------------------------
  // Mass messages (sellers)
  // ------------------------------------------------------------------------------------------

  const mass = (() => {
    const groups = signal<readonly MassConversation[] | null>(null);
    const waiting = new Map<string, { resolve: (message: MassMessage) => void; reject: (error: SdkError) => void; timer: ReturnType<typeof setTimeout> }>();

    function settle(msgId: string): { resolve: (message: MassMessage) => void; reject: (error: SdkError) => void } | null {
      const entry = waiting.get(msgId);
      if (!entry) return null;
      clearTimeout(entry.timer);
      waiting.delete(msgId);
      return entry;
    }

    return {
      groups: groups as ReadonlySignal<readonly MassConversation[] | null>,
      async loadGroups(): Promise<readonly MassConversation[]> {
        const asOf = generation;
        const answer = await api.massGroups();
        if (asOf === generation) groups.value = answer.groups;
        return answer.groups;
      },
      history: (group: MassGroup, ts?: number): Promise<MassHistory> => api.massHistory(group, { limit: historySize, ...(ts ? { ts } : {}) }),
      /**
       * Sends one message to a whole group; resolves with the stored mass message. Rejects with
       * `message_not_send-offline` when the socket is not open, the server's reason when it
       * refuses, `timeout` without an answer (sending again with the same `msgId` is harmless).
       */
      send(group: MassGroup, draft: { text?: string; mediaId?: number }, msgId: string = newIdempotencyKey()): Promise<MassMessage> {
        const problem = chatDraftProblem(draft);
        if (problem) return Promise.reject(new SdkError({ code: problem, statusCode: -1 }));
        return new Promise<MassMessage>((resolve, reject) => {
          const text = draft.text?.trim();
          const sent = socket.send({
            type: 'massChatMessage',
            msgId,
            ...(me() !== null ? { senderId: me() as number } : {}),
            recGroup: group,
            ...(text ? { text } : {}),
            ...(draft.mediaId ? { mediaId: draft.mediaId } : {}),
          });
          if (!sent) {
            reject(new SdkError({ code: 'message_not_send-offline', statusCode: 0, retryable: true }));
            return;
          }
          const timer = setTimeout(() => settle(msgId)?.reject(new SdkError({ code: 'timeout', statusCode: 0, retryable: true, body: { msgId } })), ackTimeoutMs);
          waiting.set(msgId, { resolve, reject, timer });
        });
      },
      acknowledged(message: MassMessage): void {
        settle(message.msgId)?.resolve(message);
        const list = groups.peek();
        if (list) groups.value = list.map((g) => (g.recGroup === message.recGroup ? { ...g, lastMessage: message } : g));
        // Each receiver's copy reaches only them: the sender's list learns of them by asking.
        if (listStatus.peek() !== 'idle') void fetchList(true);
      },
      refused(msgId: string, reason: string): void {
        settle(msgId)?.reject(new SdkError({ code: reason, statusCode: -1, body: { msgId } }));
      },
      reset(): void {
        for (const [msgId] of waiting) settle(msgId)?.reject(new SdkError({ code: 'aborted', statusCode: 0 }));
        groups.value = null;
      },
    };
  })();

  // ------------------------------------------------------------------------------------------
  // The websocket
  // ------------------------------------------------------------------------------------------

  function partnerOf(message: { senderId: number; receiverId: number }): number {
    return message.senderId === me() ? message.receiverId : message.senderId;
  }

  function onMessage({ message }: ServerMessageOf<'chatMessage'>): void {
    if (!session.isLoggedIn.peek()) return;
    if (typeof message.seq === 'number') sawPosition(message.seq);
    const partner = partnerOf(message);
    const incoming = message.senderId !== me();
    const open = threads.get(partner);
    batch(() => {
      const fresh = open ? open.receive(message) : true;
      if (incoming) setActivity(partner, null);
      const held = known.peek().get(partner);
      if (!held) {
        // A list about to be reloaded brings it anyway; otherwise it is asked for by itself.
        const listReloads = awaitingResume && reloadAfterResume && listStatus.peek() !== 'idle';
        if (fresh && !listReloads) void fetchOne(partner);
        return;
      }
      // Held already (a resend's echo, a resume after a reload): nothing new to count.
      if (!fresh || (held.lastMessage && held.lastMessage.id >= message.id)) return;
      const read = open?.visible === true && open.loaded.peek();
      update(partner, (c) => ({
        ...c,
        lastMessage: message,
        archived: false,
        unreadCount: incoming && !read ? c.unreadCount + 1 : c.unreadCount,
      }));
      // A list not loaded yet takes the order of its first page; a search keeps its matches only.
      if (order.peek().includes(partner) || (query.peek().trim() === '' && listStatus.peek() !== 'idle')) toTop(partner);
    });
  }

  function onReadMessages({ userId, readDate }: ServerMessageOf<'readMessages'>): void {
    if (userId === me()) return;
    update(userId, (c) => (c.lastReadDate !== null && c.lastReadDate >= readDate ? c : { ...c, lastReadDate: readDate }));
  }

  function onReaction({ messageId, userId, reactionId }: ServerMessageOf<'chatReaction'>): void {
    for (const open of threads.values()) {
      const changed = open.applyReaction(messageId, userId, reactionId);
      if (!changed) continue;
      // A reaction of the partner's seen as it arrives is read: it leaves the badge.
      if (userId !== me() && reactionId !== null && open.visible) open.noteSeen();
      update(open.userId, (c) => ({
        ...c,
        lastMessage: c.lastMessage?.id === messageId ? changed : c.lastMessage,
        lastReactionMessage: userId !== me() && reactionId !== null && !open.visible ? changed : c.lastReactionMessage,
      }));
      return;
    }
    // Not in an open thread: the list's preview may still show it.
    for (const [partner, c] of known.peek()) {
      if (c.lastMessage?.id !== messageId) continue;
      const m = c.lastMessage;
      const next = userId === m.senderId ? { ...m, senderReactionId: reactionId } : { ...m, receiverReactionId: reactionId };
      update(partner, (held) => ({ ...held, lastMessage: next, lastReactionMessage: userId !== me() && reactionId !== null ? next : held.lastReactionMessage }));
      return;
    }
  }

  function refuse(msgId: string, refusal: ChatRefusal, data: { price?: number; reason?: string }): void {
    for (const open of threads.values()) {
      if (!open.refuse(msgId, refusal, data)) continue;
      if (refusal === 'notAcceptedPrice' && typeof data.price === 'number') {
        const price = data.price;
        update(open.userId, (c) => ({ ...c, price }));
      }
      if (refusal === 'noCredit') prompt.value = { kind: 'topUp', userId: open.userId, msgId };
      if (refusal === 'emailNotVerified') prompt.value = { kind: 'verifyEmail', userId: open.userId, msgId };
      return;
    }
  }

  function onEvent({ event, userId, data }: ServerMessageOf<'eventMessage'>): void {
    if (CLIENT_ACTIVITY.has(event)) return setActivity(userId, event as ChatActivity);
    if (event === 'stoptyping') return setActivity(userId, null);
    const msgId = typeof data?.msgId === 'string' ? data.msgId : null;
    if ((event === 'notAcceptedPrice' || event === 'noCredit' || event === 'emailNotVerified') && msgId) {
      refuse(msgId, event, typeof data?.price === 'number' ? { price: data.price } : {});
      return;
    }
    if (event === 'mediaChange' && typeof data?.mediaId === 'number' && typeof data.mediaStatus === 'number') {
      for (const open of threads.values()) open.applyMediaStatus(data.mediaId, data.mediaStatus);
    }
  }

  function onError({ ref, msgId, statusText }: ServerMessageOf<'error'>): void {
    if (ref === 'chatMessage' && msgId) refuse(msgId, 'error', { reason: statusText });
    if (ref === 'massChatMessage' && msgId) mass.refused(msgId, statusText);
  }

  // ------------------------------------------------------------------------------------------
  // The viewer's chat stream
  // ------------------------------------------------------------------------------------------

  /**
   * Every message of the viewer's stream up to this position has been seen (null: not known
   * yet). Positions are gapless and commit in order on the server, but two messages may be
   * published in the other order: one that arrives early waits in `ahead` until the hole below
   * it is filled, so a reconnection never resumes past a message that is still on its way.
   */
  let through: number | null = null;
  const ahead = new Set<number>();

  function advance(): void {
    if (through === null) return;
    for (const seq of ahead) if (seq <= through) ahead.delete(seq);
    while (ahead.delete(through + 1)) through += 1;
  }

  function sawPosition(seq: number): void {
    if (through !== null && seq <= through) return;
    ahead.add(seq);
    advance();
  }

  /** A mass message's copies, each with its position in the sender's stream, never sent to the sender one by one. */
  function sawPositions(from: number, to: number): void {
    if (through !== null && from <= through + 1) {
      through = Math.max(through, to);
      advance();
      return;
    }
    for (let seq = from; seq <= to; seq++) ahead.add(seq);
    advance();
  }

  /** The highest position among the messages the page holds (loaded over HTTP or received). */
  function maxHeldSeq(): number {
    let max = 0;
    for (const c of known.peek().values()) max = Math.max(max, c.lastMessage?.seq ?? 0, c.lastReactionMessage?.seq ?? 0);
    for (const open of threads.values()) max = Math.max(max, open.maxSeq());
    return max;
  }

  let resumeTimer: ReturnType<typeof setTimeout> | null = null;
  let awaitingResume = false;
  let reloadAfterResume = false;
  /** The position the pending resume asked after. */
  let resumedAfter = 0;

  function afterReconnect(): void {
    reloadAfterResume = false;
    if (!session.isLoggedIn.peek()) return;
    // The counts are asked again by the notifications store on every reconnection.
    if (listStatus.peek() !== 'idle') void fetchList(true);
    for (const open of threads.values()) {
      // Reactions set while away are not in the stream: the histories shown are read again
      // (what is held already is kept once, by id).
      open.refreshLatest();
      open.markRead();
    }
  }

  /** Resumed messages are in: what is still unacknowledged goes again, then the list is reloaded. */
  function caughtUp(): void {
    if (resumeTimer) clearTimeout(resumeTimer);
    resumeTimer = null;
    awaitingResume = false;
    for (const open of threads.values()) open.resendUnacknowledged();
    if (reloadAfterResume) afterReconnect();
  }

  function resume(after: number): boolean {
    if (!socket.send({ type: 'resume', after })) return false;
    resumedAfter = after;
    awaitingResume = true;
    if (resumeTimer) clearTimeout(resumeTimer);
    // A server that never answers must not keep the list stale.
    resumeTimer = setTimeout(caughtUp, resumeTimeoutMs);
    return true;
  }

  function onOpen(): void {
    if (!session.isLoggedIn.peek()) return;
    if (through === null) {
      const held = maxHeldSeq();
      if (held > 0) {
        // Loaded before the first connection: whatever came after it is asked for.
        through = held;
      } else {
        // Holding nothing, there is nothing to catch up on: what is loaded later is current,
        // and the stream goes on after the position the connection opened at.
        const opened = socket.hello.peek()?.chatSeq;
        if (typeof opened === 'number') through = opened;
      }
      advance();
      if (held === 0) {
        for (const open of threads.values()) open.resendUnacknowledged();
        return;
      }
    }
    if (through !== null && resume(through)) return;
    for (const open of threads.values()) open.resendUnacknowledged();
  }

  function onResumed({ last, more }: ServerMessageOf<'resumed'>): void {
    if (!awaitingResume) return;
    // Everything up to `last` has been sent. Below the position asked after, the server's
    // stream is not the one ours came from (a reset database): its word counts.
    if (through === null || last < resumedAfter) {
      ahead.clear();
      through = last;
    } else through = Math.max(through, last);
    advance();
    // The server sends at most a batch; `more` says it left some behind.
    if (more && resume(through)) return;
    caughtUp();
  }

  const unsubscribe = [
    socket.on('chatMessage', onMessage),
    socket.on('readMessages', onReadMessages),
    socket.on('chatReaction', onReaction),
    socket.on('eventMessage', onEvent),
    socket.on('error', onError),
    socket.on('updateCount', (message) => applyCounts(message)),
    socket.on('massChatMessage', ({ message, seqFrom, seqTo }) => {
      if (typeof seqFrom === 'number' && typeof seqTo === 'number' && seqFrom <= seqTo) sawPositions(seqFrom, seqTo);
      mass.acknowledged(message);
    }),
    socket.on('resumed', onResumed),
    // The list and the counts are reloaded once the resumed messages are in, so each new
    // message is counted by the server's answer and not also by its late arrival.
    socket.on('reconnected', () => {
      if (awaitingResume) reloadAfterResume = true;
      else afterReconnect();
    }),
  ];
  // A logout (or another person logging in) forgets the kept drafts of the one who was in.
  let keeper = session.userId.peek();
  const stopKeeping = effect(() => {
    const viewer = session.userId.value;
    if (keeper !== null && viewer !== keeper) draftStore.clear(keeper);
    keeper = viewer;
  });
  let wasOpen = socket.connectedState.peek() === 'open';
  const stopWatching = effect(() => {
    const state = socket.connectedState.value;
    const open = state === 'open';
    if (open && !wasOpen) onOpen();
    if (!open && wasOpen) for (const thread of threads.values()) thread.holdAcks();
    // No connection is coming back (a widget gave up, the session ended): nothing is on its way.
    if (state === 'failed' || state === 'closed') for (const thread of threads.values()) thread.failUnacknowledged();
    wasOpen = open;
  });

  // ------------------------------------------------------------------------------------------

  function reset(): void {
    generation += 1;
    listController?.abort();
    listController = null;
    for (const open of threads.values()) open.dispose();
    threads.clear();
    for (const timer of activityTimers.values()) clearTimeout(timer);
    activityTimers.clear();
    fetchingOne.clear();
    if (resumeTimer) clearTimeout(resumeTimer);
    resumeTimer = null;
    awaitingResume = false;
    reloadAfterResume = false;
    through = null;
    ahead.clear();
    mass.reset();
    batch(() => {
      known.value = new Map();
      order.value = [];
      listStatus.value = 'idle';
      listError.value = null;
      query.value = '';
      counts.value = { chats: 0, reactions: 0 };
      activity.value = new Map();
      prompt.value = null;
      lastFailure.value = null;
    });
  }

  return {
    conversations: conversations as ReadonlySignal<readonly Conversation[]>,
    conversationsStatus: listStatus as ReadonlySignal<PagedStatus>,
    conversationsError: listError as ReadonlySignal<SdkError | null>,
    query: query as ReadonlySignal<string>,
    loadConversations,
    reloadConversations: () => fetchList(true),
    moreConversations,
    search,
    conversation: conversationSignal,
    archive,
    setCustomPrice,
    setMessagePrice,
    thread,
    activity: activity as ReadonlySignal<ReadonlyMap<number, ChatActivity>>,
    counts: counts as ReadonlySignal<ChatCounts>,
    badgeCount,
    applyCounts,
    refreshCounts,
    prompt: prompt as ReadonlySignal<ChatPrompt | null>,
    clearPrompt(): void {
      prompt.value = null;
    },
    lastFailure: lastFailure as ReadonlySignal<ChatFailureNotice | null>,
    mass: {
      groups: mass.groups,
      loadGroups: mass.loadGroups,
      history: mass.history,
      send: mass.send,
    },
    reset,
    /** Stops listening to the socket (a Fanstage object that is thrown away). */
    dispose(): void {
      reset();
      stopWatching();
      stopKeeping();
      for (const off of unsubscribe) off();
    },
  };
}

export type ChatStore = ReturnType<typeof createChatStore>;

