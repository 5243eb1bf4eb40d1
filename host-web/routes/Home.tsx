import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../site';
import { CreatorGrid } from '../components/CreatorGrid';
import styles from './Home.module.css';

/** `/`: the public home of visitors (SPEC §2). */
export default function Home() {
  const { t } = useTranslation();
  const creatorsId = useId();
  usePageTitle(null);

  return (
    <div className={styles.home}>
      <section className={styles.hero}>
        <h1 className={styles.heroTitle}>{t('app.tagline')}</h1>
        <p className={styles.heroText}>{t('home.intro')}</p>
      </section>
      <section aria-labelledby={creatorsId} className={styles.section}>
        <h2 id={creatorsId} className={styles.sectionTitle}>
          {t('home.title')}
        </h2>
        <CreatorGrid headingLevel={3} />
      </section>
    </div>
  );
}
