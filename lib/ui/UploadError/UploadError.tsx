import { useTranslation } from 'react-i18next';
import type { UploadProblem } from '../../sdk';
import '../theme/tokens.css';
import styles from './UploadError.module.css';
import { Dialog } from '../dialog/Dialog';

export interface UploadErrorProps {
  /** SPEC §8: wrong_media_type, format, tooLong or lowRes. */
  problem: UploadProblem;
  /** Opens the file picker again. */
  onChooseOther: () => void;
  onCancel: () => void;
}

/** The upload error popup of SPEC §8: the cause, 'Choose other media' and a cancel text button. */
export function UploadError({ problem, onChooseOther, onCancel }: UploadErrorProps) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('upload.errorTitle')} closeButton={false} size="small" onClose={onCancel} bodyClassName={styles.body}>
      <p className={styles.message} role="alert" data-problem={problem}>
        {t(`upload.${problem}`)}
      </p>
      <div className={styles.buttons}>
        <button type="button" className={styles.primary} onClick={onChooseOther}>
          {t('upload.chooseOther')}
        </button>
        <button type="button" className={styles.text} onClick={onCancel}>
          {t('upload.cancel')}
        </button>
      </div>
    </Dialog>
  );
}
