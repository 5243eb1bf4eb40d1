import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { Dialog } from '../dialog/Dialog';
import { GiftPicker } from '../GiftPicker/GiftPicker';
import { WalletTopUp } from '../WalletTopUp/WalletTopUp';
import { useTipButton, type TipButtonState, type UseTipButtonOptions } from './useTipButton';
import styles from './TipButton.module.css';

export interface TipButtonProps extends Omit<UseTipButtonOptions, 'creator'> {
  /** The creator, by username (or id). */
  creator: string | number;
  className?: string;
}

/** A button that opens a gift picker and tips the creator from the fan's credits (SPEC §8 gift messages). */
export function TipButton({ creator, onLoginRequired, paymentMode, onSent, className }: TipButtonProps) {
  const state = useTipButton({
    creator,
    ...(onLoginRequired ? { onLoginRequired } : {}),
    ...(paymentMode ? { paymentMode } : {}),
    ...(onSent ? { onSent } : {}),
  });
  return <TipButtonView {...state} {...(className ? { className } : {})} />;
}

export function TipButtonView(props: TipButtonState & { className?: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const body = useRef<HTMLDivElement>(null);
  const previousView = useRef(props.view);

  useEffect(() => {
    // Moving between the tip and the top-up inside the dialog: focus goes to the new part.
    if (previousView.current !== 'closed' && props.view !== 'closed' && previousView.current !== props.view) body.current?.focus();
    previousView.current = props.view;
  }, [props.view]);

  if (props.hidden) return null;
  return (
    <span className={['fs-root', styles.root, props.className].filter(Boolean).join(' ')} lang={lang}>
      <button type="button" className={styles.button} aria-haspopup="dialog" onClick={props.open}>
        <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path fill="currentColor" d="M20 7h-2.2A3 3 0 0 0 12 4.8 3 3 0 0 0 6.2 7H4a1 1 0 0 0-1 1v3a1 1 0 0 0 1 1h1v7a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-7h1a1 1 0 0 0 1-1V8a1 1 0 0 0-1-1Zm-5-1a1 1 0 1 1 0 2h-2a2 2 0 0 1 2-2Zm-6 0a2 2 0 0 1 2 2H9a1 1 0 1 1 0-2Zm-4 3h6v1H5Zm2 3h4v6H7Zm10 6h-4v-6h4Zm2-8h-6V9h6Z" />
        </svg>
        <span>{t('tip.button')}</span> <span className={styles.visuallyHidden}>{t('tip.buttonName', { name: props.name })}</span>
      </button>
      <span className={props.sent ? styles.sent : styles.visuallyHidden} role="status">
        {props.sent}
      </span>
      {props.view === 'closed' && props.alert ? (
        <span className={styles.alert} role="alert">
          {props.alert}
        </span>
      ) : null}
      {props.view !== 'closed' ? (
        <Dialog title={props.name ? t('tip.title', { name: props.name }) : t('tip.titleAnonymous')} closeLabel={t('tip.close')} size="large" onClose={props.close} lang={lang}>
          <div ref={body} tabIndex={-1} className={styles.body}>
            {props.view === 'tip' ? (
              <>
                {props.balance !== null ? <p className={styles.balance}>{t('tip.balance', { amount: props.balance })}</p> : null}
                {props.gifts === null ? (
                  <p className={styles.text} role="status">
                    {props.giftsFailed ? t('errors.couldnt-get-info-from-server') : t('tip.loading')}
                  </p>
                ) : props.gifts.length === 0 ? (
                  <p className={styles.text}>{t('tip.noGifts')}</p>
                ) : (
                  <GiftPicker gifts={props.gifts} selectedId={props.selected?.id ?? null} onSelect={props.select} pictureOf={props.pictureOf} disabled={props.busy} />
                )}
                <button type="button" className={styles.send} onClick={props.send} aria-disabled={props.busy || !props.selected || undefined} aria-busy={props.busy || undefined}>
                  {props.sendLabel}
                </button>
              </>
            ) : (
              <>
                {props.alert ? (
                  <p className={styles.alert} role="alert">
                    {props.alert}
                  </p>
                ) : null}
                <WalletTopUp mode={props.paymentMode} headingLevel={3} onPaid={props.backToTip} />
                <button type="button" className={styles.back} onClick={props.backToTip}>
                  {t('tip.backToTip')}
                </button>
              </>
            )}
            {props.view === 'tip' && props.alert ? (
              <p className={styles.alert} role="alert">
                {props.alert}
              </p>
            ) : null}
          </div>
        </Dialog>
      ) : null}
    </span>
  );
}
