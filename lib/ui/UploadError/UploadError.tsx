import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadProblem } from '../../sdk';
import '../theme/tokens.css';
import styles from './UploadError.module.css';
import { Modal } from '../ShareDialog/Modal';

export interface UploadErrorProps {
  /** SPEC §8: wrong_media_type, format, tooLong or lowRes. */
  problem: UploadProblem;
  /** Opens the file picker again. */
  onChooseOther: () => void;
  onCancel: () => void;
}

/** The upload error popup of SPEC §8: the cause, 'Choose other media' and a cancel text button. */
export function UploadError({ problem, onChooseOther, onCancel }: UploadErrorProps) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  return (
    <Modal labelledBy={titleId} onClose={onCancel} lang={i18n.resolvedLanguage ?? i18n.language}>
      <div className={styles.body} role="alert">
        <h2 id={titleId} className={styles.title}>
          {t('upload.errorTitle')}
        </h2>
        <p className={styles.message} data-problem={problem}>
          {t(`upload.${problem}`)}
        </p>
      </div>
      <div className={styles.buttons}>
        <button type="button" className={styles.primary} onClick={onChooseOther}>
          {t('upload.chooseOther')}
        </button>
        <button type="button" className={styles.text} onClick={onCancel}>
          {t('upload.cancel')}
        </button>
      </div>
    </Modal>
  );
}
