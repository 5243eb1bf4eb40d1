import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { SubscriptionPurchase, type SubscriptionPurchaseProps } from '../SubscriptionPurchase/SubscriptionPurchase';
import { useSubscribeButton, type UseSubscribeButtonOptions } from './useSubscribeButton';
import styles from './SubscribeButton.module.css';

export type SubscribeButtonProps = UseSubscribeButtonOptions &
  Pick<SubscriptionPurchaseProps, 'paymentMode' | 'returnUrl' | 'renderTopUp' | 'detailHref'> & {
    className?: string;
  };

/** A profile's Subscribe button with the monthly price; it opens the subscription purchase. */
export function SubscribeButton({ userId, onLoginRequired, className, ...purchase }: SubscribeButtonProps) {
  const state = useSubscribeButton({ userId, ...(onLoginRequired ? { onLoginRequired } : {}) });
  const { i18n } = useTranslation();
  if (state.hidden) return null;
  return (
    <span className={['fs-root', styles.root, className].filter(Boolean).join(' ')} lang={i18n.resolvedLanguage ?? i18n.language}>
      <button
        type="button"
        className={styles.button}
        data-subscribed={state.subscribed || undefined}
        aria-haspopup="dialog"
        onClick={state.onClick}
        data-testid="subscribe-button"
      >
        {state.label}
      </button>
      {state.open ? (
        <SubscriptionPurchase
          userId={userId}
          onClose={state.close}
          onSubscribed={state.reload}
          {...(purchase.paymentMode ? { paymentMode: purchase.paymentMode } : {})}
          {...(purchase.returnUrl ? { returnUrl: purchase.returnUrl } : {})}
          {...(purchase.renderTopUp ? { renderTopUp: purchase.renderTopUp } : {})}
          {...(purchase.detailHref ? { detailHref: purchase.detailHref } : {})}
        />
      ) : null}
    </span>
  );
}
