import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { ChatLimits } from '../../contract/constants';
import { chatRecipientProblem, formatPrice, priceSteps, SALT_UNIT, type FileLike, type Gift, type UploadProblem } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';
import { useGifts } from '../GiftPicker/useGifts';

export type AttachKind = 'media' | 'voice';

export interface ChatComposerState {
  text: string;
  onText: (value: string) => void;
  /** Enter sends, Shift+Enter starts a new line (and IME composition is left alone). */
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
  send: () => void;
  canSend: boolean;
  /** Why nothing can be written here (a chat with oneself, nobody logged in). */
  disabledText: string | null;
  /** Why the last send did not go (too long). */
  alert: string | null;
  uploading: boolean;
  /** 0–100 while a file travels. */
  progress: number;
  uploadText: string | null;
  attach: (files: ArrayLike<Blob & FileLike> | null, kind: AttachKind) => void;
  cancelUpload: () => void;
  uploadProblem: UploadProblem | null;
  /** The last file kind asked for, so 'Choose other media' reopens the same picker. */
  lastKind: AttachKind;
  dismissProblem: () => void;
  verifying: boolean;
  closeVerify: () => void;
  /** Gifts go to creators only (the server refuses others). */
  canGift: boolean;
  giftOpen: boolean;
  openGifts: () => void;
  closeGifts: () => void;
  gifts: readonly Gift[] | null;
  giftsFailed: boolean;
  pictureOf: (gift: Gift) => string | null;
  giftId: number | null;
  selectGift: (gift: Gift) => void;
  sendGift: () => void;
  /** Sellers price the media they send (SPEC §9 chat-media steps). */
  seller: boolean;
  mediaPrice: number;
  setMediaPrice: (cents: number) => void;
  mediaPriceOptions: { cents: number; label: string }[];
  maxLength: number;
}

export interface UseChatComposerOptions {
  /** The partner's user id. */
  userId: number;
  /** Told after each message handed to the socket. */
  onSent?: (msgId: string) => void;
}

/** Writing in a conversation: text, a media or a voice note with upload progress, a gift; typing indicators on the way. */
export function useChatComposer({ userId, onSent }: UseChatComposerOptions): ChatComposerState {
  useSignals();
  const { chat, session, uploads, settings } = useFanstage();
  const { t } = useTranslation();
  const thread = useMemo(() => chat.thread(userId), [chat, userId]);
  const upload = useMemo(() => uploads.create(), [uploads]);
  const { gifts, error: giftsError, pictureOf } = useGifts();
  const [text, setText] = useState('');
  const [alert, setAlert] = useState<string | null>(null);
  const [giftOpen, setGiftOpen] = useState(false);
  const [giftId, setGiftId] = useState<number | null>(null);
  const [mediaPrice, setMediaPrice] = useState(0);
  const [lastKind, setLastKind] = useState<AttachKind>('media');
  const [verifying, setVerifying] = useState(false);
  const [problem, setProblem] = useState<UploadProblem | null>(null);
  const live = useRef(true);

  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
      upload.cancel();
      thread.stopTyping();
    };
  }, [upload, thread]);

  const account = session.account.value;
  const viewerId = session.userId.value;
  const loggedIn = session.isLoggedIn.value;
  const partner = thread.conversation.value?.sender ?? null;
  const status = upload.status.value;
  const progress = upload.progress.value;
  const salt = settings.settings.value?.salt ?? SALT_UNIT;
  const recipient = chatRecipientProblem(viewerId, userId);
  const disabledText = !loggedIn ? t('chat.composer.loggedOut') : recipient === 'self' ? t('chat.composer.self') : null;
  const uploading = status === 'checking' || status === 'uploading' || status === 'processing';
  const seller = account?.isSeller === true;

  // The partner sees "sending a media…" while the bytes travel.
  useEffect(() => {
    if (uploading) thread.typing('mediaupload');
  }, [uploading, progress, thread]);

  function report(result: ReturnType<typeof thread.send>): boolean {
    if (result.ok) {
      setAlert(null);
      onSent?.(result.msgId);
      return true;
    }
    setAlert(t(`chat.composer.problem.${result.problem}`, { max: ChatLimits.maxTextLength }));
    return false;
  }

  function send() {
    if (disabledText) return;
    if (text.trim() === '') return;
    if (report(thread.send({ text }))) setText('');
  }

  async function attach(files: ArrayLike<Blob & FileLike> | null, kind: AttachKind) {
    if (!files || files.length === 0 || disabledText) return;
    setLastKind(kind);
    setAlert(null);
    const outcome = await upload.start(files, { purpose: 'chat', price: seller ? mediaPrice : 0, ...(kind === 'voice' ? { voice: true } : {}) });
    if (!live.current) return;
    thread.stopTyping();
    if (outcome === 'done') {
      const media = upload.media.peek()[0];
      if (media) report(thread.send({ mediaId: media.mediaId, media }));
      upload.reset();
      return;
    }
    if (outcome === 'rejected') setProblem(upload.problem.peek() ?? 'format');
    else if (outcome === 'verify-email') setVerifying(true);
    else if (outcome === 'error') {
      const code = upload.error.peek()?.code ?? 'internal-error';
      setAlert(t([`errors.${code}`, 'chat.composer.uploadFailed']));
    }
    if (outcome !== 'idle') upload.reset();
  }

  function sendGift() {
    const gift = gifts?.find((g) => g.id === giftId) ?? gifts?.[0];
    if (!gift) return;
    if (report(thread.send({ giftId: gift.id }))) setGiftOpen(false);
  }

  return {
    text,
    onText: (value) => {
      setText(value);
      if (value.trim() === '') thread.stopTyping();
      else thread.typing();
    },
    onKeyDown: (event) => {
      if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
      event.preventDefault();
      send();
    },
    send,
    // The button waits for the price as the store does, rather than take a click and answer "one moment".
    canSend: disabledText === null && text.trim() !== '' && thread.priceKnown.value,
    disabledText,
    alert,
    uploading,
    progress,
    uploadText: uploading ? (status === 'uploading' ? t('chat.composer.uploading', { percent: progress }) : t('chat.composer.processing')) : null,
    attach: (files, kind) => void attach(files, kind),
    cancelUpload: () => {
      upload.cancel();
      thread.stopTyping();
    },
    uploadProblem: problem,
    lastKind,
    dismissProblem: () => setProblem(null),
    verifying,
    closeVerify: () => setVerifying(false),
    canGift: disabledText === null && partner !== null && (partner.isSeller || partner.isPartner),
    giftOpen,
    openGifts: () => {
      setAlert(null);
      setGiftOpen(true);
    },
    closeGifts: () => setGiftOpen(false),
    gifts,
    giftsFailed: giftsError !== null && gifts === null,
    pictureOf,
    giftId: giftId ?? gifts?.[0]?.id ?? null,
    selectGift: (gift) => setGiftId(gift.id),
    sendGift,
    seller,
    mediaPrice,
    setMediaPrice,
    mediaPriceOptions: priceSteps.chatMedia.map((cents) => ({ cents, label: cents === 0 ? t('price.free') : formatPrice(cents, salt) })),
    maxLength: ChatLimits.maxTextLength,
  };
}
