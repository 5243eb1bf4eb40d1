import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SPEND_ANSWER_MESSAGE, SdkError, avatarUrl, isSdkError, paymentsApi, spendRequestsApi, subscriptionsApi, type SpendAnswerMessage } from '../../lib/sdk';
import type { Card, Gift, SpendRequest } from '../../lib/contract';
import { formatMoney } from '../../lib/contract/money';
import { LoginForm, useFanstage } from '../../lib/ui';

type Step = 'checking' | 'login' | 'loading' | 'ask' | 'busy' | 'done' | 'cancelled' | 'gone' | 'failed';

/** The request's id from `?request=`, only when it has an id's shape. */
export function requestIdOf(search: string): string | null {
  const value = new URLSearchParams(search).get('request');
  return value !== null && /^[A-Za-z0-9_-]{16,32}$/.test(value) ? value : null;
}

/**
 * How long the Confirm button waits once the question is on screen: a page that opened this
 * window under the pointer must not turn a click meant for itself into a payment.
 */
export const CONFIRM_ARMING_MS = 800;

export interface EmbedConfirmProps {
  /** `location.search` of the popup. */
  search: string;
  /** The widget's window, told the answer (addressed to the request's site only). */
  opener: Pick<Window, 'postMessage'> | null;
  /** Called once the answer is given: closes the popup. */
  onDone: () => void;
  /** Where a new card's payment leaves for (the processor's page); default `location.assign`. */
  navigate?: (url: string) => void;
}

const cardPayment = (kind: string) => kind === 'topup' || kind === 'subscription-card';

/**
 * The platform's own page where the fan answers a partner site's spend (docs/spending.md): who
 * asks, for whom, what and how much, and his balance after; Confirm or Cancel. A card payment
 * is made here, in the platform's card window: a saved card with one click ("Pay $20.00 with
 * Visa •••• 4242"), or a new card on the processor's page. The site learns the outcome from the
 * API; the message posted to it only says the fan answered.
 */
