import { useTranslation } from 'react-i18next';
import { PayoutMethods } from '../../contract/constants';
import '../theme/tokens.css';
import { Dialog } from '../dialog/Dialog';
import { useFirstEarningsPopup, type FirstEarningsPopupState } from './useFirstEarningsPopup';
import styles from './FirstEarningsPopup.module.css';

/** Shows itself once, when the creator's first earnings arrive (SPEC §4 "first-earnings popup"). */
export function FirstEarningsPopup() {
  return <FirstEarningsPopupView {...useFirstEarningsPopup()} />;
}

export function FirstEarningsPopupView(props: FirstEarningsPopupState) {
  const { t } = useTranslation();
  if (!props.open) return null;
  return (
    <Dialog title={t('earnings.firstTitle')} description={t('earnings.firstText', { amount: props.amount })} closeButton={false} onClose={props.dismiss}>
      <p className={styles.text}>{t('earnings.firstMethods')}</p>
      <ul className={styles.methods}>
        {PayoutMethods.map((method) => (
          <li key={method} className={styles.method} data-method={method}>
            {t(`earnings.methods.${method}`)}
          </li>
        ))}
      </ul>
      <button type="button" className={styles.ok} onClick={props.dismiss} aria-busy={props.busy || undefined}>
        {t('earnings.gotIt')}
      </button>
    </Dialog>
  );
}
