import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import styles from '../PriceDetail/moneyDialog.module.css';
import { Dialog } from '../dialog/Dialog';
import { SubscriptionPurchase, type RenderTopUp, type SubscriptionPurchaseProps } from '../SubscriptionPurchase';
import { renderTopUpDialog } from '../SubscriptionPurchase/TopUpDialog';
import { useUnlockMedia, type UseUnlockMediaOptions } from './useUnlockMedia';

export interface UnlockMediaPopupProps extends UseUnlockMediaOptions {
  /** The credit purchase shown when the wallet is short (SPEC §8: noMoney opens the buy-credit popup); the wallet top-up in a dialog by default. */
  renderTopUp?: RenderTopUp;
  /** Passed to the subscription purchase that 'Subscribe' opens. */
  subscription?: Pick<SubscriptionPurchaseProps, 'paymentMode' | 'returnUrl' | 'detailHref'>;
}

/**
 * The unlock-media popup (SPEC §2, §4 Media lock): the fan price, 'Unlock' and, when the
 * creator offers subscriptions, 'Subscribe'; the adult-content agreement first for a viewer
 * who has not given it. A short wallet opens the top-up and comes back; a changed price is
 * shown and asked again; a post that is gone is a 3 s warning.
 */
export function UnlockMediaPopup(props: UnlockMediaPopupProps) {
  useSignals();
  const { t } = useTranslation();
  const state = useUnlockMedia(props);
  const { onClose } = props;

  const renderTopUp = props.renderTopUp ?? renderTopUpDialog;
  if (state.phase === 'topUp') return <>{renderTopUp(state.toppedUp, state.needed)}</>;

  if (state.phase === 'subscribe' && state.ownerId !== null) {
    return <SubscriptionPurchase userId={state.ownerId} {...props.subscription} renderTopUp={renderTopUp} onSubscribed={() => void state.subscribed()} onClose={onClose} />;
  }

  const title = state.needsAgreement && (state.phase === 'offer' || state.phase === 'agreement') ? t('unlock.agreementTitle') : t('unlock.title');

  return (
    <Dialog title={title} onClose={onClose} alert={state.needsAgreement && state.phase !== 'unlocked'}>
      {state.media === null || !state.priceReady ? (
        !state.found || !state.priceReady ? (
          <p role="status">{t('unlock.loading')}</p>
        ) : (
          <p role="alert" className={styles.warning}>
            {t('errors.post-doesnt-exists')}
          </p>
        )
      ) : (
        <Body state={state} onClose={onClose} />
      )}
    </Dialog>
  );
}

function Body({ state, onClose }: { state: ReturnType<typeof useUnlockMedia>; onClose: () => void }) {
  const { t } = useTranslation();
  const cancel = (
    <button type="button" className={styles.secondary} onClick={onClose}>
      {t('unlock.cancel')}
    </button>
  );

  switch (state.phase) {
    case 'unlocked':
      return (
        <>
          <p role="status" className={styles.success}>
            {t('unlock.done')}
          </p>
          <div className={styles.unlocking} aria-hidden="true" />
          <div className={styles.actions}>
            <button type="button" className={styles.primary} data-autofocus onClick={onClose}>
              {t('unlock.show')}
            </button>
          </div>
        </>
      );
    case 'gone':
      return (
        <p role="alert" className={styles.warning}>
          {t('errors.post-doesnt-exists')}
        </p>
      );
    case 'priceChanged':
      return (
        <>
          <p role="alert" className={styles.warning}>
            {t('unlock.priceChanged', { old: state.price, price: state.newPrice })}
          </p>
          {state.alreadyOpen ? null : <p className={styles.price}>{state.newPrice}</p>}
          <div className={styles.actions}>
            {state.alreadyOpen ? null : (
              <button type="button" className={styles.primary} onClick={state.acceptNewPrice}>
                {t('unlock.unlockFor', { price: state.newPrice })}
              </button>
            )}
            {cancel}
          </div>
        </>
      );
    default: {
      const working = state.phase === 'working';
      const agreement = state.needsAgreement || state.phase === 'agreement';
      if (state.alreadyOpen && !working) {
        return (
          <>
            <p role="status">{t('unlock.alreadyOpen')}</p>
            <div className={styles.actions}>
              <button type="button" className={styles.primary} onClick={onClose}>
                {t('unlock.show')}
              </button>
            </div>
          </>
        );
      }
      return (
        <>
          <p className={styles.muted}>{state.byline}</p>
          <p className={styles.price} data-testid="unlock-price">
            {state.price}
          </p>
          {agreement ? <p>{t('unlock.agreementText')}</p> : <p className={styles.muted}>{t('unlock.explain')}</p>}
          {state.error ? (
            <p role="alert" className={styles.error}>
              {state.error}
            </p>
          ) : null}
          <div className={styles.actions}>
            <button type="button" className={styles.primary} disabled={working} aria-busy={working || undefined} onClick={() => (agreement ? void state.agree() : state.unlock())}>
              {agreement ? t('unlock.agreeAndUnlock', { price: state.price }) : t('unlock.unlockFor', { price: state.price })}
            </button>
            {state.offersSubscriptions ? (
              <button type="button" className={styles.secondary} disabled={working} onClick={() => state.setPhase('subscribe')}>
                {t('unlock.subscribe')}
              </button>
            ) : null}
            {cancel}
          </div>
          <span className={styles.visuallyHidden} role="status">
            {working ? t('unlock.working') : ''}
          </span>
        </>
      );
    }
  }
}
