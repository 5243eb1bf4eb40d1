import { useTranslation } from 'react-i18next';
import styles from './TestModeRibbon.module.css';

/**
 * A test installation (the server's FANSTAGE_STAGING, `testMode` in the settings) says so on
 * every page: people there pay with test cards and pass a test identity check, and must never
 * take it for the real platform, nor a copy of its pages for it. The shell keeps the ribbon's
 * height free at the end of the page (App.module.css), so it never hides the last of the content.
 */
export function TestModeRibbon() {
  const { t } = useTranslation();
  return (
    <aside className={styles.ribbon} aria-label={t('app.testMode.label')}>
      {t('app.testMode.text')}
    </aside>
  );
}
