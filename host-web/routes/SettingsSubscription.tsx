import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { formatPrice, isSdkError, SALT_UNIT } from '../../lib/sdk';
import { SubscriptionStatus } from '../../lib/contract/constants';
import type { Subscription } from '../../lib/contract';
import { Dialog, SubscriptionPurchase, useFanstage } from '../../lib/ui';
import { exactDollars } from '../../lib/ui/PriceDetail';
import { usePageTitle, useSite } from '../site';
import { idOf } from '../components/routeIds';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import { gopayReturnUrl } from './moneyLinks';
import NotFound from './NotFound';
import { LoginNeeded } from './Settings';
import styles from './Money.module.css';

type ListType = 'subscribing' | 'subscribers';

function isListType(value: string): value is ListType {
  return value === 'subscribing' || value === 'subscribers';
}

/**
 * `/settings/subscription/{type}` and `/settings/subscription/{type}/{id}` (SPEC §2, login):
 * the viewer's subscriptions (subscribing) or their subscribers, and one subscription's
 * detail with its status, cancel and continue (SPEC §4, §8 messages).
 */
export default function SettingsSubscription({ type, id }: { type: string; id?: string }) {
  const { loggedIn } = useSite();
  if (!isListType(type)) return <NotFound />;
  const subscriptionId = id === undefined ? null : idOf(id);
  if (id !== undefined && subscriptionId === null) return <NotFound />;
  return <AfterSessionCheck>{!loggedIn ? <LoginNeeded /> : subscriptionId === null ? <SubscriptionList type={type} /> : <SubscriptionDetail type={type} id={subscriptionId} />}</AfterSessionCheck>;
}

/** The status of SPEC §4 as words. */
function useStatusLabel() {
  const { t, i18n } = useTranslation();
  const date = (ms: number) => new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium' }).format(new Date(ms));
  return (s: Pick<Subscription, 'subscriptionStatus' | 'subscriptionEndDate'>) => {
    const end = s.subscriptionEndDate;
    switch (s.subscriptionStatus) {
      case SubscriptionStatus.waitingPayment:
        return t('subscription.standing.waitingPayment');
      case SubscriptionStatus.processing:
        return t('subscription.standing.processing');
      case SubscriptionStatus.paymentFailed:
        return end ? t('siteMoney.subscriptions.failedUntil', { date: date(end) }) : t('subscription.standing.paymentFailed');
      case SubscriptionStatus.cancelled:
        return end ? t('subscription.standing.cancelledUntil', { date: date(end) }) : t('subscription.standing.cancelled');
      case SubscriptionStatus.expired:
        return t('subscription.standing.expired');
      default:
        return end ? t('subscription.standing.activeUntil', { date: date(end) }) : t('subscription.standing.active');
    }
  };
}

