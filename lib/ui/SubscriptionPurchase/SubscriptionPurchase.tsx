import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import type { Subscription } from '../../contract';
import styles from '../PriceDetail/moneyDialog.module.css';
import { Dialog } from '../dialog/Dialog';
import { useFanstage } from '../FanstageProvider/context';
import { useSubscriptionPurchase, type OfferView, type PayWith } from './useSubscriptionPurchase';
import { renderTopUpDialog } from './TopUpDialog';

/** Renders the host's credit purchase (e.g. `WalletTopUp`); `done(true)` after credits were bought. */
/** Renders the credit purchase of a spend that ran short; `needed` is what the spend costs the fan, in credits. */
export type RenderTopUp = (done: (bought: boolean) => void, needed?: number) => ReactNode;

export interface SubscriptionPurchaseProps {
  /** The creator whose offers are shown. */
  userId: number;
  onClose: () => void;
  /** After a subscription was paid (null when paid by card, whose answer is the order). */
  onSubscribed?: (subscription: Subscription | null) => void;
  /** A new card is entered on the processor's page: in a popup (default) or by leaving the page. */
  paymentMode?: 'popup' | 'redirect';
  returnUrl?: string;
  /** The credit purchase shown when the wallet is short (SPEC §8: noMoney opens the buy-credit popup); the wallet top-up in a dialog by default. */
  renderTopUp?: RenderTopUp;
  /** Where a held subscription's detail is; the reference site's settings page by default. */
  detailHref?: (subscriptionId: number) => string;
  /** Asked when a visitor wants to subscribe. */
  onLoginRequired?: () => void;
}

const defaultDetailHref = (id: number) => `/settings/subscription/subscribing/${id}`;

/**
 * The creator's subscription offers with what the fan pays a month and saves on posts, and
 * the purchase with credits, a saved card or a new card (SPEC §4 statuses: 11 and 23 are
 * paid again, an active or pending subscription starts no new offer).
 */
