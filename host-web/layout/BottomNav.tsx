import { useTranslation } from 'react-i18next';
import { TabItems } from './TabItems';
import styles from './BottomNav.module.css';

/** The tab bar of phones and tablets; CSS hides it on the web layout, where SideNav takes over. */
export function BottomNav() {
  const { t } = useTranslation();
  return (
    <nav className={styles.nav} aria-label={t('nav.main')} data-testid="bottom-nav">
      <TabItems classes={styles} />
    </nav>
  );
}
