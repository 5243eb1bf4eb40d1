import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { isSdkError, type Gift } from '../../lib/sdk';
import { Dialog, GiftPicker, TopUpDialog, formatMoney, giftName, isMuted, playSound, useFanstage, useGifts } from '../../lib/ui';
import styles from '../routes/Money.module.css';

/** SPEC §8: gift-send-ok stays 3 s. */
const SENT_MS = 3000;

/**
 * The gift picker of a post (SPEC §2 overlays, §8 gift messages): the catalogue, the gift paid
 * from the fan's credits, the buy-credit popup when they run short, then back to the gift.
 */
export function PostGift({ postId, onClose }: { postId: number; onClose: () => void }) {
  useSignals();
  const { t } = useTranslation();
  const fanstage = useFanstage();
  const { gifts, error, pictureOf } = useGifts();
  const [selected, setSelected] = useState<Gift | null>(null);
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [topUp, setTopUp] = useState(false);
  const balance = fanstage.wallet.balance.value;

  useEffect(() => {
    if (fanstage.wallet.balance.peek() === null) fanstage.wallet.refresh().catch(() => undefined);
  }, [fanstage]);

  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(onClose, SENT_MS);
    return () => clearTimeout(timer);
  }, [sent, onClose]);

  async function send() {
    if (!selected || busy) return;
    setBusy(true);
    setAlert(null);
    try {
      await fanstage.wallet.gift(postId, selected.id);
      setSent(true);
      playSound('success', { muted: isMuted(fanstage.session.account.peek()) });
      // The gift count on every card that shows the post.
      void fanstage.posts.load(postId).catch(() => undefined);
    } catch (cause) {
      const code = isSdkError(cause) ? cause.code : 'gift-send-error';
      if (code === 'noMoney') setTopUp(true);
      else setAlert(t(code === 'gift-not-found' || code === 'post-doesnt-exists' ? `errors.${code}` : 'errors.gift-send-error'));
    } finally {
      setBusy(false);
    }
  }

  if (topUp) {
    return (
      <TopUpDialog
        done={(bought) => {
          setTopUp(false);
          if (bought) void send();
        }}
      />
    );
  }

  return (
    <Dialog title={t('siteMoney.gift.title')} onClose={onClose}>
      {balance ? <p className={styles.muted}>{t('tip.balance', { amount: formatMoney(balance.gBalance) })}</p> : null}
      {sent ? (
        <p role="status" className={styles.success}>
          {t('siteMoney.gift.sent')}
        </p>
      ) : gifts === null ? (
        <p role={error ? 'alert' : 'status'}>{error ? t('errors.couldnt-get-info-from-server') : t('tip.loading')}</p>
      ) : gifts.length === 0 ? (
        <p>{t('tip.noGifts')}</p>
      ) : (
        <>
          <GiftPicker gifts={gifts} selectedId={selected?.id ?? null} onSelect={setSelected} pictureOf={pictureOf} disabled={busy} />
          {alert ? (
            <p role="alert" className={styles.error}>
              {alert}
            </p>
          ) : null}
          <div className={styles.actions}>
            <button type="button" className={styles.primary} disabled={busy || !selected} aria-busy={busy || undefined} onClick={() => void send()}>
              {busy ? t('tip.sending') : selected ? t('tip.send', { gift: giftName(t, selected), price: formatMoney(selected.gValue) }) : t('tip.chooseGift')}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
