import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import type { SubscriptionPurchaseProps } from '../SubscriptionPurchase/SubscriptionPurchase';
import { useSubscribeButton, type UseSubscribeButtonOptions } from './useSubscribeButton';
import styles from './SubscribeButton.module.css';

export type SubscribeButtonProps = UseSubscribeButtonOptions &
  Pick<SubscriptionPurchaseProps, 'paymentMode' | 'returnUrl' | 'renderTopUp' | 'detailHref'> & {
    className?: string;
    /**
     * The profile says the creator offers subscriptions (`offersSubscriptions`): the button's
     * place is kept while its offers load, so the row around it does not move when it appears.
     */
    reserve?: boolean;
  };

/**
 * The purchase (offers, the top-up, the card) is fetched when the fan comes near the button or
 * clicks it, not with the profile: a visitor's first load carries the button alone.
 */
const loadPurchase = () => import('../SubscriptionPurchase/SubscriptionPurchase').then((m) => ({ default: m.SubscriptionPurchase }));
const SubscriptionPurchase = lazy(loadPurchase);

/** A profile's Subscribe button with the monthly price; it opens the subscription purchase. */
export function SubscribeButton({ userId, onLoginRequired, className, reserve, ...purchase }: SubscribeButtonProps) {
  const state = useSubscribeButton({ userId, ...(onLoginRequired ? { onLoginRequired } : {}) });
  const { t, i18n } = useTranslation();
  if (state.hidden && reserve && state.loading) {
    // An empty, unseen button of the usual width; no price is shown before it is known.
    return (
      <span className={['fs-root', styles.root, className].filter(Boolean).join(' ')} aria-hidden="true" data-testid="subscribe-placeholder">
        <span className={[styles.button, styles.placeholder].join(' ')}>{t('creatorTools.subscribe.for', { price: '$00.00' })}</span>
      </span>
    );
  }
  if (state.hidden) return null;
  return (
    <span className={['fs-root', styles.root, className].filter(Boolean).join(' ')} lang={i18n.resolvedLanguage ?? i18n.language}>
      <button
        type="button"
        className={styles.button}
        data-subscribed={state.subscribed || undefined}
        aria-haspopup="dialog"
        onClick={state.onClick}
        onPointerEnter={() => void loadPurchase()}
        onFocus={() => void loadPurchase()}
        data-testid="subscribe-button"
      >
        {state.label}
      </button>
      {state.open ? (
        <Suspense fallback={null}>
          <SubscriptionPurchase
            userId={userId}
            onClose={state.close}
            onSubscribed={state.reload}
            {...(purchase.paymentMode ? { paymentMode: purchase.paymentMode } : {})}
            {...(purchase.returnUrl ? { returnUrl: purchase.returnUrl } : {})}
            {...(purchase.renderTopUp ? { renderTopUp: purchase.renderTopUp } : {})}
            {...(purchase.detailHref ? { detailHref: purchase.detailHref } : {})}
          />
        </Suspense>
      ) : null}
    </span>
  );
}
