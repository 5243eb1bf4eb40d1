import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { usePageTitle, useSite } from '../site';
import { dollars, useTourSettings } from './tourSettings';
import styles from './Tour.module.css';

const features = ['chat', 'calls', 'media', 'subscriptions', 'gifts', 'invites'] as const;
const steps = ['signUp', 'apply', 'verify', 'start'] as const;

/**
 * `/tour-partners` (SPEC §2): the model program — what a creator earns with and how to start.
 * Offered only when the platform's configuration has it on (MODEL_PROGRAM); otherwise the
 * address leads to `/`.
 */
export default function TourPartners() {
  const { t } = useTranslation();
  const { loggedIn } = useSite();
  const [, navigate] = useLocation();
  const { settings, failed } = useTourSettings();
  usePageTitle(t('tour.partners.title'));
  const offered = settings?.modelProgram === true;

  useEffect(() => {
    if ((settings !== null && !offered) || failed) navigate('/', { replace: true });
  }, [settings, offered, failed, navigate]);

  if (!offered) {
    return (
      <p className={styles.loading} role="status">
        {t('app.loading')}
      </p>
    );
  }

  const percent = settings.affiliateSharePercent ?? 0;
  return (
    <article className={styles.page} aria-labelledby="tour-partners-title" data-testid="tour-partners">
      <header className={styles.hero}>
        <p className={styles.kicker}>{t('tour.partners.title')}</p>
        <h1 id="tour-partners-title" className={styles.heading}>
          {t('tour.partners.heading')}
        </h1>
        <p className={styles.lead}>{t('tour.partners.lead')}</p>
        <Link href={loggedIn ? '/partner-registration' : '/sign-up'} className={styles.cta}>
          {loggedIn ? t('tour.partners.apply') : t('tour.partners.signUp')}
        </Link>
      </header>
      <section aria-labelledby="tour-features">
        <h2 id="tour-features" className={styles.sectionTitle}>
          {t('tour.partners.featuresTitle')}
        </h2>
        <ul className={styles.features}>
          {features.map((key) => (
            <li key={key} className={styles.feature}>
              <h3 className={styles.featureTitle}>{t(`tour.partners.features.${key}.title`)}</h3>
              <p className={styles.featureText}>{t(`tour.partners.features.${key}.text`, { percent })}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="tour-steps">
        <h2 id="tour-steps" className={styles.sectionTitle}>
          {t('tour.partners.stepsTitle')}
        </h2>
        <ol className={styles.steps}>
          {steps.map((key) => (
            <li key={key}>{t(`tour.partners.steps.${key}`)}</li>
          ))}
        </ol>
        {settings.minimumPayoutCents !== undefined ? <p className={styles.note}>{t('tour.partners.payouts', { minimum: dollars(settings.minimumPayoutCents) })}</p> : null}
      </section>
      <footer className={styles.footer}>
        <Link href={loggedIn ? '/partner-registration' : '/sign-up'} className={styles.cta}>
          {loggedIn ? t('tour.partners.apply') : t('tour.partners.signUp')}
        </Link>
        <Link href="/tour-faq" className={styles.textLink}>
          {t('tour.partners.faq')}
        </Link>
      </footer>
    </article>
  );
}
