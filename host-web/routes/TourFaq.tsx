import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../site';
import { dollars, useTourSettings } from './tourSettings';
import styles from './Tour.module.css';

const groups = [
  { key: 'fans', items: ['what', 'credits', 'cards', 'calls', 'locked'] },
  { key: 'creators', items: ['become', 'payouts', 'invites'] },
  { key: 'account', items: ['age', 'language'] },
] as const;

/**
 * `/tour-faq` (SPEC §2): the questions people ask before and after signing up. Each answer is a
 * disclosure (`<details>`), so it opens by keyboard and is read in order without scripts; the
 * figures (payout minimum, invite share) are the server's own.
 */
export default function TourFaq() {
  const { t } = useTranslation();
  const { settings } = useTourSettings();
  usePageTitle(t('tour.faq.title'));
  const values = {
    minimum: settings?.minimumPayoutCents !== undefined ? dollars(settings.minimumPayoutCents) : '…',
    percent: settings?.affiliateSharePercent ?? '…',
  };
  return (
    <article className={styles.page} aria-labelledby="tour-faq-title" data-testid="tour-faq">
      <header className={styles.intro}>
        <h1 id="tour-faq-title" className={styles.heading}>
          {t('tour.faq.title')}
        </h1>
        <p className={styles.lead}>{t('tour.faq.lead')}</p>
      </header>
      {groups.map((group) => (
        <section key={group.key} aria-labelledby={`faq-${group.key}`} className={styles.group}>
          <h2 id={`faq-${group.key}`} className={styles.sectionTitle}>
            {t(`tour.faq.${group.key}`)}
          </h2>
          {group.items.map((item) => (
            <details key={item} className={styles.question}>
              <summary>{t(`tour.faq.items.${item}.q`)}</summary>
              <p>{t(`tour.faq.items.${item}.a`, values)}</p>
            </details>
          ))}
        </section>
      ))}
    </article>
  );
}
