/**
 * The chat over the websocket: what the server's messages do to the list and the open threads,
 * and catching up after a reconnection (docs/realtime.md "Resume").
 *
 * Every message the server sends names its position in the viewer's chat stream. The store
 * keeps the position up to which it has seen every message (`position.ts`); after a
 * reconnection it asks the server to `resume` after it (again while the server says `more`),
 * for every conversation, open or not. Then it sends the drafts that got no echo again with
 * their msgId, re-reads the histories it shows and reloads the conversation list, so nothing is
 * missed, doubled or counted twice.
 */
import { batch, effect } from '@preact/signals-core';
import type { ServerMessageOf } from '../../../contract/realtime';
import { countsAsUnread, type ChatRefusal } from '../../rules/chat';
import type { FanstageSocket } from '../../socket';
import type { PartnerActivity } from './activity';
import type { Conversations } from './conversations';
import type { MassMessages } from './mass';
import type { ChatNotices } from './notices';
import { createStreamPosition } from './position';
import type { ChatSession, ThreadInternals } from './types';

export interface ChatSyncDeps {
  socket: FanstageSocket;
  session: ChatSession;
  me(): number | null;
  /** How long to wait for `resumed` before reloading the list anyway. */
  resumeTimeoutMs: number;
  /** The open threads, by partner id. */
  threads: ReadonlyMap<number, ThreadInternals>;
  conversations: Conversations;
  activity: PartnerActivity;
  notices: ChatNotices;
  mass: Pick<MassMessages, 'acknowledged' | 'refused'>;
}


