import { useTranslation } from 'react-i18next';
import styles from './moneyDialog.module.css';
import { Dialog } from '../dialog/Dialog';
import { usePriceDetail } from './usePriceDetail';

export interface PriceDetailProps {
  /** The stored price in cents (what the creator earns). */
  price: number;
  /** The platform's multiplier; the settings' salt by default. */
  salt?: number;
  /** What is priced, e.g. "Post media" or "Chat message"; shown under the title. */
  subject?: string;
  onClose: () => void;
}

/**
 * The price-detail overlay (SPEC §2): what the fan pays, what the creator earns and the
 * platform's fee, to the cent, for one price.
 */
export function PriceDetail({ price, salt, subject, onClose }: PriceDetailProps) {
  const { t } = useTranslation();
  const detail = usePriceDetail(price, salt, t('priceDetail.free'));
  return (
    <Dialog title={t('priceDetail.title')} onClose={onClose}>
      {subject ? <p className={styles.muted}>{subject}</p> : null}
      <p className={styles.price} aria-busy={!detail.ready || undefined}>
        {detail.label}
      </p>
      <dl className={styles.facts} aria-label={t('priceDetail.breakdown')}>
        <dt>{t('priceDetail.fanPays')}</dt>
        <dd data-testid="price-detail-fan">{detail.fan}</dd>
        <dt>{t('priceDetail.creatorEarns')}</dt>
        <dd data-testid="price-detail-creator">{detail.creator}</dd>
        <dt>{t('priceDetail.fee')}</dt>
        <dd data-testid="price-detail-fee">{detail.fee}</dd>
      </dl>
      <p className={styles.muted}>{t('priceDetail.explain')}</p>
      <div className={styles.actions}>
        <button type="button" className={styles.primary} data-autofocus onClick={onClose}>
          {t('priceDetail.ok')}
        </button>
      </div>
    </Dialog>
  );
}
