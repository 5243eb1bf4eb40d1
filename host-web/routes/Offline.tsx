import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../site';
import { getFailedLocation } from '../lazyScreen';
import { Icon } from '../layout/icons';
import styles from './NotFound.module.css';

/**
 * `/offline`: where a screen whose code could not be fetched leads (SPEC §2, §8). Retrying
 * reloads the page at the address that failed, since the browser will not re-request a module
 * import that already failed in this page.
 */
export default function Offline() {
  const { t } = useTranslation();
  usePageTitle(t('offline.title'), { inHeader: false });
  return (
    <section className={styles.box} data-testid="offline">
      <Icon name="cloudOff" size={56} className={styles.code} />
      <h1 className={styles.title}>{t('offline.title')}</h1>
      <p className={styles.text}>{t('offline.text')}</p>
      <button type="button" className={styles.action} onClick={() => window.location.assign(getFailedLocation() ?? '/')}>
        {t('app.retry')}
      </button>
    </section>
  );
}
