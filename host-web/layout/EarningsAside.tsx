import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { EarningsWidget } from '../../lib/ui';
import { useSite } from '../site';
import styles from './EarningsAside.module.css';

/**
 * The earnings widget in the main layout's aside, for partners (SPEC §6: isPartner or level 2
 * and up). It links to the earnings in settings.
 */
export function EarningsAside() {
  useSignals();
  const { t } = useTranslation();
  const { fanstage, loggedIn } = useSite();
  const account = fanstage.session.account.value;
  if (!loggedIn || !account || !(account.isPartner || account.level >= 2)) return null;
  return (
    <aside className={styles.aside} aria-label={t('siteMoney.aside')}>
      <EarningsWidget href="/settings/earnings" />
    </aside>
  );
}