function Tabs({ type }: { type: ListType }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('siteMoney.subscriptions.lists')}>
      <ul className={styles.tabs}>
        {(['subscribing', 'subscribers'] as const).map((kind) => (
          <li key={kind}>
            <Link href={`/settings/subscription/${kind}`} className={styles.tab} aria-current={kind === type ? 'page' : undefined}>
              {t(`siteMoney.subscriptions.${kind}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function SubscriptionList({ type }: { type: ListType }) {
  useSignals();
  const { t } = useTranslation();
  const fanstage = useFanstage();
  const statusLabel = useStatusLabel();
  const list = useMemo(() => (type === 'subscribing' ? fanstage.subscriptions.subscribing : fanstage.subscriptions.subscribers()), [fanstage, type]);
  const salt = fanstage.settings.settings.value?.salt ?? SALT_UNIT;
  usePageTitle(t(`siteMoney.subscriptions.${type}`));

  useEffect(() => {
    void list.reload().catch(() => undefined);
    if (fanstage.settings.status.peek() === 'idle') fanstage.settings.load().catch(() => undefined);
  }, [list, fanstage]);

  const items = list.items.value;
  const status = list.status.value;
  return (
    <section className={styles.screen} aria-labelledby="subscriptions-title">
      <h1 id="subscriptions-title" className={styles.title}>
        {t('siteMoney.subscriptions.title')}
      </h1>
      <Tabs type={type} />
      {status === 'error' ? (
        <p role="alert" className={styles.error}>
          {t('errors.couldnt-get-info-from-server')}
        </p>
      ) : null}
      {items.length === 0 && (status === 'ready' || status === 'ended') ? <p className={styles.muted}>{t(`siteMoney.subscriptions.empty.${type}`)}</p> : null}
      <ul className={styles.list} aria-label={t(`siteMoney.subscriptions.${type}`)}>
        {items.map((s) => (
          <li key={s.id} className={styles.row}>
            <span className={styles.rowMain}>
              <Link href={`/settings/subscription/${type}/${s.id}`} className={styles.link}>
                {t('siteMoney.subscriptions.itemName', { name: s.user.displayName.trim() || s.user.username, offer: s.name })}
              </Link>
              <span className={styles.muted}>{statusLabel(s)}</span>
            </span>
            <span>{t('subscription.perMonth', { price: type === 'subscribing' ? formatPrice(s.priceCents, salt) : exactDollars(s.priceCents) })}</span>
          </li>
        ))}
      </ul>
      {status === 'loading' ? <p role="status">{t('app.loading')}</p> : null}
      {list.canLoadMore.value ? (
        <div className={styles.actions}>
          <button type="button" className={styles.secondary} onClick={() => void list.nextPage()}>
            {t('siteMoney.more')}
          </button>
        </div>
      ) : null}
    </section>
  );
}

type Message = { kind: 'success' | 'error'; text: string } | null;

function SubscriptionDetail({ type, id }: { type: ListType; id: number }) {
  useSignals();
  const { t } = useTranslation();
  const fanstage = useFanstage();
  const statusLabel = useStatusLabel();
  const [subscription, setSubscription] = useState<Subscription | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'missing' | 'error'>('loading');
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const [buying, setBuying] = useState(false);
  const salt = fanstage.settings.settings.value?.salt ?? SALT_UNIT;
  usePageTitle(subscription ? subscription.name : t('siteMoney.subscriptions.detail'));

  const load = useCallback(async () => {
    try {
      const next = await fanstage.subscriptions.get(id);
      setSubscription(next);
      setState('ready');
    } catch (error) {
      setState(isSdkError(error) && (error.code === 'subscription-not-found' || error.httpStatus === 404) ? 'missing' : 'error');
    }
  }, [fanstage, id]);

  useEffect(() => {
    void load();
    if (fanstage.settings.status.peek() === 'idle') fanstage.settings.load().catch(() => undefined);
  }, [load, fanstage]);

  if (state === 'missing') return <NotFound />;
  if (state === 'loading') return <p role="status">{t('app.loading')}</p>;
  if (state === 'error' || !subscription) {
    return (
      <p role="alert" className={styles.error}>
        {t('errors.couldnt-get-info-from-server')}
      </p>
    );
  }

  const mine = type === 'subscribing';
  const other = subscription.user;
  const otherName = other.displayName.trim() || other.username;
  const s = subscription.subscriptionStatus;
  const canCancel = mine && (s === SubscriptionStatus.active || s === SubscriptionStatus.paymentFailed);
  const canRevert = mine && s === SubscriptionStatus.cancelled;
  const canPay = mine && (s === SubscriptionStatus.waitingPayment || s === SubscriptionStatus.paymentFailed || s === SubscriptionStatus.expired);

  async function act(kind: 'cancel' | 'revert') {
    setBusy(true);
    setMessage(null);
    try {
      const next = kind === 'cancel' ? await fanstage.subscriptions.cancel(id) : await fanstage.subscriptions.revertCancel(id);
      if (next) setSubscription(next);
      else await load();
      setMessage({ kind: 'success', text: t(kind === 'cancel' ? 'subscription.messages.subscription-canceled-ok' : 'subscription.messages.subscription_restored_ok') });
      void fanstage.subscriptions.subscribing.reload().catch(() => undefined);
    } catch (error) {
      // SPEC §8: subscription failures are silent beyond saying it did not work.
      setMessage({ kind: 'error', text: t([`errors.${isSdkError(error) ? error.code : 'internal-error'}`, 'subscription.failed']) });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  }

  return (
    <section className={styles.screen} aria-labelledby="subscription-title">
      <h1 id="subscription-title" className={styles.title}>
        {subscription.name}
      </h1>
      <Tabs type={type} />
      <div className={styles.card}>
        <dl className={styles.facts}>
          <dt>{mine ? t('siteMoney.subscriptions.creator') : t('siteMoney.subscriptions.subscriber')}</dt>
          <dd>
            <Link href={`/${encodeURIComponent(other.username)}`} className={styles.link}>
              {otherName}
            </Link>
          </dd>
          <dt>{t('siteMoney.subscriptions.status')}</dt>
          <dd data-testid="subscription-status" data-status={s}>
            {statusLabel(subscription)}
          </dd>
          <dt>{mine ? t('siteMoney.subscriptions.youPay') : t('siteMoney.subscriptions.youEarn')}</dt>
          <dd>{t('subscription.perMonth', { price: mine ? formatPrice(subscription.priceCents, salt) : exactDollars(subscription.priceCents) })}</dd>
          {mine ? (
            <>
              <dt>{t('siteMoney.subscriptions.paidWith')}</dt>
              <dd>{t(`siteMoney.subscriptions.payWith.${subscription.payWith}`)}</dd>
            </>
          ) : null}
          {subscription.offerStatus === 'deleted' ? (
            <>
              <dt>{t('siteMoney.subscriptions.offer')}</dt>
              <dd>{t('subscription.standing.offerEnded')}</dd>
            </>
          ) : null}
        </dl>
      </div>

      {message ? (
        <p role={message.kind === 'success' ? 'status' : 'alert'} className={message.kind === 'success' ? styles.success : styles.error}>
          {message.text}
        </p>
      ) : null}

      {confirming ? (
        <Dialog title={t('siteMoney.subscriptions.cancelQuestion', { name: otherName })} alert size="small" closeButton={false} onClose={() => setConfirming(false)}>
          <div className={styles.actions}>
            <button type="button" className={styles.danger} disabled={busy} onClick={() => void act('cancel')}>
              {t('siteMoney.subscriptions.cancelYes')}
            </button>
            <button type="button" className={styles.secondary} onClick={() => setConfirming(false)}>
              {t('siteMoney.subscriptions.keep')}
            </button>
          </div>
        </Dialog>
      ) : null}
      <div className={styles.actions}>
        {canCancel ? (
          <button type="button" className={styles.secondary} disabled={busy} onClick={() => setConfirming(true)}>
            {t('siteMoney.subscriptions.cancel')}
          </button>
        ) : null}
        {canRevert ? (
          <button type="button" className={styles.primary} disabled={busy} onClick={() => void act('revert')}>
            {t('siteMoney.subscriptions.revert')}
          </button>
        ) : null}
        {canPay && subscription.offerStatus === 'active' ? (
          <button type="button" className={styles.primary} aria-haspopup="dialog" onClick={() => setBuying(true)}>
            {s === SubscriptionStatus.expired ? t('siteMoney.subscriptions.subscribeAgain') : t('siteMoney.subscriptions.payAgain')}
          </button>
        ) : null}
      </div>

      {buying ? (
        <SubscriptionPurchase
          userId={subscription.offerUserId}
          paymentMode="redirect"
          returnUrl={gopayReturnUrl()}
          onSubscribed={() => void load()}
          onClose={() => {
            setBuying(false);
            void load();
          }}
        />
      ) : null}
    </section>
  );
}
