import { useId } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../site';
import { CreatorGrid } from '../components/CreatorGrid';
import styles from './Discover.module.css';

/** `/discover` (SPEC §2). Its first tab, active users; the others arrive with posts and search. */
export default function Discover() {
  const { t } = useTranslation();
  const tabId = useId();
  usePageTitle(t('nav.discover'));

  return (
    <div className={styles.discover}>
      <h1 className="visually-hidden">{t('nav.discover')}</h1>
      <nav aria-label={t('nav.discoverSections')} className={styles.tabs}>
        <ul className={styles.tabList}>
          <li>
            <Link href="/discover" id={tabId} className={styles.tab} aria-current="page">
              {t('nav.activeUsers')}
            </Link>
          </li>
        </ul>
      </nav>
      <section aria-labelledby={tabId}>
        <CreatorGrid headingLevel={2} />
      </section>
    </div>
  );
}
