import { useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import type { ReleaseWatcher } from '../../sdk';
import styles from './UpdateBanner.module.css';

export interface UpdateBannerProps {
  /** The site's release watcher (`createReleaseWatcher`). */
  watcher: Pick<ReleaseWatcher, 'updateAvailable'>;
  /** What Reload does; `location.reload()` by default. */
  onReload?: () => void;
  className?: string;
}

/**
 * The update-available banner of SPEC §2: a newer release of the site is live, and a reload
 * brings it. "Later" hides it for this page; it does not come back until the next load.
 */
export function UpdateBanner({ watcher, onReload, className }: UpdateBannerProps) {
  useSignals();
  const { t, i18n } = useTranslation();
  const [dismissed, setDismissed] = useState(false);
  if (!watcher.updateAvailable.value || dismissed) return null;
  return (
    <div className={['fs-root', styles.banner, className].filter(Boolean).join(' ')} role="status" lang={i18n.resolvedLanguage ?? i18n.language} data-testid="update-banner">
      <p className={styles.text}>{t('app.update.text')}</p>
      <div className={styles.buttons}>
        <button type="button" className={styles.reload} onClick={() => (onReload ? onReload() : globalThis.location?.reload())}>
          {t('app.update.reload')}
        </button>
        <button type="button" className={styles.later} onClick={() => setDismissed(true)}>
          {t('app.update.later')}
        </button>
      </div>
    </div>
  );
}
