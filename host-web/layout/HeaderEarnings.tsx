import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { EarningsBadge } from '../../lib/ui';
import { useSite } from '../site';
import styles from './HeaderEarnings.module.css';

/**
 * SPEC §2 header actions: on phones the Timeline shows the new earnings in the header too,
 * leading to the earnings in settings. Nothing when there is nothing new.
 */
export function HeaderEarnings() {
  useSignals();
  const { t } = useTranslation();
  const { fanstage, loggedIn } = useSite();
  const cents = loggedIn ? fanstage.earnings.unacked.value : 0;
  if (cents <= 0) return null;
  return (
    <Link href="/settings/earnings" className={styles.link} title={t('siteMoney.menu.earnings')}>
      <EarningsBadge cents={cents} />
    </Link>
  );
}
