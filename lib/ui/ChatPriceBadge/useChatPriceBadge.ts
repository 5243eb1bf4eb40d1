import { useEffect, useMemo, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { chatPriceBadge, formatPrice, isSdkError, SALT_UNIT } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';

export interface ChatPriceBadgeState {
  /** SPEC §6: 'price' shows a fan what a message costs; 'seller' lets the seller price this conversation; null shows nothing. */
  mode: 'price' | 'seller' | null;
  /** "$0.16 / message" or "Free messages". */
  text: string;
  /** The same for a phone's header: "$0.16" or "Free". */
  shortText: string;
  /** The full sentence for screen readers and the tooltip. */
  label: string;
  partnerName: string;
  /** The seller's price for this conversation (stored cents): the custom one, else their usual one. */
  price: number;
  custom: boolean;
  open: boolean;
  setOpen: (open: boolean) => void;
  busy: boolean;
  alert: string | null;
  saved: string | null;
  apply: (cents: number) => void;
  useUsual: () => void;
}

/** The chat price badge of an opened chat (SPEC §2 header, §6) and a seller's price for one fan. */
export function useChatPriceBadge({ userId }: { userId: number }): ChatPriceBadgeState {
  useSignals();
  const { chat, session, settings } = useFanstage();
  const { t } = useTranslation();
  const conversationSignal = useMemo(() => chat.conversation(userId), [chat, userId]);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  useEffect(() => {
    if (settings.status.peek() === 'idle') settings.load().catch(() => undefined);
  }, [settings]);

  const conversation = conversationSignal.value;
  const account = session.account.value;
  const partner = conversation?.sender ?? null;
  const salt = settings.settings.value?.salt ?? SALT_UNIT;
  const mode = conversation ? chatPriceBadge(account, partner, conversation.isSupport) : null;
  const partnerName = partner ? partner.displayName.trim() || partner.username : '';
  const custom = conversation?.customPrice ?? null;
  const sellerPrice = custom ?? account?.messagePrice ?? 0;
  const shown = mode === 'seller' ? sellerPrice : (conversation?.price ?? 0);
  const priceText = formatPrice(shown, salt, t('price.free'));

  function save(next: number | null) {
    setBusy(true);
    setAlert(null);
    setSaved(null);
    chat.setCustomPrice(userId, next).then(
      () => {
        setBusy(false);
        setSaved(t('chat.price.saved'));
        setOpen(false);
      },
      (cause: unknown) => {
        setBusy(false);
        const code = isSdkError(cause) ? cause.code : 'internal-error';
        setAlert(t([`errors.${code}`, 'chat.price.failed']));
      },
    );
  }

  return {
    mode,
    // A seller's own badge says what she charges this fan, never a price as if she paid it.
    text: mode === 'seller' ? (shown === 0 ? t('chat.price.sellerFree') : t('chat.price.sellerText', { price: priceText })) : shown === 0 ? t('chat.price.free') : t('chat.price.perMessage', { price: priceText }),
    shortText: mode === 'seller' ? (shown === 0 ? t('chat.price.sellerFree') : t('chat.price.sellerShort', { price: priceText })) : priceText,
    label: mode === 'seller' ? (shown === 0 ? t('chat.price.sellerFreeLabel', { name: partnerName }) : t('chat.price.sellerLabel', { name: partnerName, price: priceText })) : shown === 0 ? t('chat.price.freeLabel') : t('chat.price.label', { price: priceText }),
    partnerName,
    price: sellerPrice,
    custom: custom !== null,
    open,
    setOpen: (next) => {
      setOpen(next);
      setAlert(null);
    },
    busy,
    alert,
    saved,
    apply: (cents) => save(cents),
    useUsual: () => save(null),
  };
}