export function SubscriptionPurchase(props: SubscriptionPurchaseProps) {
  useSignals();
  const { t, i18n } = useTranslation();
  const fanstage = useFanstage();
  const state = useSubscriptionPurchase({
    userId: props.userId,
    ...(props.paymentMode ? { paymentMode: props.paymentMode } : {}),
    ...(props.returnUrl ? { returnUrl: props.returnUrl } : {}),
    ...(props.onSubscribed ? { onSubscribed: props.onSubscribed } : {}),
  });
  const [toppingUp, setToppingUp] = useState(false);
  const offersName = useId();
  const payName = useId();
  const creator = fanstage.profiles.get(props.userId).profile.value;
  const name = creator ? creator.displayName.trim() || creator.username : null;
  const detailHref = props.detailHref ?? defaultDetailHref;
  const renderTopUp = props.renderTopUp ?? renderTopUpDialog;
  const date = (ms: number) => new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium' }).format(new Date(ms));

  if (toppingUp) {
    return (
      <>
        {renderTopUp((bought) => {
          setToppingUp(false);
          if (bought) state.creditsAdded();
        }, state.needed)}
      </>
    );
  }

  const selected = state.selected;
  const resubscribe = selected?.standing === 'resubscribe';

  return (
    <Dialog title={name ? t('subscription.titleFor', { name }) : t('subscription.title')} onClose={props.onClose}>
      {state.status === 'loading' ? (
        <p role="status">{t('subscription.loading')}</p>
      ) : state.status === 'error' ? (
        <>
          <p role="alert" className={styles.error}>
            {t('errors.couldnt-get-info-from-server')}
          </p>
          <div className={styles.actions}>
            <button type="button" className={styles.secondary} onClick={state.retry}>
              {t('subscription.retry')}
            </button>
          </div>
        </>
      ) : state.views.length === 0 ? (
        <p>{t('subscription.none')}</p>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!state.loggedIn) {
              props.onLoginRequired?.();
              return;
            }
            void state.subscribe();
          }}
        >
          <fieldset className={styles.fieldset}>
            <legend className={styles.legend}>{t('subscription.offers')}</legend>
            <ul className={styles.list}>
              {state.views.map((view) => (
                <li key={view.offer.id}>
                  <label className={styles.choice} data-checked={selected?.offer.id === view.offer.id || undefined}>
                    <input type="radio" name={offersName} value={view.offer.id} checked={selected?.offer.id === view.offer.id} onChange={() => state.select(view.offer.id)} />
                    <span className={styles.choiceText}>
                      <strong>{view.offer.name}</strong>
                      <span>{t('subscription.perMonth', { price: view.price })}</span>
                      {view.firstMonth ? (
                        <span className={styles.muted} data-testid="subscription-first-month">
                          {t('subscription.firstMonth', { price: view.firstMonth.price, percent: view.firstMonth.percent })}
                        </span>
                      ) : null}
                      {view.saves ? <span className={styles.muted}>{t('subscription.saves', { amount: view.saves })}</span> : null}
                      <Standing view={view} date={date} />
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>

          {state.held && !resubscribe ? (
            <p className={styles.muted} data-testid="subscription-held">
              {t('subscription.heldNote')} {state.held.subscription ? <a href={detailHref(state.held.subscription.id)}>{t('subscription.manage')}</a> : null}
            </p>
          ) : null}

          {state.canBuy && state.loggedIn ? (
            <fieldset className={styles.fieldset}>
              <legend className={styles.legend}>{t('subscription.payWith')}</legend>
              <ul className={styles.list}>
                <PayChoice name={payName} value={{ kind: 'credits' }} current={state.payWith} onChange={state.setPayWith}>
                  <span>{t('subscription.credits')}</span>
                  {state.balance !== null ? <span className={styles.muted}>{t('subscription.balance', { amount: state.balance })}</span> : null}
                </PayChoice>
                {state.cards.map((card) => (
                  <PayChoice key={card.id} name={payName} value={{ kind: 'card', cardId: card.id }} current={state.payWith} onChange={state.setPayWith}>
                    <span>{t('subscription.savedCard', { card: card.cardId })}</span>
                  </PayChoice>
                ))}
                <PayChoice name={payName} value={{ kind: 'newCard' }} current={state.payWith} onChange={state.setPayWith}>
                  <span>{t('subscription.newCard')}</span>
                </PayChoice>
              </ul>
            </fieldset>
          ) : null}

          {state.message ? (
            <p
              role={state.message.kind === 'success' ? 'status' : 'alert'}
              className={state.message.kind === 'success' ? styles.success : state.message.kind === 'warning' ? styles.warning : styles.error}
            >
              {state.message.text}
            </p>
          ) : null}

          {state.payment?.phase === 'blocked' ? (
            <div className={styles.actions}>
              <button type="button" className={styles.secondary} onClick={state.openCardPage}>
                {t('subscription.openCardPage')}
              </button>
            </div>
          ) : null}

          <div className={styles.actions}>
            {state.needsCredits ? (
              <button type="button" className={styles.primary} onClick={() => setToppingUp(true)}>
                {t('subscription.buyCredits')}
              </button>
            ) : null}
            {state.canBuy || !state.loggedIn ? (
              <button type="submit" className={styles.primary} disabled={state.busy || !selected} aria-busy={state.busy || undefined}>
                {selected
                  ? selected.firstMonth && !resubscribe
                    ? t('subscription.subscribeForFirst', { first: selected.firstMonth.price, price: selected.price })
                    : t(resubscribe ? 'subscription.payAgain' : 'subscription.subscribeFor', { price: selected.price })
                  : t('subscription.subscribe')}
              </button>
            ) : null}
            <button type="button" className={styles.secondary} onClick={props.onClose}>
              {t('subscription.close')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

function Standing({ view, date }: { view: OfferView; date: (ms: number) => string }) {
  const { t } = useTranslation();
  switch (view.standing) {
    case 'active':
      return <span data-testid="offer-standing">{view.endDate ? t('subscription.standing.activeUntil', { date: date(view.endDate) }) : t('subscription.standing.active')}</span>;
    case 'cancelled':
      return <span data-testid="offer-standing">{view.endDate ? t('subscription.standing.cancelledUntil', { date: date(view.endDate) }) : t('subscription.standing.cancelled')}</span>;
    case 'processing':
      return <span data-testid="offer-standing">{t('subscription.standing.processing')}</span>;
    case 'resubscribe':
      return <span data-testid="offer-standing">{view.offer.subscription?.subscriptionStatus === 23 ? t('subscription.standing.paymentFailed') : t('subscription.standing.waitingPayment')}</span>;
    case 'none':
      return view.offer.offerStatus === 'deleted' ? <span>{t('subscription.standing.offerEnded')}</span> : null;
  }
}

function PayChoice(props: { name: string; value: PayWith; current: PayWith; onChange: (value: PayWith) => void; children: ReactNode }) {
  const checked = samePay(props.value, props.current);
  return (
    <li>
      <label className={styles.choice} data-checked={checked || undefined}>
        <input type="radio" name={props.name} checked={checked} onChange={() => props.onChange(props.value)} />
        <span className={styles.choiceText}>{props.children}</span>
      </label>
    </li>
  );
}

function samePay(a: PayWith, b: PayWith): boolean {
  if (a.kind !== b.kind) return false;
  return a.kind !== 'card' || (b.kind === 'card' && a.cardId === b.cardId);
}