export function EmbedConfirm({ search, opener, onDone, navigate = (url) => window.location.assign(url) }: EmbedConfirmProps) {
  const { session, client, settings } = useFanstage();
  const { t } = useTranslation();
  const id = requestIdOf(search);
  const [step, setStep] = useState<Step>(() => (id === null ? 'gone' : 'checking'));
  const [request, setRequest] = useState<SpendRequest | null>(null);
  const [balance, setBalance] = useState<number | null>(null);
  const [gift, setGift] = useState<Gift | null>(null);
  const [cards, setCards] = useState<readonly Card[]>([]);
  const [processor, setProcessor] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [armed, setArmed] = useState(false);
  const busy = useRef(false);

  const tell = useCallback(
    (answered: SpendRequest) => {
      const message: SpendAnswerMessage = { type: SPEND_ANSWER_MESSAGE, id: answered.id, status: answered.status };
      // Never '*': only the site that asked hears that the fan answered.
      opener?.postMessage(message, answered.origin);
    },
    [opener],
  );

  const load = useCallback(async () => {
    if (id === null) return;
    setStep('loading');
    try {
      const found = await spendRequestsApi(client).get(id);
      setRequest(found);
      if (found.status === 'completed') {
        // Back from the processor's page: the card payment went through.
        tell(found);
        setStep('done');
        onDone();
        return;
      }
      if (found.status !== 'pending') {
        setStep('gone');
        return;
      }
      const money = paymentsApi(client);
      const [wallet, gifts, saved, processors] = await Promise.all([
        money.balance(),
        typeof found.details.giftId === 'number' ? client.get<Gift[]>('/papi/gifts') : Promise.resolve([] as Gift[]),
        cardPayment(found.kind) ? money.cards() : Promise.resolve([] as Card[]),
        cardPayment(found.kind) ? money.processors() : Promise.resolve([]),
      ]);
      setBalance(wallet.gBalance);
      setGift(gifts.find((g) => g.id === found.details.giftId) ?? null);
      // The card the site named first, then the others.
      const asked = found.details.cardId;
      setCards([...saved].sort((a, b) => Number(b.id === asked) - Number(a.id === asked)));
      setProcessor(processors[0]?.name ?? null);
      setStep('ask');
    } catch (error) {
      setStep(isSdkError(error) && error.code === 'not-found' ? 'gone' : 'failed');
    }
  }, [client, id, onDone, tell]);

  useEffect(() => {
    if (step !== 'checking') return;
    let live = true;
    void session.restore().then((resumed) => {
      if (!live) return;
      if (resumed) void load();
      else setStep('login');
    });
    return () => {
      live = false;
    };
  }, [session, load, step]);

  useEffect(() => {
    if (step !== 'ask') return;
    setArmed(false);
    const timer = setTimeout(() => setArmed(true), CONFIRM_ARMING_MS);
    return () => clearTimeout(timer);
  }, [step]);

  async function answer(run: () => Promise<SpendRequest | null>, after: Step): Promise<void> {
    if (busy.current) return;
    busy.current = true;
    setProblem(null);
    setStep('busy');
    try {
      const answered = await run();
      if (answered === null) return;
      setRequest(answered);
      tell(answered);
      setStep(after);
      onDone();
    } catch (error) {
      const code = isSdkError(error) ? error.code : 'internal-error';
      if (code === 'confirmation-invalid') setStep('gone');
      else {
        setProblem(code);
        setStep('ask');
      }
    } finally {
      busy.current = false;
    }
  }

  const confirm = () => void answer(() => spendRequestsApi(client).confirm(id!), 'done');
  const cancel = () => void answer(() => spendRequestsApi(client).cancel(id!), 'cancelled');

  /** A saved card: charged here, at once; the request is completed by the paid order. */
  const payWithCard = (card: Card) =>
    void answer(async () => {
      const r = request!;
      const order =
        r.kind === 'topup'
          ? await paymentsApi(client).payOldCard({ packageId: Number(r.details.packageId), cardId: card.id, spendRequestId: r.id })
          : (await subscriptionsApi(client).payOldCard({ offerId: Number(r.details.offerId), cardId: card.id, spendRequestId: r.id })).order;
      if (order.status !== 'paid') throw new SdkError({ code: order.status === 'declined' ? 'payment-declined' : (order.failureReason ?? 'payment-failed'), statusCode: -1, body: order });
      return spendRequestsApi(client).get(r.id);
    }, 'done');

  /** A new card: the processor's page, which comes back here when it is done. */
  const payWithNewCard = () =>
    void answer(async () => {
      const r = request!;
      const returnUrl = `${window.location.origin}/embed/confirm?request=${encodeURIComponent(r.id)}`;
      const order =
        r.kind === 'topup'
          ? await paymentsApi(client).payNewCard({ packageId: Number(r.details.packageId), processor: processor!, saveCard: true, returnUrl, spendRequestId: r.id })
          : (await subscriptionsApi(client).payNewCard({ offerId: Number(r.details.offerId), returnUrl, spendRequestId: r.id })).order;
      if (order.redirectUrl) navigate(order.redirectUrl);
      return null;
    }, 'busy');

  const origin = request?.origin ?? '';
  const creator = request?.creator ?? null;
  const cdn = settings.settings.value?.mediaCDN;
  const avatar = creator && cdn ? avatarUrl(cdn, creator.avatarMedia, 60) : null;
  const after = balance !== null && request !== null && !cardPayment(request.kind) ? balance - request.amount : null;
  const short = after !== null && after < 0;

  return (
    <main className="fs-root embed-login">
      <h1 className="embed-login__title">{request && cardPayment(request.kind) ? t('embedConfirm.cardTitle') : t('embedConfirm.title')}</h1>

      {step === 'checking' || step === 'loading' || step === 'busy' ? (
        <p role="status" className="embed-login__status">
          {t(step === 'busy' ? 'embedConfirm.working' : 'embedConfirm.loading')}
        </p>
      ) : null}

      {step === 'login' ? (
        <>
          <p className="embed-login__status">{t('embedConfirm.signIn')}</p>
          <LoginForm headingLevel={2} autoFocus onSuccess={() => void load()} onForgotPassword={() => void window.open('/sign-up/forgotpassword', '_blank', 'noopener')} />
        </>
      ) : null}

      {step === 'ask' && request ? (
        <section className="embed-login__consent" aria-labelledby="embed-confirm-what">
          <p className="embed-login__site">
            <strong className="embed-login__origin">{origin}</strong> {t('embedConfirm.asks')}
          </p>
          {creator ? (
            <div className="embed-login__account">
              {avatar ? <img className="embed-login__avatar" src={avatar} alt="" width={48} height={48} /> : <span className="embed-login__avatar" aria-hidden="true" />}
              <p className="embed-login__who">
                <span className="embed-login__hint">{t('embedConfirm.to')}</span> <strong>{creator.displayName}</strong> <span className="embed-login__hint">@{creator.username}</span>
              </p>
            </div>
          ) : null}
          <dl className="embed-confirm__facts">
            <div>
              <dt>{t('embedConfirm.what')}</dt>
              <dd id="embed-confirm-what">{whatOf(request, gift, t)}</dd>
            </div>
            <div>
              <dt>{request.kind === 'call' ? t('embedConfirm.perMinute') : t('embedConfirm.amount')}</dt>
              <dd className="embed-confirm__amount">{formatMoney(request.amount)}</dd>
            </div>
            {balance !== null && !cardPayment(request.kind) ? (
              <div>
                <dt>{t('embedConfirm.balanceAfter')}</dt>
                <dd>{t('embedConfirm.balanceChange', { before: formatMoney(balance), after: formatMoney(Math.max(0, after ?? 0)) })}</dd>
              </div>
            ) : null}
          </dl>
          {short ? (
            <p role="alert" className="embed-login__alert">
              {t('embedConfirm.short')}
            </p>
          ) : null}
          {problem ? (
            <p role="alert" className="embed-login__alert">
              {t(`errors.${problem}`, { defaultValue: t('embedConfirm.failed') })}
            </p>
          ) : null}
          {cardPayment(request.kind) ? (
            <div className="embed-confirm__cards">
              {cards.map((card) => (
                <button key={card.id} type="button" className="embed-login__button" disabled={!armed} onClick={() => payWithCard(card)}>
                  {t('embedConfirm.payWith', { amount: formatMoney(request.amount), card: `${card.brand} •••• ${card.last4}` })}
                </button>
              ))}
              {processor ? (
                <button type="button" className="embed-login__button embed-login__button--quiet" disabled={!armed} onClick={payWithNewCard}>
                  {t('embedConfirm.payWithNewCard', { amount: formatMoney(request.amount) })}
                </button>
              ) : null}
              <button type="button" className="embed-login__link" onClick={cancel}>
                {t('embedConfirm.cancel')}
              </button>
            </div>
          ) : (
            <div className="embed-login__actions">
              <button type="button" className="embed-login__button" disabled={!armed || short} onClick={confirm}>
                {t('embedConfirm.confirm', { amount: formatMoney(request.amount) })}
              </button>
              <button type="button" className="embed-login__button embed-login__button--quiet" onClick={cancel}>
                {t('embedConfirm.cancel')}
              </button>
            </div>
          )}
          {cardPayment(request.kind) ? null : <p className="embed-login__hint">{t('embedConfirm.allowanceHint')}</p>}
        </section>
      ) : null}

      {step === 'done' || step === 'cancelled' ? (
        <p role="status" className="embed-login__status">
          {t(step === 'done' ? 'embedConfirm.done' : 'embedConfirm.cancelled')}
        </p>
      ) : null}

      {step === 'gone' || step === 'failed' ? (
        <div role="alert" className="embed-login__alert">
          <p>{t(step === 'gone' ? 'embedConfirm.gone' : 'embedConfirm.failed')}</p>
          {step === 'failed' ? (
            <button type="button" className="embed-login__button" onClick={() => setStep('checking')}>
              {t('embedConfirm.retry')}
            </button>
          ) : null}
        </div>
      ) : null}
    </main>
  );
}

function whatOf(request: SpendRequest, gift: Gift | null, t: (key: string, options?: Record<string, unknown>) => string): string {
  const { details } = request;
  switch (request.kind) {
    case 'gift':
      return typeof details.postId === 'number' ? t('embedConfirm.kinds.postGift', { gift: gift?.name ?? '' }) : t('embedConfirm.kinds.tip', { gift: gift?.name ?? '' });
    case 'unlock':
      return t('embedConfirm.kinds.unlock');
    case 'chat-media':
      return t('embedConfirm.kinds.chatMedia');
    case 'chat-message':
      return typeof details.text === 'string' && details.text !== '' ? t('embedConfirm.kinds.message', { text: details.text }) : t('embedConfirm.kinds.messageGift');
    case 'subscription':
      return t('embedConfirm.kinds.subscription', { name: typeof details.offerName === 'string' ? details.offerName : '' });
    case 'call':
      return t('embedConfirm.kinds.call');
    case 'topup':
      return t('embedConfirm.kinds.topup', { credits: formatMoney(Number(details.credits ?? 0)) });
    case 'subscription-card':
      return t('embedConfirm.kinds.subscriptionCard', { name: typeof details.offerName === 'string' ? details.offerName : '' });
    default:
      return request.kind;
  }
}
