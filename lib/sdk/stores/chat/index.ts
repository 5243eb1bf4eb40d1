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
 *
 * The parts, one file each: `conversations.ts` (the list and the badge counts), `thread.ts` (an
 * open conversation and its drafts), `mass.ts` (mass messages), `sync.ts` (the socket's messages,
 * resume and reconnect) with `position.ts` (the stream position), `activity.ts` (partners'
 * indicators) and `notices.ts` (prompts and failure notices). What other stores share with
 * them (paged lists, idempotency keys, failures) is in `../shared/`.
 */
import { batch, effect } from '@preact/signals-core';
import type { FanstageClient } from '../../client';
import type { FanstageSocket } from '../../socket';
import { accountApi } from '../../api';
import { chatApi } from '../../api-chat';
import { createChatDraftStore, defaultChatDraftStorage } from '../chatDrafts';
import { createPartnerActivity } from './activity';
import { createConversations } from './conversations';
import { createMassMessages } from './mass';
import { createChatNotices } from './notices';
import { createChatSync } from './sync';
import { createThread } from './thread';
import type { ChatSession, ChatStoreOptions, ChatThread, ThreadInternals } from './types';

export type {
  ChatSession,
  ChatStoreOptions,
  ChatActivity,
  ChatItem,
  ChatDraftInput,
  ChatSendProblem,
  ChatSendResult,
  ChatPrompt,
  ChatFailureNotice,
  MassConversation,
  ChatCounts,
  ChatThread,
} from './types';

export function createChatStore(client: FanstageClient, socket: FanstageSocket, session: ChatSession, options: ChatStoreOptions = {}) {
  const api = chatApi(client);
  const now = options.now ?? (() => Date.now());
  const ackTimeoutMs = options.ackTimeoutMs ?? 15_000;
  const me = () => session.userId.peek();
  const draftStore = createChatDraftStore(options.draftStorage === undefined ? defaultChatDraftStorage() : options.draftStorage, options.draftLimits);
  // Bumped by reset, so an answer that arrives after a logout is dropped.
  let generation = 0;
  const currentGeneration = () => generation;

  const conversations = createConversations({ api, account: accountApi(client), session, generation: currentGeneration, refreshCounts: options.refreshCounts });
  const activity = createPartnerActivity();
  const notices = createChatNotices();
  const mass = createMassMessages({ api, socket, me, ackTimeoutMs, generation: currentGeneration, conversations });
  const threads = new Map<number, ThreadInternals>();

  function thread(userId: number): ChatThread {
    let existing = threads.get(userId);
    if (!existing) {
      existing = createThread(
        { api, socket, session, me, now, ackTimeoutMs, draftStore, generation: currentGeneration, conversations, activity: activity.activity, notices, confirmSpend: (ref) => client.confirmSpend(ref) },
        userId,
      );
      threads.set(userId, existing);
    }
    return existing;
  }

  // A logout (or another person logging in) forgets the kept drafts of the one who was in.
  let keeper = session.userId.peek();
  const stopKeeping = effect(() => {
    const viewer = session.userId.value;
    if (keeper !== null && viewer !== keeper) draftStore.clear(keeper);
    keeper = viewer;
  });
  const sync = createChatSync({ socket, session, me, resumeTimeoutMs: options.resumeTimeoutMs ?? 5_000, threads, conversations, activity, notices, mass });

  function reset(): void {
    generation += 1;
    batch(() => {
      conversations.reset();
      for (const open of threads.values()) open.dispose();
      threads.clear();
      activity.reset();
      sync.reset();
      mass.reset();
      notices.reset();
    });
  }

  return {
    conversations: conversations.conversations,
    conversationsStatus: conversations.status,
    conversationsError: conversations.error,
    query: conversations.query,
    loadConversations: conversations.loadConversations,
    reloadConversations: () => conversations.fetchList(true),
    moreConversations: conversations.moreConversations,
    search: conversations.search,
    conversation: conversations.conversation,
    archive: conversations.archive,
    setCustomPrice: conversations.setCustomPrice,
    setMessagePrice: conversations.setMessagePrice,
    thread,
    activity: activity.activity,
    counts: conversations.counts,
    badgeCount: conversations.badgeCount,
    applyCounts: conversations.applyCounts,
    refreshCounts: conversations.refreshCounts,
    prompt: notices.prompt,
    clearPrompt: notices.clearPrompt,
    lastFailure: notices.lastFailure,
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
      sync.dispose();
      stopKeeping();
    },
  };
}

export type ChatStore = ReturnType<typeof createChatStore>;
