/**
 * The conversation list (SPEC §2 ChatList): every conversation the page knows, by partner id,
 * and the list's order over them, so a change (a new message, a read receipt) shows in the list
 * and the open thread alike; and the badge counts of `GET /api/count/`.
 */
import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import type { Account, Conversation } from '../../../contract';
import type { AccountApi } from '../../api';
import type { ChatApi } from '../../api-chat';
import type { SdkError } from '../../errors';
import { pageSizes } from '../../rules/constants';
import { asSdkError } from '../shared/errors';
import { pageStatusAfter, type PagedStatus } from '../shared/paged';
import type { ChatCounts, ChatSession } from './types';

export interface ConversationsDeps {
  api: ChatApi;
  account: AccountApi;
  session: ChatSession;
  /** Bumped by the store's reset: an answer asked for under an older one is dropped. */
  generation(): number;
  /** The badge counts' request, shared with the notifications store. */
  refreshCounts?: (() => Promise<unknown>) | undefined;
}

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

export function createConversations({ api, account, session, generation, refreshCounts: askCounts }: ConversationsDeps) {
  const pageSize = pageSizes.conversations;
  const known = signal<ReadonlyMap<number, Conversation>>(new Map());
  const order = signal<readonly number[]>([]);
  const status = signal<PagedStatus>('idle');
  const error = signal<SdkError | null>(null);
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
  const fetchingOne = new Map<number, Promise<void>>();
  let listController: AbortController | null = null;

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
    const asOf = generation();
    const offset = reset ? 0 : order.peek().length;
    const q = query.peek().trim();
    batch(() => {
      status.value = 'loading';
      error.value = null;
    });
    try {
      const page = await api.conversations({ limit: pageSize, ...(offset ? { offset } : {}), ...(q ? { q } : {}) }, own.signal);
      if (own.signal.aborted || asOf !== generation()) return;
      batch(() => {
        remember(page.conversations);
        const ids = page.conversations.map((c) => c.id);
        if (reset) order.value = ids;
        else {
          const have = new Set(order.peek());
          order.value = [...order.peek(), ...ids.filter((id) => !have.has(id))];
        }
        status.value = pageStatusAfter(page.conversations.length, pageSize);
      });
    } catch (cause) {
      if (own.signal.aborted || asOf !== generation()) return;
      batch(() => {
        error.value = asSdkError(cause);
        status.value = 'error';
      });
    } finally {
      if (listController === own) listController = null;
    }
  }

  function loadConversations(): Promise<void> {
    return status.peek() === 'idle' ? fetchList(true) : Promise.resolve();
  }

  function moreConversations(): Promise<void> {
    const now = status.peek();
    if (now === 'idle') return fetchList(true);
    if (now === 'loading' || now === 'ended') return Promise.resolve();
    return fetchList(order.peek().length === 0);
  }

  function search(q: string): Promise<void> {
    query.value = q;
    return fetchList(true);
  }

  /** Whether a conversation that comes to the top belongs in the list: a search keeps its matches only. */
  function listsEveryone(): boolean {
    return query.peek().trim() === '' && status.peek() !== 'idle';
  }

  /**
   * One conversation asked for by itself: one the page did not hold (a message from someone
   * new), moved to the top; or, with `moveToTop` false, one whose preview changed in place.
   */
  function fetchOne(userId: number, moveToTop = true): Promise<void> {
    const pending = fetchingOne.get(userId);
    if (pending) return pending;
    const asOf = generation();
    const request = api
      .conversations({ senderId: userId })
      .then((answer) => {
        if (asOf !== generation()) return;
        const conversation = answer.conversations[0];
        if (!conversation) return;
        batch(() => {
          remember([conversation]);
          if (moveToTop && listsEveryone()) toTop(userId);
        });
      })
      .catch(() => undefined)
      .finally(() => fetchingOne.delete(userId));
    fetchingOne.set(userId, request);
    return request;
  }

  function conversation(userId: number): ReadonlySignal<Conversation | null> {
    return computed(() => known.value.get(userId) ?? null);
  }

  /** Changes one field at once and puts it back when the server refuses. */
  async function optimistic<K extends keyof Conversation>(userId: number, field: K, value: Conversation[K], request: () => Promise<unknown>): Promise<void> {
    const held = known.peek().get(userId);
    update(userId, (c) => ({ ...c, [field]: value }));
    try {
      await request();
    } catch (error) {
      if (held) update(userId, (c) => ({ ...c, [field]: held[field] }));
      throw error;
    }
  }

  function archive(userId: number): Promise<void> {
    return optimistic(userId, 'archived', true, () => api.archive(userId));
  }

  function setCustomPrice(userId: number, customPrice: number | null): Promise<void> {
    return optimistic(userId, 'customPrice', customPrice, () => api.setCustomPrice(userId, customPrice));
  }

  async function setMessagePrice(messagePrice: number): Promise<Account> {
    const updated = await account.updateMe({ messagePrice });
    session.setAccount(updated);
    return updated;
  }

  function applyCounts(next: Partial<ChatCounts>): void {
    const current = counts.peek();
    const chats = next.chats === undefined ? current.chats : Math.max(0, Math.floor(next.chats));
    const reactions = next.reactions === undefined ? current.reactions : Math.max(0, Math.floor(next.reactions));
    if (chats !== current.chats || reactions !== current.reactions) counts.value = { chats, reactions };
  }

  function refreshCounts(): Promise<unknown> {
    if (!session.isLoggedIn.peek()) {
      counts.value = { chats: 0, reactions: 0 };
      return Promise.resolve();
    }
    return askCounts?.() ?? Promise.resolve();
  }

  /** Forgets everything; a list request on its way is abandoned. */
  function reset(): void {
    listController?.abort();
    listController = null;
    fetchingOne.clear();
    batch(() => {
      known.value = new Map();
      order.value = [];
      status.value = 'idle';
      error.value = null;
      query.value = '';
      counts.value = { chats: 0, reactions: 0 };
    });
  }

  return {
    known: known as ReadonlySignal<ReadonlyMap<number, Conversation>>,
    order: order as ReadonlySignal<readonly number[]>,
    conversations: conversations as ReadonlySignal<readonly Conversation[]>,
    status: status as ReadonlySignal<PagedStatus>,
    error: error as ReadonlySignal<SdkError | null>,
    query: query as ReadonlySignal<string>,
    counts: counts as ReadonlySignal<ChatCounts>,
    badgeCount,
    remember,
    update,
    toTop,
    listsEveryone,
    fetchList,
    fetchOne,
    loadConversations,
    moreConversations,
    search,
    conversation,
    archive,
    setCustomPrice,
    setMessagePrice,
    applyCounts,
    refreshCounts,
    reset,
  };
}

export type Conversations = ReturnType<typeof createConversations>;
