import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Offer } from '../../contract';
import '../theme/tokens.css';
import { useOfferSettings, type OfferSettingsState } from './useOfferSettings';
import styles from './creatorTools.module.css';

export interface OfferSettingsProps {
  className?: string;
  /** The level of the section's heading (2 by default). */
  headingLevel?: 2 | 3;
  /** Keeps the heading for assistive technology only, where the page's title already says it. */
  hideHeading?: boolean;
}

/** A creator's subscription offers: make one, change its price, archive, offer again, delete. */
export function OfferSettings({ className, headingLevel = 2, hideHeading = false }: OfferSettingsProps) {
  const { t, i18n } = useTranslation();
  const state = useOfferSettings();
  const Heading = `h${headingLevel}` as const;
  const Sub = `h${headingLevel + 1}` as 'h3' | 'h4';
  const titleId = useId();

  return (
    <section className={['fs-root', styles.root, className].filter(Boolean).join(' ')} aria-labelledby={titleId} lang={i18n.resolvedLanguage ?? i18n.language}>
      <Heading id={titleId} className={hideHeading ? styles.visuallyHidden : styles.heading}>
        {t('creatorTools.offers.title')}
      </Heading>
      {!state.seller ? (
        <p className={styles.muted} data-testid="offers-not-seller">
          {t('creatorTools.offers.sellersOnly')}
        </p>
      ) : (
        <>
          {/* One block: the live regions wait, empty, under the introduction. */}
          <div className={styles.stack}>
            <p className={styles.muted}>{t('creatorTools.offers.intro')}</p>
            <div role="status" aria-live="polite">
              {state.message?.kind === 'success' ? <p className={styles.success}>{state.message.text}</p> : null}
            </div>
            <div role="alert">{state.message?.kind === 'error' ? <p className={styles.error}>{state.message.text}</p> : null}</div>
          </div>
          <NewOffer state={state} Heading={Sub} />
          {state.status === 'loading' ? (
            <p role="status">{t('creatorTools.offers.loading')}</p>
          ) : state.status === 'error' ? (
            <div className={styles.actions}>
              <p className={styles.error}>{t('errors.couldnt-get-info-from-server')}</p>
              <button type="button" className={styles.secondary} onClick={state.retry}>
                {t('creatorTools.retry')}
              </button>
            </div>
          ) : state.offers.length === 0 ? (
            <p className={styles.muted}>{t('creatorTools.offers.none')}</p>
          ) : (
            <ul className={styles.list} aria-label={t('creatorTools.offers.yours')} data-testid="own-offers">
              {state.offers.map((offer) => (
                <OfferItem key={offer.id} offer={offer} state={state} Heading={Sub} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function NewOffer({ state, Heading }: { state: OfferSettingsState; Heading: 'h3' | 'h4' }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [price, setPrice] = useState(() => state.priceOptions.find((o) => o.cents === 640)?.cents ?? state.priceOptions[0]?.cents ?? 0);
  const [problem, setProblem] = useState<string | null>(null);
  const titleId = useId();
  const nameId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (name.trim() === '') {
      setProblem(t('creatorTools.offers.nameNeeded'));
      return;
    }
    setProblem(null);
    if (await state.create(name.trim(), price)) setName('');
  }

  return (
    <form className={styles.card} aria-labelledby={titleId} onSubmit={(event) => void submit(event)} noValidate>
      <Heading id={titleId} className={styles.heading}>
        {t('creatorTools.offers.new')}
      </Heading>
      <div className={styles.inline}>
        <label className={styles.field}>
          <span className={styles.fieldLabel}>{t('creatorTools.offers.name')}</span>
          <input
            id={nameId}
            className={styles.input}
            value={name}
            maxLength={60}
            placeholder={t('creatorTools.offers.namePlaceholder')}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={problem !== null || undefined}
            aria-describedby={problem ? `${nameId}-problem` : undefined}
          />
        </label>
        <label className={styles.field}>
          <span className={styles.fieldLabel}>{t('creatorTools.offers.price')}</span>
          <select className={styles.select} value={price} onChange={(event) => setPrice(Number(event.target.value))} aria-describedby={`${nameId}-steps`}>
            {state.priceOptions.map((option) => (
              <option key={option.cents} value={option.cents}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <p id={`${nameId}-steps`} className={styles.muted}>
          {state.stepsNote}
        </p>
      </div>
      {problem ? (
        <p id={`${nameId}-problem`} className={styles.error}>
          {problem}
        </p>
      ) : null}
      <div className={styles.actions}>
        <button type="submit" className={styles.primary} disabled={state.busy === 'new'} aria-busy={state.busy === 'new' || undefined}>
          {t('creatorTools.offers.create')}
        </button>
      </div>
    </form>
  );
}

function OfferItem({ offer, state, Heading }: { offer: Offer; state: OfferSettingsState; Heading: 'h3' | 'h4' }) {
  const { t } = useTranslation();
  const [price, setPrice] = useState(offer.priceCents);
  const [confirming, setConfirming] = useState(false);
  const busy = state.busy === offer.id;
  const archived = offer.offerStatus === 'archived';
  const titleId = useId();

  return (
    <li className={styles.item} aria-labelledby={titleId} data-testid="own-offer">
      <div className={styles.itemHead}>
        <Heading id={titleId} className={styles.itemTitle}>
          {offer.name}
        </Heading>
        <span className={styles.tag}>{archived ? t('creatorTools.offers.archived') : t('creatorTools.offers.active')}</span>
      </div>
      <p className={styles.facts}>
        <span>{t('creatorTools.offers.fansPay', { price: state.fanPrice(offer.priceCents) })}</span>
        <span>{t('creatorTools.offers.youEarn', { amount: state.earn(offer.priceCents) })}</span>
        <span>{t('creatorTools.offers.subscribers', { count: offer.activeSubscribersCount })}</span>
      </p>
      {archived ? <p className={styles.muted}>{t('creatorTools.offers.archivedNote')}</p> : null}
      <div className={styles.inline}>
        <label className={styles.field}>
          <span className={styles.fieldLabel}>{t('creatorTools.offers.priceOf', { name: offer.name })}</span>
          <select className={styles.select} value={price} onChange={(event) => setPrice(Number(event.target.value))} disabled={busy}>
            {state.priceOptions.map((option) => (
              <option key={option.cents} value={option.cents}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className={styles.secondary} disabled={busy || price === offer.priceCents} onClick={() => void state.setPrice(offer, price)}
          aria-label={t('creatorTools.offers.savePriceOf', { name: offer.name })}
        >
          {t('creatorTools.offers.savePrice')}
        </button>
      </div>
      {offer.activeSubscribersCount > 0 ? <p className={styles.muted}>{t('creatorTools.offers.keepPrice')}</p> : null}
      {confirming ? (
        <div className={styles.actions} role="group" aria-label={t('creatorTools.offers.deleteQuestion', { name: offer.name })}>
          <p className={styles.text}>{t('creatorTools.offers.deleteQuestion', { name: offer.name })}</p>
          <button
            type="button"
            className={styles.danger}
            disabled={busy}
            onClick={() => {
              setConfirming(false);
              void state.remove(offer);
            }}
          >
            {t('creatorTools.offers.deleteYes')}
          </button>
          <button type="button" className={styles.secondary} onClick={() => setConfirming(false)}>
            {t('creatorTools.offers.keep')}
          </button>
        </div>
      ) : (
        <div className={styles.actions}>
          {archived ? (
            <button type="button" className={styles.secondary} disabled={busy} onClick={() => void state.restore(offer)} aria-label={t('creatorTools.offers.restoreOf', { name: offer.name })}>
              {t('creatorTools.offers.restore')}
            </button>
          ) : (
            <button type="button" className={styles.secondary} disabled={busy} onClick={() => void state.archive(offer)} aria-label={t('creatorTools.offers.archiveOf', { name: offer.name })}>
              {t('creatorTools.offers.archive')}
            </button>
          )}
          <button type="button" className={styles.danger} disabled={busy} onClick={() => setConfirming(true)} aria-label={t('creatorTools.offers.deleteOf', { name: offer.name })}>
            {t('creatorTools.offers.delete')}
          </button>
        </div>
      )}
    </li>
  );
}
