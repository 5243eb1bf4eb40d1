import { useEffect, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { formatDuration, type Call, type CallDevice, type CallLine, type CallPhase, type Gift } from '../../sdk';
import type { PaymentMode } from '../../sdk/stores/wallet';
import { useFanstage } from '../FanstageProvider/context';
import type { Message } from '../shared/errorMessage';
import { giftName } from '../GiftPicker/giftName';
import { useGifts } from '../GiftPicker/useGifts';
import { isMuted, playSound } from '../sound';
import { formatMoney } from '../shared/money';

export interface UseCallWindowOptions {
  /**
   * The call to show (the site's `/videocall/{id}`). When the call on this page is another one,
   * or none, the server's record of this one is shown. Without it: the call on this page.
   */
  callId?: string;
  /** Told when the person closes an ended call (the site goes back). */
  onClosed?: () => void;
  /** How a top-up opens the card page; during a call always a popup, so the call stays. */
  paymentMode?: PaymentMode;
}

export interface CallWindowLine extends CallLine {
  /** What the line says: the text, or the gift's name. */
  label: string;
  picture: string | null;
}

export interface CallWindowState {
  /** Nothing to show: no call here and none asked for. */
  hidden: boolean;
  loading: boolean;
  /** The call asked for is not on this page (`record` says what the server knows of it). */
  notHere: boolean;
  record: Call | null;
  phase: CallPhase;
  /** The viewer pays (the caller) or earns (the creator). */
  role: 'fan' | 'creator';
  name: string;
  initial: string;
  avatar: string | null;
  statusText: string;
  timer: string;
  meterText: string;
  priceText: string;
  timeLeftText: string | null;
  lowCredit: boolean;
  lowCreditText: string | null;
  /** The end: why, and the totals. */
  endText: string | null;
  totalsText: string | null;
  problem: Message;
  error: Message;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  microphoneOn: boolean;
  cameraOn: boolean;
  peerCameraOff: boolean;
  peerMuted: boolean;
  devices: readonly CallDevice[];
  lines: readonly CallWindowLine[];
  topUpOpen: boolean;
  giftOpen: boolean;
  gifts: readonly Gift[] | null;
  pictureOf: (gift: Gift) => string | null;
  giftAlert: Message;
  giftBusy: boolean;
  paymentMode: PaymentMode;
  toggleMicrophone: () => void;
  toggleCamera: () => void;
  useDevice: (kind: 'audioinput' | 'videoinput', deviceId: string) => void;
  hangUp: () => void;
  close: () => void;
  say: (text: string) => boolean;
  openTopUp: () => void;
  closeTopUp: () => void;
  openGift: () => void;
  closeGift: () => void;
  sendGift: (gift: Gift) => void;
}

/** The call window's state: the call on this page (or the record of the one asked for), its meter and controls. */
export function useCallWindow({ callId, onClosed, paymentMode = 'popup' }: UseCallWindowOptions = {}): CallWindowState {
  useSignals();
  const { calls, session } = useFanstage();
  const { t } = useTranslation();
  const { gifts, pictureOf } = useGifts();
  const [record, setRecord] = useState<Call | null>(null);
  const [loading, setLoading] = useState(false);
  const [topUpOpen, setTopUpOpen] = useState(false);
  const [giftOpen, setGiftOpen] = useState(false);
  const [giftBusy, setGiftBusy] = useState(false);
  const [giftAlert, setGiftAlert] = useState<Message>(null);
  const mounted = useRef(true);

  const current = calls.current.value;
  const here = current && (!callId || current.callId === callId) ? current : null;
  const meter = calls.meter.value;
  const phase: CallPhase = here?.phase ?? 'idle';

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // A call that is not on this page (a reload, a link from the history): the server's record.
  const wanted = !here && callId ? callId : null;
  useEffect(() => {
    if (!wanted || !session.isLoggedIn.peek()) return;
    const controller = new AbortController();
    setLoading(true);
    calls.record(wanted, controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) {
          setRecord(value);
          setLoading(false);
        }
      },
      () => {
        if (!controller.signal.aborted) {
          setRecord(null);
          setLoading(false);
        }
      },
    );
    return () => controller.abort();
  }, [wanted, calls, session]);

  // SPEC §4: the end plays a cash sound when the call earned something, else an end sound.
  const previousPhase = useRef(phase);
  useEffect(() => {
    if (previousPhase.current !== 'ended' && phase === 'ended' && here && here.startedAt !== null) {
      const earned = here.direction === 'incoming' && (here.totals?.earnings ?? 0) > 0;
      playSound(earned ? 'cash' : 'end', { muted: isMuted(session.account.peek()) });
    }
    if (phase === 'ended' || phase === 'idle') {
      setTopUpOpen(false);
      setGiftOpen(false);
    }
    previousPhase.current = phase;
  }, [phase, here, session]);

  // The server asks for money: the top-up opens by itself, once.
  const lowCredit = meter.lowCredit && phase !== 'ended';
  useEffect(() => {
    if (lowCredit) setTopUpOpen(true);
  }, [lowCredit]);

  const role: 'fan' | 'creator' = here ? (here.direction === 'outgoing' ? 'fan' : 'creator') : record && !record.callIsIncoming ? 'fan' : 'creator';
  const peer = here?.peer ?? (record ? (record.callIsIncoming ? record.caller : record.callee) : null);
  const name = peer ? peer.displayName.trim() || peer.username : '';
  const problem = calls.problem.value;
  const error = calls.error.value;

  const statusText =
    phase === 'idle'
      ? record
        ? t('calls.status.ended')
        : ''
      : t(`calls.status.${phase}`, { name });
  const totals = here?.totals ?? (record && record.state !== 'ringing' && record.state !== 'live' ? { minutes: record.minutes, cost: record.cost, earnings: record.earnings } : null);
  const endReason = here?.endReason ?? record?.endReason ?? null;
  const ended = phase === 'ended' || (!here && record !== null && record.state !== 'ringing' && record.state !== 'live');
  const totalsText =
    ended && totals
      ? [t('calls.totals.minutes', { count: totals.minutes }), role === 'fan' ? t('calls.totals.cost', { amount: formatMoney(totals.cost) }) : t('calls.totals.earnings', { amount: formatMoney(totals.earnings) })].join(' · ')
      : null;
  const price = here?.agreedPrice ?? record?.agreedPrice ?? 0;
  const earningsPrice = here?.earningsPrice ?? record?.earningsPrice ?? 0;

  const lines: CallWindowLine[] = calls.lines.value.map((line) => {
    const gift = line.giftId !== null ? (gifts?.find((g) => g.id === line.giftId) ?? null) : null;
    const label = line.text ?? (line.mine ? t('calls.window.giftSent') : t('calls.window.giftReceived', { name }));
    return { ...line, label: gift ? `${label}: ${giftName(t, gift)}` : label, picture: gift ? pictureOf(gift) : null };
  });

  return {
    hidden: !here && !callId,
    loading,
    notHere: !here && !!callId && !loading,
    record,
    phase,
    role,
    name,
    initial: (name[0] ?? '?').toUpperCase(),
    avatar: peer?.avatarUrl ?? null,
    statusText,
    timer: formatDuration(meter.elapsedSeconds),
    meterText: role === 'fan' ? t('calls.window.cost', { amount: formatMoney(meter.cost) }) : t('calls.window.earnings', { amount: formatMoney(meter.earnings) }),
    priceText: t('calls.window.price', { price: formatMoney(role === 'fan' ? price : earningsPrice) }),
    timeLeftText: role === 'fan' && meter.secondsLeft !== null && phase === 'live' ? t('calls.window.timeLeft', { time: formatDuration(meter.secondsLeft) }) : null,
    lowCredit,
    lowCreditText: lowCredit ? t('calls.window.lowCredit', { time: formatDuration(meter.secondsLeft ?? 0) }) : null,
    endText: ended && endReason ? t(`calls.end.${endReason}`) : null,
    totalsText,
    problem: problem ? t(`calls.problem.${problem}`) : null,
    error: error ? t(`errors.${error.code}`, { defaultValue: t('calls.end.failed') }) : null,
    localStream: calls.localStream.value,
    remoteStream: calls.remoteStream.value,
    microphoneOn: calls.microphoneOn.value,
    cameraOn: calls.cameraOn.value,
    peerCameraOff: !calls.peerMedia.value.video,
    peerMuted: !calls.peerMedia.value.audio,
    devices: calls.devices.value,
    lines,
    topUpOpen,
    giftOpen,
    gifts,
    pictureOf,
    giftAlert,
    giftBusy,
    paymentMode,
    toggleMicrophone: () => calls.setMicrophone(!calls.microphoneOn.peek()),
    toggleCamera: () => calls.setCamera(!calls.cameraOn.peek()),
    useDevice: (kind, deviceId) => void calls.useDevice(kind, deviceId),
    hangUp: () => calls.hangUp(),
    close: () => {
      calls.dismiss();
      onClosed?.();
    },
    say: (text) => calls.say(text),
    openTopUp: () => setTopUpOpen(true),
    closeTopUp: () => setTopUpOpen(false),
    openGift: () => {
      setGiftAlert(null);
      setGiftOpen(true);
    },
    closeGift: () => setGiftOpen(false),
    sendGift: (gift) => {
      if (giftBusy) return;
      setGiftBusy(true);
      setGiftAlert(null);
      calls.sendGift(gift.id).then(
        () => {
          if (!mounted.current) return;
          setGiftBusy(false);
          setGiftOpen(false);
        },
        (cause: unknown) => {
          if (!mounted.current) return;
          setGiftBusy(false);
          const code = (cause as { code?: string } | null)?.code;
          if (code === 'noMoney') {
            setGiftAlert(t('calls.window.giftNoMoney'));
            setGiftOpen(false);
            setTopUpOpen(true);
          } else setGiftAlert(t('calls.window.giftFailed'));
        },
      );
    },
  };
}
