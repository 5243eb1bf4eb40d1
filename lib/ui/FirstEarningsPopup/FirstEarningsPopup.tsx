import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PayoutMethods } from '../../contract/constants';
import '../theme/tokens.css';
import { Modal } from '../ShareDialog/Modal';
import dialogStyles from '../ShareDialog/ShareDialog.module.css';
import { useFirstEarningsPopup, type FirstEarningsPopupState } from './useFirstEarningsPopup';
import styles from './FirstEarningsPopup.module.css';

/** Shows itself once, when the creator's first earnings arrive (SPEC §4 "first-earnings popup"). */
export function FirstEarningsPopup() {
  return <FirstEarningsPopupView {...useFirstEarningsPopup()} />;
}

export function FirstEarningsPopupView(props: FirstEarningsPopupState) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const textId = useId();
  if (!props.open) return null;
  return (
    <Modal labelledBy={titleId} onClose={props.dismiss} lang={i18n.resolvedLanguage ?? i18n.language} className={styles.panel}>
      <div className={dialogStyles.head}>
        <h2 id={titleId} className={dialogStyles.title}>
          {t('earnings.firstTitle')}
        </h2>
      </div>
      <p id={textId} className={styles.text}>
        {t('earnings.firstText', { amount: props.amount })}
      </p>
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
    </Modal>
  );
}
