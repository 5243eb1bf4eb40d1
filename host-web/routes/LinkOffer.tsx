import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { formatPrice, SALT_UNIT } from '../../lib/contract/rules/price';
import { isSdkError, linksApi } from '../../lib/sdk';
import { useFanstage } from '../../lib/ui';
import { linkLanding } from '../landing';
import { useSite } from '../site';
import money from './Money.module.css';
import styles from './Profile.module.css';

/**
 * On a creator's profile opened through her tracking link (`/{username}?l={code}`): the free
 * trial or the first-month discount the link carries, as the server answered the visit. A trial
 * is taken with a button (a visitor signs in first); a discount is the server's to apply when the
 * fan it brought subscribes, so it is only told.
 */
export function LinkOffer({ username }: { username: string }) {
  useSignals();
  const { t, i18n } = useTranslation();
  const fanstage = useFanstage();
  const { loggedIn, openLoginPrompt } = useSite();
  const [state, setState] = useState<{ kind: 'idle' | 'busy' } | { kind: 'done'; until: number | null } | { kind: 'failed'; code: string }>({ kind: 'idle' });
  const landed = linkLanding.value;
  const salt = fanstage.settings.settings.value?.salt ?? null;
  // Prices are shown as the fan pays them, which needs the platform's salt.
  useEffect(() => {
    if (salt === null) void fanstage.settings.load().catch(() => undefined);
  }, [fanstage, salt]);
  if (!landed || landed.username.toLowerCase() !== username.toLowerCase()) return null;
  const { trial, discount } = landed.landing;
  if (!trial && !discount) return null;

  const take = () => {
    if (!loggedIn) {
      openLoginPrompt();
      return;
    }
    setState({ kind: 'busy' });
    linksApi(fanstage.client)
      .takeTrial(landed.code)
      .then((subscription) => setState({ kind: 'done', until: subscription.subscriptionEndDate }))
      .catch((error: unknown) => setState({ kind: 'failed', code: isSdkError(error) ? error.code : 'internal-error' }));
  };
  const date = (ms: number) => new Date(ms).toLocaleDateString(i18n.language, { day: 'numeric', month: 'long', year: 'numeric' });
  const price = (cents: number) => formatPrice(cents, salt ?? SALT_UNIT);

  return (
    <section className={`${money.card} ${styles.linkOffer}`} aria-labelledby="link-offer-title" data-testid="link-offer">
      {trial ? (
        <>
          <h2 id="link-offer-title" className={money.subtitle}>
            {t('profileOffer.trialTitle', { count: trial.days })}
          </h2>
          <p>{t('profileOffer.trialText', { count: trial.days, offer: trial.offerName })}</p>
          {state.kind === 'done' ? (
            <p role="status" className={money.success}>
              {state.until === null ? t('profileOffer.trialTaken') : t('profileOffer.trialTakenUntil', { date: date(state.until) })}
            </p>
          ) : (
            <div className={money.actions}>
              <button type="button" className={money.primary} disabled={state.kind === 'busy'} onClick={take}>
                {loggedIn ? t('profileOffer.takeTrial') : t('profileOffer.signInForTrial')}
              </button>
            </div>
          )}
          {state.kind === 'failed' ? (
            <p role="alert" className={money.error}>
              {t(`errors.${state.code}`, { defaultValue: t('errors.internal-error') })}
            </p>
          ) : null}
        </>
      ) : discount && salt !== null ? (
        <>
          <h2 id="link-offer-title" className={money.subtitle}>
            {t('profileOffer.discountTitle', { percent: discount.percent })}
          </h2>
          <p>{t('profileOffer.discountText', { offer: discount.offerName, first: price(discount.firstMonthCents), price: price(discount.priceCents) })}</p>
        </>
      ) : null}
    </section>
  );
}
