/**
 * One open conversation (SPEC §2 ChatOpened, §4 failed drafts and read state): its history,
 * page by page, and the viewer's drafts until the server's echo stores them. A draft carries a
 * fresh `msgId` (its idempotency key), kept through every resend, so a message that did arrive
 * after all is stored and charged once; unsent drafts are kept in the draft storage so they
 * survive a reload.
 *
 * Past 400 lines on purpose: the history and the drafts are one list the person sees, and every
 * move of a draft (sent, echoed, refused, resent, read) changes both together under one
 * generation check. Split, the halves would pass the same mutable list and timers between them.
 */
import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import type { ChatHistory, ChatMedia, ChatMessage, SpendRequest, SpendRequestRef } from '../../../contract';
import { goesOn } from '../../spendConfirm';
import type { ChatFailure } from '../../../contract/constants';
import type { ClientEvent } from '../../../contract/realtime';
import type { ChatApi } from '../../api-chat';
import type { SdkError } from '../../errors';
import { pageSizes } from '../../rules/constants';
import { chatDraftProblem, chatFailureOf, chatRecipientProblem, deliveryState, typingTimings, withTimeGaps } from '../../rules/chat';
import type { FanstageSocket } from '../../socket';
import type { ChatDraftStore, StoredChatDraft } from '../chatDrafts';
import { asSdkError } from '../shared/errors';
import { newIdempotencyKey } from '../shared/keys';
import { pageStatusAfter, type PagedStatus } from '../shared/paged';
import type { Conversations } from './conversations';
import type { ChatNotices } from './notices';
import type { ChatActivity, ChatDraftInput, ChatItem, ChatSendResult, ChatSession, ThreadInternals } from './types';

/** What a thread needs of the rest of the store. */
export interface ThreadDeps {
  api: ChatApi;
  socket: FanstageSocket;
  session: ChatSession;
  me(): number | null;
  now(): number;
  /** How long a sent message may wait for its echo before it shows as failed. */
  ackTimeoutMs: number;
  draftStore: ChatDraftStore;
  /** Bumped by the store's reset: an answer asked for under an older one is dropped. */
  generation(): number;
  conversations: Pick<Conversations, 'conversation' | 'remember' | 'update' | 'applyCounts' | 'counts'>;
  activity: ReadonlySignal<ReadonlyMap<number, ChatActivity>>;
  notices: Pick<ChatNotices, 'ask' | 'dismiss' | 'failed'>;
  /** Asks the fan to confirm a spend (the client's confirmer); null when the page has none. */
  confirmSpend(ref: SpendRequestRef): Promise<SpendRequest> | null;
}

/** A draft of the viewer's, as kept (in memory and in the draft storage) until the server stores it. */
type Draft = StoredChatDraft;

export function createThread(deps: ThreadDeps, userId: number): ThreadInternals {
  const { api, socket, session, me, now, ackTimeoutMs, draftStore, generation, conversations, activity, notices, confirmSpend } = deps;
  const historySize = pageSizes.chatHistory;
  const conversation = conversations.conversation(userId);
  const stored = signal<readonly ChatMessage[]>([]);
  const drafts = signal<readonly Draft[]>([]);
  const status = signal<PagedStatus>('idle');
  const error = signal<SdkError | null>(null);
  const loaded = signal(false);
  // Until the conversation is loaded its price is unknown, and a message goes only at the
  // price the person was shown: sent now, it would go at 0 and come back not delivered.
  const priceKnown = computed(() => conversation.value !== null || loaded.value);
  const partnerActivity = computed(() => activity.value.get(userId) ?? null);
  const ackTimers = new Map<string, ReturnType<typeof setTimeout>>();
  /** The spend requests the fan confirmed for drafts of this thread, sent with their next dispatch. */
  const confirmations = new Map<string, string>();
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
    notices.failed(userId, msgId, failure);
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
      notices.ask('verifyEmail', userId, msgId);
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
      ...(confirmations.has(msgId) ? { confirmation: confirmations.get(msgId) } : {}),
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
    const asOf = generation();
    const oldest = stored.peek()[0];
    batch(() => {
      status.value = 'loading';
      error.value = null;
    });
    let page: ChatHistory;
    try {
      page = await api.history(userId, { limit: historySize, ...(older && oldest ? { ts: oldest.sendDt } : {}) }, own.signal);
    } catch (cause) {
      if (own.signal.aborted || asOf !== generation()) return;
      batch(() => {
        error.value = asSdkError(cause);
        status.value = 'error';
      });
      return;
    } finally {
      if (controller === own) controller = null;
    }
    if (own.signal.aborted || asOf !== generation()) return;
    batch(() => {
      conversations.remember([page.conversation]);
      mergeStored(page.messages);
      // Echoes of drafts may be in the page (sent from here just before a reload).
      const ids = new Set(page.messages.filter((m) => m.senderId === me()).map((m) => m.msgId));
      if (ids.size > 0 && drafts.peek().some((d) => ids.has(d.msgId))) setDrafts(drafts.peek().filter((d) => !ids.has(d.msgId)));
      status.value = pageStatusAfter(page.messages.length, historySize);
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
    if (!priceKnown.peek()) return { ok: false, problem: 'loading' };
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
    notices.dismiss(msgId);
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
      conversations.update(userId, (c) => ({ ...c, unreadCount: 0, lastReactionMessage: null }));
      // The server's updateCount confirms it; the badge need not wait for that.
      if (held.unreadCount > 0) conversations.applyCounts({ chats: conversations.counts.peek().chats - 1 });
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
    priceKnown,
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
    awaitConfirmation(msgId, ref) {
      if (!drafts.peek().some((d) => d.msgId === msgId)) return false;
      // The fan may take his time in the popup: no echo is due until he answered.
      clearAck(msgId);
      const asked = confirmSpend(ref);
      if (asked === null) {
        fail(msgId, 'not_delivered-general', 'confirmation-required');
        return true;
      }
      asked.then(
        (answer) => {
          if (!goesOn(answer)) {
            fail(msgId, 'not_delivered-general', 'spend-cancelled');
            return;
          }
          confirmations.set(msgId, answer.id);
          dispatch(msgId);
        },
        (error: unknown) => fail(msgId, 'not_delivered-general', asSdkError(error).code),
      );
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
    forget(messageId) {
      const held = stored.peek();
      if (!held.some((m) => m.id === messageId)) return false;
      stored.value = held.filter((m) => m.id !== messageId);
      return true;
    },
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
