import { useEffect, useId, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { avatarUrl, chatReactionOf, relativeTime, relativeTimeRefreshMs, type ChatMessage, type Conversation } from '../../sdk';
import { callEntryText } from '../ChatConversation/callEntry';
import { useFanstage } from '../FanstageProvider/context';

/** How long the search waits for the typing to pause before asking the server. */
export const CHAT_SEARCH_DEBOUNCE_MS = 300;
/** SPEC §8: conversation-archived-successfully shows 5 s, a failure (FAILED) 3 s. */
export const ARCHIVED_NOTICE_MS = 5000;
export const ARCHIVE_FAILED_MS = 3000;

export interface ConversationRow {
  userId: number;
  username: string;
  name: string;
  /** "Chat with Lucy": the link's accessible name. */
  label: string;
  href: string;
  avatar: string | null;
  initial: string;
  online: boolean;
  preview: string;
  time: string;
  dateTime: string | null;
  unread: number;
  /** "3 unread messages", for screen readers. */
  unreadLabel: string | null;
  active: boolean;
  typing: boolean;
}

export interface ConversationListState {
  ids: { search: string; list: string };
  rows: ConversationRow[];
  query: string;
  setQuery: (q: string) => void;
  searchable: boolean;
  statusText: string;
  busy: boolean;
  emptyText: string | null;
  errorText: string | null;
  canLoadMore: boolean;
  loadMore: () => void;
  retry: () => void;
  canArchive: boolean;
  archive: (userId: number) => void;
  /** After an archive: done (5 s) or FAILED (3 s). */
  notice: { kind: 'success' | 'error'; text: string } | null;
}

export interface UseConversationListOptions {
  /** The conversation open next to the list (its row shows as current). */
  activeUserId?: number | null;
  /** Where a row leads; `/chat/{username}` by default (the site's route). */
  hrefFor?: (conversation: Conversation) => string;
  /** Shows only this many, without paging (SPEC §9: the chat aside shows 8). */
  limit?: number;
  /** The search box (default true). */
  search?: boolean;
  /** Archive buttons on the rows (default true). */
  archive?: boolean;
  now?: () => number;
}

function nameOf(conversation: Conversation): string {
  return conversation.sender.displayName.trim() || conversation.sender.username;
}

/** The viewer's conversations (SPEC §2 ChatList) as render-ready rows, live as messages come. */
export function useConversationList({
  activeUserId = null,
  hrefFor = (c) => `/chat/${encodeURIComponent(c.sender.username)}`,
  limit,
  search = true,
  archive = true,
  now = Date.now,
}: UseConversationListOptions = {}): ConversationListState {
  useSignals();
  const { chat, settings, session } = useFanstage();
  const { t, i18n } = useTranslation();
  const base = useId();
  const [query, setQueryState] = useState(() => chat.query.peek());
  const [notice, setNotice] = useState<ConversationListState['notice']>(null);
  const [, setTick] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const loggedIn = session.isLoggedIn.value;

  useEffect(() => {
    if (!loggedIn) return;
    void chat.loadConversations();
    if (settings.status.peek() === 'idle') settings.load().catch(() => undefined);
  }, [chat, settings, loggedIn]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  useEffect(() => {
    if (!notice) return;
    const id = setTimeout(() => setNotice(null), notice.kind === 'success' ? ARCHIVED_NOTICE_MS : ARCHIVE_FAILED_MS);
    return () => clearTimeout(id);
  }, [notice]);

  const all = chat.conversations.value;
  const list = limit === undefined ? all : all.slice(0, limit);
  const status = chat.conversationsStatus.value;
  const error = chat.conversationsError.value;
  const activity = chat.activity.value;
  const viewerId = session.userId.value;
  const cdn = settings.settings.value?.mediaCDN ?? null;
  const at = now();

  // Relative times age while the list stays open.
  const newest = list[0]?.lastMessage?.sendDt;
  useEffect(() => {
    if (newest === undefined) return;
    const every = relativeTimeRefreshMs(newest, Date.now());
    if (every === null) return;
    const id = setInterval(() => setTick((n) => n + 1), every);
    return () => clearInterval(id);
  }, [newest]);

  const language = i18n.resolvedLanguage ?? i18n.language;
  const dateFormat = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short' });

  function timeOf(ts: number): string {
    const relative = relativeTime(ts, at);
    if (relative.key === 'date') return dateFormat.format(relative.date);
    if (relative.key === 'justNow') return t('time.justNow');
    return t(`time.${relative.key}`, { count: relative.count });
  }

  function previewOf(conversation: Conversation, name: string): string {
    if (activity.get(conversation.id) === 'typing') return t('chat.activity.typing', { name });
    const reacted = conversation.lastReactionMessage;
    if (reacted && reacted.senderId === viewerId) {
      const reaction = chatReactionOf(reacted.receiverReactionId);
      if (reaction) return t('chat.list.reacted', { name, reaction: reaction.symbol });
    }
    const message: ChatMessage | null = conversation.lastMessage;
    if (!message) return t('chat.list.noMessages');
    // A call entry reads as in the conversation, with no "You:" (the text says whose call it was).
    if (message.call) return callEntryText(t, message.call, message.senderId === viewerId).text;
    const body = message.text || (message.giftId !== null ? t('chat.list.gift') : message.media ? t(`chat.list.${message.media.mediaType}`) : '');
    return message.senderId === viewerId ? t('chat.list.mine', { text: body }) : body;
  }

  const rows: ConversationRow[] = list.map((conversation) => {
    const name = nameOf(conversation);
    const sendDt = conversation.lastMessage?.sendDt ?? null;
    return {
      userId: conversation.id,
      username: conversation.sender.username,
      name,
      label: t('chat.list.open', { name }),
      href: hrefFor(conversation),
      avatar: cdn ? avatarUrl(cdn, conversation.sender.avatarMedia, 60) : null,
      initial: Array.from(name)[0]?.toLocaleUpperCase() ?? '?',
      online: conversation.sender.online,
      preview: previewOf(conversation, name),
      time: sendDt === null ? '' : timeOf(sendDt),
      dateTime: sendDt === null ? null : new Date(sendDt).toISOString(),
      unread: conversation.unreadCount,
      unreadLabel: conversation.unreadCount > 99 ? t('chat.list.unreadMore') : conversation.unreadCount > 0 ? t('chat.list.unread', { count: conversation.unreadCount }) : null,
      active: conversation.id === activeUserId,
      typing: activity.get(conversation.id) === 'typing',
    };
  });

  const loading = status === 'loading';
  const q = chat.query.value.trim();

  return {
    ids: { search: `${base}-search`, list: `${base}-list` },
    rows,
    query,
    setQuery: (next) => {
      setQueryState(next);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void chat.search(next), CHAT_SEARCH_DEBOUNCE_MS);
    },
    searchable: search,
    statusText: loading ? t('chat.list.loading') : '',
    busy: loading,
    emptyText: !loading && status !== 'idle' && status !== 'error' && rows.length === 0 ? (q ? t('chat.list.noResults', { q }) : t('chat.list.empty')) : null,
    errorText: status === 'error' && error ? t([`errors.${error.code}`, 'chat.list.failed']) : null,
    canLoadMore: limit === undefined && status === 'ready',
    loadMore: () => void chat.moreConversations(),
    retry: () => void (all.length === 0 ? chat.reloadConversations() : chat.moreConversations()),
    canArchive: archive,
    archive: (userId) => {
      chat.archive(userId).then(
        () => setNotice({ kind: 'success', text: t('chat.list.archived') }),
        (cause: unknown) => setNotice({ kind: 'error', text: t([`errors.${(cause as { code?: string }).code ?? 'FAILED'}`, 'chat.list.archiveFailed']) }),
      );
    },
    notice,
  };
}
