import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { ChatLimits, MassGroups, type MassGroupName } from '../../contract/constants';
import type { MassMessage } from '../../contract';
import { formatPrice, isSdkError, priceSteps, SALT_UNIT, type FileLike } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';

export interface MassSendMessage {
  kind: 'success' | 'error';
  text: string;
}

/** An attached media, uploaded and ready to send. */
export interface MassAttachment {
  mediaId: number;
  name: string;
  mediaType: string;
}

/**
 * A creator's mass messages (SPEC §7 massChatMessage, mass groups followers, subscribers,
 * expired-subscribers): the composer — group with how many it holds, text, a media with a
 * price — and the messages sent, each with how many got it and how many unlocked its media.
 * Sending goes over the websocket; the server stores it first and answers with the count.
 */
export function useMassMessages() {
  useSignals();
  const { t } = useTranslation();
  const { chat, session, uploads, settings, socket } = useFanstage();
  const seller = session.account.value?.isSeller === true;
  const salt = settings.settings.value?.salt ?? SALT_UNIT;

  // Prices are shown as the fan pays them, which needs the platform's salt.
  useEffect(() => {
    if (settings.status.peek() === 'idle') settings.load().catch(() => undefined);
  }, [settings]);
  const groups = chat.mass.groups.value;
  const upload = useMemo(() => uploads.create(), [uploads]);
  const [group, setGroup] = useState<MassGroupName>('followers');
  const [text, setText] = useState('');
  const [price, setPrice] = useState(0);
  const [attachment, setAttachment] = useState<MassAttachment | null>(null);
  const [sending, setSending] = useState(false);
  const [message, setMessage] = useState<MassSendMessage | null>(null);
  const [sent, setSent] = useState<readonly MassMessage[] | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const live = useRef(true);

  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
      upload.cancel();
    };
  }, [upload]);

  const load = useCallback(() => {
    if (!seller) return;
    setStatus('loading');
    Promise.all([chat.mass.loadGroups(), ...MassGroups.map((g) => chat.mass.history(g))]).then(
      ([, ...histories]) => {
        if (!live.current) return;
        setSent(histories.flatMap((h) => h.messages).sort((a, b) => b.sendDt - a.sendDt || b.id - a.id));
        setStatus('ready');
      },
      () => {
        if (live.current) setStatus('error');
      },
    );
  }, [chat, seller]);

  useEffect(load, [load]);

  // The socket carries the message: it is opened while the composer is on screen.
  useEffect(() => {
    if (seller && socket.connectedState.peek() !== 'open') socket.connect();
  }, [seller, socket]);

  const uploadStatus = upload.status.value;
  const uploading = uploadStatus === 'checking' || uploadStatus === 'uploading' || uploadStatus === 'processing';

  async function attach(files: ArrayLike<Blob & FileLike> | null) {
    if (!files || files.length === 0) return;
    // A file input's list empties when the input is cleared for the next choice: read it now.
    const name = files[0]?.name ?? '';
    setMessage(null);
    const outcome = await upload.start(files, { purpose: 'chat', price });
    if (!live.current) return;
    if (outcome === 'done') {
      const media = upload.media.peek()[0];
      if (media) setAttachment({ mediaId: media.mediaId, name, mediaType: media.mediaType });
    } else if (outcome === 'rejected') {
      const problem = upload.problem.peek() ?? 'format';
      setMessage({ kind: 'error', text: t([`errors.${problem}`, 'chat.composer.uploadFailed']) });
    } else if (outcome === 'verify-email') {
      setMessage({ kind: 'error', text: t('errors.email-not-verified') });
    } else if (outcome === 'error') {
      setMessage({ kind: 'error', text: t([`errors.${upload.error.peek()?.code ?? 'internal-error'}`, 'chat.composer.uploadFailed']) });
    }
    if (outcome !== 'done') upload.reset();
  }

  async function send(): Promise<boolean> {
    setMessage(null);
    if (text.trim() === '' && attachment === null) {
      setMessage({ kind: 'error', text: t('creatorTools.mass.empty') });
      return false;
    }
    if (text.length > ChatLimits.maxTextLength) {
      setMessage({ kind: 'error', text: t('chat.composer.problem.too-long', { max: ChatLimits.maxTextLength }) });
      return false;
    }
    setSending(true);
    try {
      const stored = await chat.mass.send(group, { ...(text.trim() ? { text } : {}), ...(attachment ? { mediaId: attachment.mediaId } : {}) });
      if (!live.current) return true;
      setText('');
      setAttachment(null);
      upload.reset();
      setSent((list) => [stored, ...(list ?? []).filter((m) => m.id !== stored.id)]);
      setMessage({ kind: 'success', text: t('creatorTools.mass.sent', { count: stored.recipientsCount }) });
      return true;
    } catch (error) {
      const code = isSdkError(error) ? error.code : 'internal-error';
      setMessage({ kind: 'error', text: t([`errors.${code}`, `realtime.${code}`, 'creatorTools.mass.failed']) });
      return false;
    } finally {
      if (live.current) setSending(false);
    }
  }

  const membersOf = (name: MassGroupName) => groups?.find((g) => g.recGroup === name)?.membersCount ?? null;

  return {
    seller,
    status,
    retry: load,
    groups: MassGroups,
    group,
    setGroup,
    membersOf,
    text,
    setText,
    maxLength: ChatLimits.maxTextLength,
    price,
    setPrice,
    priceOptions: priceSteps.chatMedia.map((cents) => ({ cents, label: cents === 0 ? t('price.free') : formatPrice(cents, salt) })),
    fanPrice: (cents: number) => formatPrice(cents, salt, t('price.free')),
    attach: (files: ArrayLike<Blob & FileLike> | null) => void attach(files),
    attachment,
    removeAttachment: () => {
      setAttachment(null);
      upload.reset();
    },
    uploading,
    progress: upload.progress.value,
    sending,
    message,
    send,
    sent,
  };
}

export type MassMessagesState = ReturnType<typeof useMassMessages>;
