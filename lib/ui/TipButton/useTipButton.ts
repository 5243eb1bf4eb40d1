import { useEffect, useMemo, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { Gift } from '../../sdk';
import type { PaymentMode } from '../../sdk/stores/wallet';
import { useFanstage } from '../FanstageProvider/context';
import type { Message } from '../shared/errorMessage';
import { giftName } from '../GiftPicker/giftName';
import { useGifts } from '../GiftPicker/useGifts';
import { isMuted, playSound } from '../sound';
import { formatMoney } from '../shared/money';

/** SPEC §8: gift-send-ok shows for 3 s. */
export const TIP_SENT_MS = 3000;

export interface UseTipButtonOptions {
  /** The creator to tip, by username or id. */
  creator: string | number;
  /**
   * Called instead of opening the tip when nobody is signed in. When it signs the fan in and
   * resolves `true` (a widget's popup sign-in), the tip opens.
   */
  onLoginRequired?: () => void | boolean | Promise<boolean | void>;
  /** How a top-up opens the card page (`popup` by default; the site may use `redirect`). */
  paymentMode?: PaymentMode;
  /** Told after each gift sent. */
  onSent?: (gift: Gift) => void;
}

export type TipView = 'closed' | 'tip' | 'topUp';

export interface TipButtonState {
  /** Nothing to show: the creator is unknown yet, or it is the viewer. */
  hidden: boolean;
  name: string;
  view: TipView;
  gifts: readonly Gift[] | null;
  giftsFailed: boolean;
  pictureOf: (gift: Gift) => string | null;
  selected: Gift | null;
  busy: boolean;
  balance: string | null;
  sendLabel: string;
  /** Shown next to the button after a gift was sent, for 3 s. */
  sent: Message;
  alert: Message;
  paymentMode: PaymentMode;
  open: () => void;
  close: () => void;
  select: (gift: Gift) => void;
  send: () => void;
  /** From the top-up back to the tip (also after a successful top-up). */
  backToTip: () => void;
}

/** A tip for a creator: the gift picker, the gift sent from the fan's credits, a top-up when they run short. */
/** Why a spend did not go, in the fan's own terms: he cancelled it, or his limits or a pause held it. */
const spendStops: ReadonlySet<string> = new Set(['spend-cancelled', 'spending-limit', 'spending-cooldown', 'confirmation-invalid', 'popup-blocked']);

export function useTipButton({ creator, onLoginRequired, paymentMode = 'popup', onSent }: UseTipButtonOptions): TipButtonState {
  useSignals();
  const { profiles, session, wallet } = useFanstage();
  const { t } = useTranslation();
  const entry = useMemo(() => profiles.get(creator), [profiles, creator]);
  const { gifts, error: giftsError, pictureOf } = useGifts();
  const [view, setView] = useState<TipView>('closed');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<Message>(null);
  const [sent, setSent] = useState<Message>(null);
  const sentTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (sentTimer.current) clearTimeout(sentTimer.current);
    };
  }, []);

  const profile = entry.profile.value;
  const loggedIn = session.isLoggedIn.value;
  const name = profile ? profile.displayName.trim() || profile.username : '';
  const selected = gifts?.find((g) => g.id === selectedId) ?? gifts?.[0] ?? null;
  const balance = wallet.balance.value;

  useEffect(() => {
    if (view !== 'closed' && loggedIn && !wallet.balance.peek()) void wallet.refresh().catch(() => undefined);
  }, [view, loggedIn, wallet]);

  function showSent(gift: Gift) {
    if (sentTimer.current) clearTimeout(sentTimer.current);
    setSent(t('tip.sent'));
    sentTimer.current = setTimeout(() => mounted.current && setSent(null), TIP_SENT_MS);
    onSent?.(gift);
  }

  async function open() {
    setAlert(null);
    if (!session.isLoggedIn.peek()) {
      try {
        const signedIn = await onLoginRequired?.();
        if (signedIn !== true || !session.isLoggedIn.peek()) return;
      } catch (error) {
        setAlert(t(`errors.${(error as { code?: string }).code ?? 'internal-error'}`, { defaultValue: t('errors.gift-send-error') }));
        return;
      }
    }
    if (mounted.current) setView('tip');
  }

  function send() {
    if (busy || !profile || !selected) {
      if (!selected) setAlert(t('tip.chooseGift'));
      return;
    }
    setAlert(null);
    setBusy(true);
    const muted = isMuted(session.account.peek());
    wallet.tip(profile.id, selected.id).then(
      () => {
        if (!mounted.current) return;
        setBusy(false);
        setView('closed');
        showSent(selected);
        playSound('success', { muted });
      },
      (error: unknown) => {
        if (!mounted.current) return;
        setBusy(false);
        const code = (error as { code?: string } | null)?.code;
        // SPEC §8: noMoney opens the credit purchase; after it the fan comes back to this tip.
        if (code === 'noMoney') {
          setView('topUp');
          setAlert(t('tip.noMoney'));
          return;
        }
        // The fan's own word on a partner site (docs/spending.md): say what stopped it.
        setAlert(code !== undefined && spendStops.has(code) ? t(`errors.${code}`) : t('errors.gift-send-error'));
        playSound('error', { muted });
      },
    );
  }

  return {
    hidden: !profile || (session.userId.value !== null && session.userId.value === profile.id),
    name,
    view,
    gifts,
    giftsFailed: giftsError !== null && gifts === null,
    pictureOf,
    selected,
    busy,
    balance: balance ? formatMoney(balance.gBalance) : null,
    sendLabel: busy ? t('tip.sending') : selected ? t('tip.send', { gift: giftName(t, selected), price: formatMoney(selected.gValue) }) : t('tip.chooseGift'),
    sent,
    alert,
    paymentMode,
    open: () => void open(),
    close: () => {
      if (view === 'topUp') wallet.cancelPayment();
      setView('closed');
      setAlert(null);
    },
    select: (gift) => {
      setSelectedId(gift.id);
      setAlert(null);
    },
    send,
    backToTip: () => {
      setView('tip');
      setAlert(null);
    },
  };
}