/** Listens to the socket until `dispose()`; `reset()` forgets the stream's position (a logout). */
export function createChatSync({ socket, session, me, resumeTimeoutMs, threads, conversations, activity, notices, mass }: ChatSyncDeps) {
  const { known, order, update, toTop } = conversations;
  const position = createStreamPosition();

  // ------------------------------------------------------------------------------------------
  // The server's messages
  // ------------------------------------------------------------------------------------------

  function partnerOf(message: { senderId: number; receiverId: number }): number {
    return message.senderId === me() ? message.receiverId : message.senderId;
  }

  function onMessage({ message }: ServerMessageOf<'chatMessage'>): void {
    if (!session.isLoggedIn.peek()) return;
    if (message.seq !== undefined) position.saw(message.seq);
    const partner = partnerOf(message);
    const incoming = message.senderId !== me();
    const open = threads.get(partner);
    batch(() => {
      const fresh = open ? open.receive(message) : true;
      if (incoming) activity.set(partner, null);
      const held = known.peek().get(partner);
      if (!held) {
        // A list about to be reloaded brings it anyway; otherwise it is asked for by itself.
        const listReloads = awaitingResume && reloadAfterResume && conversations.status.peek() !== 'idle';
        if (fresh && !listReloads) void conversations.fetchOne(partner);
        return;
      }
      // Held already (a resend's echo, a resume after a reload): nothing new to count.
      if (!fresh || (held.lastMessage && held.lastMessage.id >= message.id)) return;
      const read = open?.visible === true && open.loaded.peek();
      update(partner, (c) => ({
        ...c,
        lastMessage: message,
        archived: false,
        unreadCount: incoming && !read && countsAsUnread(message) ? c.unreadCount + 1 : c.unreadCount,
      }));
      // A list not loaded yet takes the order of its first page; a search keeps its matches only.
      if (order.peek().includes(partner) || conversations.listsEveryone()) toTop(partner);
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
      if (refusal === 'notAcceptedPrice' && data.price !== undefined) {
        const price = data.price;
        update(open.userId, (c) => ({ ...c, price }));
      }
      notices.askFor(refusal, open.userId, msgId);
      return;
    }
  }

  /**
   * A moderator deleted a message of the conversation with `partnerId`: it leaves the open
   * thread, and a preview that showed it is read again (the message before it, the counts).
   */
  function forgetMessage(partnerId: number, messageId: number): void {
    threads.get(partnerId)?.forget(messageId);
    if (known.peek().get(partnerId)?.lastMessage?.id !== messageId) return;
    update(partnerId, (c) => ({ ...c, lastMessage: null }));
    void conversations.fetchOne(partnerId, false);
  }

  /** The server's typed notices (`ServerEventData` of lib/contract/realtime.ts), read as they come. */
  function onEvent(message: ServerMessageOf<'eventMessage'>): void {
    const { userId } = message;
    switch (message.event) {
      case 'typing':
      case 'mediaupload':
      case 'audiorecord':
        return activity.set(userId, message.event);
      case 'stoptyping':
        return activity.set(userId, null);
      case 'notAcceptedPrice':
      case 'noCredit':
      case 'emailNotVerified': {
        const { msgId, price } = message.data;
        return refuse(msgId, message.event, price === undefined ? {} : { price });
      }
      case 'messageDeleted':
        return forgetMessage(userId, message.data.messageId);
      case 'mediaChange':
        for (const open of threads.values()) open.applyMediaStatus(message.data.mediaId, message.data.mediaStatus);
        return;
      case 'mediaUnlock': {
        // A chat media this viewer unlocked in another tab: the key comes along, and the thread
        // here shows it open too. (The sender hears of the unlock without a key: nothing to open there.)
        const { mediaId, mediaUnlockHash } = message.data;
        if (mediaUnlockHash) threads.get(userId)?.applyUnlock(mediaId, mediaUnlockHash);
        return;
      }
    }
  }

  function onError({ ref, msgId, statusText, body }: ServerMessageOf<'error'>): void {
    if (ref === 'chatMessage' && msgId && statusText === 'confirmation-required' && body) {
      for (const open of threads.values()) if (open.awaitConfirmation(msgId, body)) return;
    }
    if (ref === 'chatMessage' && msgId) refuse(msgId, 'error', { reason: statusText });
    if (ref === 'massChatMessage' && msgId) mass.refused(msgId, statusText);
  }

  // ------------------------------------------------------------------------------------------
  // Resume and reconnect
  // ------------------------------------------------------------------------------------------

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
    if (conversations.status.peek() !== 'idle') void conversations.fetchList(true);
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
    if (position.through === null) {
      const held = maxHeldSeq();
      if (held > 0) {
        // Loaded before the first connection: whatever came after it is asked for.
        position.start(held);
      } else {
        // Holding nothing, there is nothing to catch up on: what is loaded later is current,
        // and the stream goes on after the position the connection opened at.
        const opened = socket.hello.peek()?.chatSeq;
        if (opened !== undefined) position.start(opened);
      }
      if (held === 0) {
        for (const open of threads.values()) open.resendUnacknowledged();
        return;
      }
    }
    if (position.through !== null && resume(position.through)) return;
    for (const open of threads.values()) open.resendUnacknowledged();
  }

  function onResumed({ last, more }: ServerMessageOf<'resumed'>): void {
    if (!awaitingResume) return;
    // Everything up to `last` has been sent.
    position.resumed(last, resumedAfter);
    // The server sends at most a batch; `more` says it left some behind.
    if (more && position.through !== null && resume(position.through)) return;
    caughtUp();
  }

  const unsubscribe = [
    socket.on('chatMessage', onMessage),
    socket.on('readMessages', onReadMessages),
    socket.on('chatReaction', onReaction),
    socket.on('eventMessage', onEvent),
    socket.on('error', onError),
    socket.on('updateCount', (message) => conversations.applyCounts(message)),
    socket.on('massChatMessage', ({ message, seqFrom, seqTo }) => {
      if (seqFrom !== undefined && seqTo !== undefined) position.sawRange(seqFrom, seqTo);
      mass.acknowledged(message);
    }),
    socket.on('resumed', onResumed),
    // The list and the counts are reloaded once the resumed messages are in, so each new
    // message is counted by the server's answer and not also by its late arrival.
    socket.on('reconnected', () => {
      if (awaitingResume) reloadAfterResume = true;
      else afterReconnect();
    }),
    // The server's link to the other nodes came back: messages may have passed this socket by,
    // so the stream resumes from its position, then the list is reloaded, as after a reconnection.
    socket.on('catchUp', () => {
      if (awaitingResume) {
        reloadAfterResume = true;
        return;
      }
      reloadAfterResume = true;
      if (position.through === null || !resume(position.through)) caughtUp();
    }),
  ];
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

  return {
    /** Forgets the stream's position and any resume on its way (a logout). */
    reset(): void {
      if (resumeTimer) clearTimeout(resumeTimer);
      resumeTimer = null;
      awaitingResume = false;
      reloadAfterResume = false;
      position.reset();
    },
    /** Stops listening to the socket. */
    dispose(): void {
      stopWatching();
      for (const off of unsubscribe) off();
    },
  };
}
