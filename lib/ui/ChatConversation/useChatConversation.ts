import { useEffect, useMemo, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import {
  avatarUrl,
  chatReactionOf,
  chatReactions,
  formatDuration,
  formatPrice,
  isLocked,
  mediaUrl,
  postMediaUrl,
  SALT_UNIT,
  type ChatItem,
  type ChatReaction,
  type ChatThread,
  type DeliveryState,
  type Gift,
  type PublicProfile,
} from '../../sdk';
import type { ChatFailure } from '../../contract/constants';
import { useFanstage } from '../FanstageProvider/context';
import { giftName } from '../GiftPicker/giftName';
import { useGifts } from '../GiftPicker/useGifts';
import { isMuted, playSound } from '../sound';
import type { UnlockSource } from '../UnlockMediaPopup/useUnlockMedia';
import { callEntryText, type CallEntryText } from './callEntry';
import { useChatConnection } from './useChatConnection';

export interface ChatMediaView {
  kind: 'image' | 'video' | 'voice';
  locked: boolean;
  src: string;
  poster: string | null;
  /** What unlocking costs, as the fan pays it. */
  price: string;
  duration: string | null;
  label: string;
  aspectRatio: number;
  color: string | null;
}

export interface ChatReactionView {
  reaction: ChatReaction;
  /** "Lucy reacted: love". */
  label: string;
}

export interface ChatMessageView {
  key: string;
  id: number | null;
  mine: boolean;
  text: string;
  time: string;
  dateTime: string;
  state: DeliveryState;
  /** The state's name for screen readers (the icon's label): Sending, Sent, Read, Not delivered. */
  stateLabel: string;
  failure: ChatFailure | null;
  /** Why the draft was not delivered, and what can be done. */
  failureText: string | null;
  /** not_delivered: the button that pays the new price and sends again. */
  acceptLabel: string | null;
  /** What the viewer paid for it (their own paid messages). */
  paid: string | null;
  media: ChatMediaView | null;
  gift: { name: string; picture: string | null; price: string } | null;
  suspected: boolean;
  reactions: ChatReactionView[];
  /** The viewer's own reaction, for the picker's pressed state. */
  myReactionId: number | null;
  canReact: boolean;
}

/** A call entry (docs/calls.md "In the chat"): a centred line of the history, not a bubble. */
export interface ChatCallView {
  key: string;
  /** "Video call · 3:02 · $4.80", "Missed video call". */
  text: string;
  tone: CallEntryText['tone'];
  time: string;
  dateTime: string;
}

export type ChatRowView =
  | { kind: 'gap'; key: string; label: string; dateTime: string }
  | { kind: 'message'; key: string; message: ChatMessageView }
  | { kind: 'call'; key: string; call: ChatCallView };

export interface ChatConversationState {
  thread: ChatThread;
  partner: PublicProfile | null;
  /** The partner's display name (or username); empty until known. */
  name: string;
  avatar: string | null;
  initial: string;
  rows: ChatRowView[];
  /** Loading the first page, or the conversation's start reached. */
  statusText: string;
  loading: boolean;
  errorText: string | null;
  canLoadOlder: boolean;
  /** "Lucy is typing…" */
  activityText: string | null;
  /** The latest message from the partner, for the live region. */
  announcement: string;
  connection: ReturnType<typeof useChatConnection>;
  /** The draft a refusal is being handled for: buying credits, or verifying the e-mail. */
  prompt: { kind: 'topUp' | 'verifyEmail'; msgId: string } | null;
  /** The media being unlocked. */
  unlock: UnlockSource | null;
  reactions: readonly ChatReaction[];
  reactionName: (reaction: ChatReaction) => string;
  retry: () => void;
  loadOlder: () => void;
  resend: (key: string) => void;
  acceptPrice: (key: string) => void;
  discard: (key: string) => void;
  buyCredits: (key: string) => void;
  verifyEmail: (key: string) => void;
  promptDone: (bought: boolean) => void;
  react: (messageId: number, reactionId: number | null) => void;
  openUnlock: (key: string) => void;
  closeUnlock: () => void;
}

export interface UseChatConversationOptions {
  /** The partner's user id. */
  userId: number;
  /** Whether the conversation is on screen, for read receipts; default true (the page's own visibility still counts). */
  visible?: boolean;
  /** Connects the websocket when it is not (default true): a chat without it cannot send. */
  connect?: boolean;
  now?: () => number;
}

function nameOf(profile: PublicProfile | null | undefined): string {
  return profile ? profile.displayName.trim() || profile.username : '';
}

/** Whether the page itself is shown (a background tab reads nothing). */
function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => typeof document === 'undefined' || document.visibilityState !== 'hidden');
  useEffect(() => {
    if (typeof document === 'undefined') return;
    const update = () => setVisible(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return visible;
}

/**
 * One conversation as render-ready rows (SPEC §2 ChatOpened): the history newest at the
 * bottom with time markers, read-state icons, failed drafts with what can be done about them,
 * gifts, locked media, reactions; the partner's typing; read receipts while it is shown.
 */
export function useChatConversation({ userId, visible = true, connect = true, now = Date.now }: UseChatConversationOptions): ChatConversationState {
  useSignals();
  const fanstage = useFanstage();
  const { chat, settings, session } = fanstage;
  const { t, i18n } = useTranslation();
  const thread = useMemo(() => chat.thread(userId), [chat, userId]);
  const connection = useChatConnection({ connect });
  const pageVisible = usePageVisible();
  const { gifts, pictureOf } = useGifts();
  const [unlockKey, setUnlockKey] = useState<string | null>(null);
  const [handling, setHandling] = useState<{ kind: 'topUp' | 'verifyEmail'; msgId: string } | null>(null);

  useEffect(() => {
    void thread.load();
    if (settings.status.peek() === 'idle') settings.load().catch(() => undefined);
  }, [thread, settings]);

  const shown = visible && pageVisible;
  useEffect(() => {
    thread.setVisible(shown);
    return () => thread.setVisible(false);
  }, [thread, shown]);

  // SPEC §8: a raised price or missing credits are an error sound; the e-mail opens its popup.
  const failure = chat.lastFailure.value;
  const heard = useRef(failure?.serial ?? 0);
  useEffect(() => {
    if (!failure || failure.serial === heard.current) return;
    heard.current = failure.serial;
    if (failure.userId === userId && (failure.failure === 'not_delivered' || failure.failure === 'no_credit')) playSound('error', { muted: isMuted(session.account.peek()) });
  }, [failure, userId, session]);

  // The store asks for a top-up or a verification; this conversation answers for its own drafts.
  const asked = chat.prompt.value;
  useEffect(() => {
    if (asked && asked.userId === userId) {
      setHandling({ kind: asked.kind, msgId: asked.msgId });
      chat.clearPrompt();
    }
  }, [asked, userId, chat]);

  const conversation = thread.conversation.value;
  const items = thread.rows.value;
  const status = thread.status.value;
  const error = thread.error.value;
  const loaded = thread.loaded.value;
  const activity = thread.partnerActivity.value;
  const cdn = settings.settings.value?.mediaCDN ?? null;
  const salt = settings.settings.value?.salt ?? SALT_UNIT;
  const partner = conversation?.sender ?? null;
  const name = nameOf(partner);
  const language = i18n.resolvedLanguage ?? i18n.language;

  const stamp = useMemo(() => new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit' }), [language]);
  const longStamp = useMemo(() => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }), [language]);
  const dayStart = new Date(now());
  dayStart.setHours(0, 0, 0, 0);

  function gapLabel(at: number): string {
    // Today's markers need no date; older ones do.
    return at >= dayStart.getTime() ? t('chat.today', { time: stamp.format(at) }) : longStamp.format(at);
  }

  function reactionName(reaction: ChatReaction): string {
    return t(`chat.reaction.${reaction.name}`);
  }

  function failureText(item: ChatItem): string | null {
    switch (item.failure) {
      case null:
        return null;
      case 'not_delivered':
        return item.newPrice !== null ? t('chat.failure.priceRaised', { price: formatPrice(item.newPrice, salt, t('price.free')) }) : t('chat.failure.not_delivered');
      case 'no_credit':
        return t('chat.failure.no_credit');
      case 'waiting_for_email':
        return t('chat.failure.waiting_for_email');
      case 'not_delivered-general':
        return item.reason ? t([`errors.${item.reason}`, 'chat.failure.not_delivered-general']) : t('chat.failure.not_delivered-general');
    }
  }

  function mediaOf(item: ChatItem): ChatMediaView | null {
    const media = item.media;
    if (!media || !cdn || media.mediaStatus === 4) return null;
    const locked = !item.mine && !media.mediaUnlocked && isLocked(media);
    const kind = media.mediaType;
    const who = item.mine ? t('chat.you') : name;
    return {
      kind,
      locked,
      src: locked ? mediaUrl(cdn, media, { variant: 'blur' }) : postMediaUrl(cdn, media, kind === 'image' ? 640 : undefined),
      poster: kind === 'video' ? postMediaUrl(cdn, media, locked ? 'blur' : 'poster') : null,
      price: formatPrice(media.mediaPrice, salt, t('price.free')),
      duration: media.mediaDuration ? formatDuration(media.mediaDuration) : null,
      label: t(`chat.media.${kind}`, { name: who }),
      aspectRatio: media.mediaAspectRatio > 0 ? media.mediaAspectRatio : 1,
      color: media.mediaDominantColor || null,
    };
  }

  function giftOf(item: ChatItem): ChatMessageView['gift'] {
    if (item.giftId === null) return null;
    const gift: Gift | undefined = gifts?.find((g) => g.id === item.giftId);
    return gift ? { name: giftName(t, gift), picture: pictureOf(gift), price: formatPrice(gift.gValue, SALT_UNIT) } : { name: t('chat.gift.unknown'), picture: null, price: '' };
  }

  function reactionsOf(item: ChatItem): ChatReactionView[] {
    const out: ChatReactionView[] = [];
    const senderName = item.mine ? t('chat.you') : name;
    const receiverName = item.mine ? name : t('chat.you');
    const bySender = chatReactionOf(item.senderReactionId);
    const byReceiver = chatReactionOf(item.receiverReactionId);
    if (bySender) out.push({ reaction: bySender, label: t('chat.reacted', { name: senderName, reaction: reactionName(bySender) }) });
    if (byReceiver) out.push({ reaction: byReceiver, label: t('chat.reacted', { name: receiverName, reaction: reactionName(byReceiver) }) });
    return out;
  }

  const rows: ChatRowView[] = items.map((row) => {
    if (row.kind === 'gap') return { kind: 'gap', key: row.key, label: gapLabel(row.at), dateTime: new Date(row.at).toISOString() };
    const item = row.message;
    if (item.call) {
      const entry = callEntryText(t, item.call, item.mine);
      const dateTime = new Date(item.sendDt).toISOString();
      return { kind: 'call', key: row.key, call: { key: item.key, text: entry.text, tone: entry.tone, time: stamp.format(item.sendDt), dateTime } };
    }
    return {
      kind: 'message',
      key: row.key,
      message: {
        key: item.key,
        id: item.id,
        mine: item.mine,
        text: item.text,
        time: stamp.format(item.sendDt),
        dateTime: new Date(item.sendDt).toISOString(),
        state: item.state,
        stateLabel: t(`chat.state.${item.state}`),
        failure: item.failure,
        failureText: failureText(item),
        acceptLabel: item.failure === 'not_delivered' && item.newPrice !== null ? t('chat.acceptPrice', { price: formatPrice(item.newPrice, salt, t('price.free')) }) : null,
        paid: item.mine && item.price > 0 && item.id !== null ? formatPrice(item.price, salt) : null,
        media: mediaOf(item),
        gift: giftOf(item),
        suspected: item.suspectedState === 1,
        reactions: reactionsOf(item),
        myReactionId: item.mine ? item.senderReactionId : item.receiverReactionId,
        canReact: item.id !== null,
      },
    };
  });

  const lastIncoming = [...items].reverse().find((row) => row.kind === 'message' && !row.message.mine);
  const incomingCall = lastIncoming?.kind === 'message' ? lastIncoming.message.call : undefined;
  const announcement =
    lastIncoming && lastIncoming.kind === 'message' && loaded
      ? incomingCall
        ? callEntryText(t, incomingCall, false).text
        : t('chat.announce', {
            name,
            text: lastIncoming.message.text || (lastIncoming.message.giftId !== null ? t('chat.gift.received') : lastIncoming.message.media ? t('chat.media.received') : ''),
          })
      : '';

  const byKey = (key: string): ChatItem | undefined => thread.items.peek().find((item) => item.key === key);
  const unlockItem = unlockKey ? byKey(unlockKey) : undefined;
  const unlock: UnlockSource | null =
    unlockItem?.media && partner
      ? {
          media: unlockItem.media,
          ownerId: partner.id,
          byline: t('chat.media.from', { name }),
          offersSubscriptions: partner.offersSubscriptions,
          applyUnlock: (mediaId, key) => thread.applyUnlock(mediaId, key),
          applyPrice: (mediaId, price) => thread.applyMediaPrice(mediaId, price),
        }
      : null;

  const loading = status === 'loading' && !loaded;
  const statusText = loading ? t('chat.loading') : loaded && status === 'ended' ? (items.length === 0 ? t('chat.empty', { name }) : t('chat.start')) : '';

  return {
    thread,
    partner,
    name,
    avatar: cdn && partner ? avatarUrl(cdn, partner.avatarMedia, 120) : null,
    initial: Array.from(name)[0]?.toLocaleUpperCase() ?? '?',
    rows,
    statusText,
    loading,
    errorText: error && status === 'error' ? t([`errors.${error.code}`, 'chat.loadFailed']) : null,
    canLoadOlder: loaded && status === 'ready',
    activityText: activity ? t(`chat.activity.${activity}`, { name }) : null,
    announcement,
    connection,
    prompt: handling,
    unlock,
    reactions: chatReactions,
    reactionName,
    retry: () => void (loaded ? thread.loadOlder() : thread.reload()),
    loadOlder: () => void thread.loadOlder(),
    resend: (key) => {
      const item = byKey(key);
      if (item) thread.resend(item.msgId);
    },
    acceptPrice: (key) => {
      const item = byKey(key);
      if (item) thread.acceptPrice(item.msgId);
    },
    discard: (key) => {
      const item = byKey(key);
      if (item) thread.discard(item.msgId);
    },
    buyCredits: (key) => {
      const item = byKey(key);
      if (item) setHandling({ kind: 'topUp', msgId: item.msgId });
    },
    verifyEmail: (key) => {
      const item = byKey(key);
      if (item) setHandling({ kind: 'verifyEmail', msgId: item.msgId });
    },
    promptDone: (bought) => {
      const current = handling;
      setHandling(null);
      // Credits bought for this message: it goes out at once, as the person meant it to.
      if (current?.kind === 'topUp' && bought) thread.resend(current.msgId);
      // A verified e-mail (the account reloaded) lets a waiting message go too.
      if (current?.kind === 'verifyEmail' && session.account.peek()?.emailVerified) thread.resend(current.msgId);
    },
    react: (messageId, reactionId) => void thread.react(messageId, reactionId),
    openUnlock: setUnlockKey,
    closeUnlock: () => setUnlockKey(null),
  };
}
