import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import type { Offer, TrackingLink } from '../../../lib/contract';
import { formatMoney } from '../../../lib/contract/money';
import { DISCOUNT_PERCENT_MAX, DISCOUNT_PERCENT_MIN, discountedCents } from '../../../lib/contract/rules/price';
import { isSdkError, subscriptionsApi, type StatisticsStore } from '../../../lib/sdk';
import { useFanstage } from '../../../lib/ui';
import money from '../Money.module.css';
import styles from '../Statistics.module.css';

/** The most days a trial gives (lib/contract/links.ts TRIAL_DAYS_MAX, a TypeBox module the site takes types from only). */
const TRIAL_DAYS_MAX = 90;

const codeOf = (error: unknown) => (isSdkError(error) ? error.code : 'internal-error');

/** The creator's tracking links: what each brought, with conversion rates; a new link (with a free trial); ending one. */
export function TrackingLinks({ store, userId }: { store: StatisticsStore; userId: number }) {
  useSignals();
  const { t, i18n } = useTranslation();
  const { client } = useFanstage();
  const language = i18n.resolvedLanguage ?? 'en';
  const [offers, setOffers] = useState<readonly Offer[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const links = store.links.value;

  useEffect(() => {
    store.loadLinks().catch((error: unknown) => setProblem(codeOf(error)));
    subscriptionsApi(client)
      .offers(userId, true)
      .then((found) => setOffers(found.filter((offer) => offer.offerStatus === 'active')))
      .catch(() => undefined);
  }, [store, client, userId]);

  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 });
  const count = new Intl.NumberFormat(language);
  const rate = (part: number, whole: number) => (whole === 0 ? '–' : percent.format(part / whole));

  return (
    <section className={money.card} aria-labelledby="links-title">
      <h2 id="links-title" className={money.subtitle}>
        {t('statistics.links.title')}
      </h2>
      <p className={money.muted}>{t('statistics.links.intro')}</p>
      <NewLink store={store} offers={offers} onProblem={setProblem} />
      {problem ? (
        <p role="alert" className={money.error}>
          {t(`errors.${problem}`, { defaultValue: t('errors.internal-error') })}
        </p>
      ) : null}
      {links && links.length === 0 ? <p className={money.muted}>{t('statistics.links.none')}</p> : null}
      <ul className={styles.links} data-testid="tracking-links">
        {(links ?? []).map((link: TrackingLink) => (
          <li key={link.id} className={styles.linkCard} data-testid="tracking-link" data-code={link.code}>
            <div className={styles.linkHead}>
              <strong>{link.name}</strong>
              {link.endedAt !== null ? <span className={money.muted}>{t('statistics.links.ended')}</span> : null}
            </div>
            <input className={money.input} readOnly value={link.url} aria-label={t('statistics.links.url', { name: link.name })} onFocus={(e) => e.currentTarget.select()} />
            {link.trial ? (
              <p className={money.muted}>
                {t(link.trial.then === 'renew' ? 'statistics.links.trialRenews' : 'statistics.links.trialEnds', {
                  days: link.trial.days,
                  offer: link.trial.offerName,
                  price: formatMoney(link.trial.priceCents),
                  taken: count.format(link.trial.taken),
                })}
              </p>
            ) : null}
            {link.discount ? (
              <p className={money.muted} data-testid="link-discount">
                {t('statistics.links.discountShown', {
                  percent: link.discount.percent,
                  offer: link.discount.offerName,
                  first: formatMoney(link.discount.firstMonthCents),
                  price: formatMoney(link.discount.priceCents),
                  taken: count.format(link.discount.taken),
                })}
              </p>
            ) : null}
            <dl className={styles.linkFacts}>
              <dt>{t('statistics.links.visits')}</dt>
              <dd data-testid="link-visits">{count.format(link.visits)}</dd>
              <dt>{t('statistics.links.signups')}</dt>
              <dd data-testid="link-signups">
                {count.format(link.signups)} ({rate(link.signups, link.visits)})
              </dd>
              <dt>{t('statistics.links.follows')}</dt>
              <dd data-testid="link-follows">{count.format(link.follows)}</dd>
              <dt>{t('statistics.links.subscriptions')}</dt>
              <dd data-testid="link-subscriptions">
                {count.format(link.subscriptions)} ({rate(link.subscriptions, link.visits)})
              </dd>
              <dt>{t('statistics.links.revenue')}</dt>
              <dd data-testid="link-revenue">{formatMoney(link.revenueCents)}</dd>
            </dl>
            {link.endedAt === null ? (
              <button type="button" className={money.secondary} onClick={() => store.endLink(link.id).catch((error: unknown) => setProblem(codeOf(error)))}>
                {t('statistics.links.end', { name: link.name })}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

type Extra = 'none' | 'trial' | 'discount';

function NewLink({ store, offers, onProblem }: { store: StatisticsStore; offers: readonly Offer[]; onProblem: (code: string | null) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState('');
  const [extra, setExtra] = useState<Extra>('none');
  const [offerId, setOfferId] = useState<number | null>(null);
  const [days, setDays] = useState(7);
  const [then, setThen] = useState<'renew' | 'end'>('renew');
  const [percent, setPercent] = useState(50);
  const [busy, setBusy] = useState(false);
  const chosenOffer = offerId ?? offers[0]?.id ?? null;
  const chosen = offers.find((offer) => offer.id === chosenOffer);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return;
    setBusy(true);
    onProblem(null);
    const trial = extra === 'trial' && chosenOffer !== null ? { offerId: chosenOffer, days, then } : undefined;
    const discount = extra === 'discount' && chosenOffer !== null ? { offerId: chosenOffer, percent } : undefined;
    store
      .createLink({ name: name.trim(), ...(trial ? { trial } : {}), ...(discount ? { discount } : {}) })
      .then(() => setName(''))
      .catch((error: unknown) => onProblem(codeOf(error)))
      .finally(() => setBusy(false));
  };

  return (
    <form className={styles.linkForm} onSubmit={submit}>
      <label className={money.field} htmlFor={`${id}-name`}>
        {t('statistics.links.name')}
        <input id={`${id}-name`} className={money.input} value={name} maxLength={60} required placeholder={t('statistics.links.namePlaceholder')} onChange={(e) => setName(e.target.value)} />
      </label>
      {offers.length > 0 ? (
        <fieldset className={money.fieldset}>
          <legend>{t('statistics.links.offers')}</legend>
          {(['none', 'trial', 'discount'] as const).map((option) => (
            <label key={option} className={money.radio}>
              <input type="radio" name={`${id}-extra`} checked={extra === option} onChange={() => setExtra(option)} />
              {t(`statistics.links.extra.${option}`)}
            </label>
          ))}
        </fieldset>
      ) : null}
      {extra !== 'none' && offers.length > 0 ? (
        <fieldset className={money.fieldset}>
          <legend>{t(extra === 'trial' ? 'statistics.links.trial' : 'statistics.links.discount')}</legend>
          <label className={money.field}>
            {t('statistics.links.trialOffer')}
            <select className={money.input} value={chosenOffer ?? ''} onChange={(e) => setOfferId(Number(e.target.value))}>
              {offers.map((offer) => (
                <option key={offer.id} value={offer.id}>
                  {offer.name} ({formatMoney(offer.priceCents)})
                </option>
              ))}
            </select>
          </label>
          {extra === 'trial' ? (
            <>
              <label className={money.field}>
                {t('statistics.links.trialDays')}
                <input className={money.input} type="number" min={1} max={TRIAL_DAYS_MAX} value={days} onChange={(e) => setDays(Math.max(1, Math.min(TRIAL_DAYS_MAX, Number(e.target.value) || 1)))} />
              </label>
              <label className={money.radio}>
                <input type="radio" name={`${id}-then`} checked={then === 'renew'} onChange={() => setThen('renew')} />
                {t('statistics.links.thenRenew')}
              </label>
              <label className={money.radio}>
                <input type="radio" name={`${id}-then`} checked={then === 'end'} onChange={() => setThen('end')} />
                {t('statistics.links.thenEnd')}
              </label>
            </>
          ) : (
            <>
              <label className={money.field}>
                {t('statistics.links.discountPercent')}
                <input
                  className={money.input}
                  type="number"
                  min={DISCOUNT_PERCENT_MIN}
                  max={DISCOUNT_PERCENT_MAX}
                  step={5}
                  value={percent}
                  onChange={(e) => setPercent(Math.max(DISCOUNT_PERCENT_MIN, Math.min(DISCOUNT_PERCENT_MAX, Math.round(Number(e.target.value)) || DISCOUNT_PERCENT_MIN)))}
                />
              </label>
              {chosen ? (
                <p className={money.muted}>
                  {t('statistics.links.discountPreview', { first: formatMoney(discountedCents(chosen.priceCents, percent)), price: formatMoney(chosen.priceCents) })}
                </p>
              ) : null}
            </>
          )}
        </fieldset>
      ) : null}
      <div className={money.actions}>
        <button type="submit" className={money.primary} disabled={busy}>
          {t('statistics.links.create')}
        </button>
      </div>
    </form>
  );
}
