import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { FormAlert, FormShell, FormSuccess, formStyles } from '../shared/formParts';
import { useAvatarUpload, type AvatarUploadState, type UseAvatarUploadOptions } from './useAvatarUpload';
import styles from './AvatarUpload.module.css';

interface ViewOptions {
  className?: string;
  lang?: string;
  headingLevel?: 1 | 2 | 3;
}

export type AvatarUploadViewProps = AvatarUploadState & ViewOptions;
export type AvatarUploadProps = UseAvatarUploadOptions & ViewOptions;

/** Picks a new avatar, previews the square the server keeps, and uploads it. */
export function AvatarUpload({ onSuccess, ...view }: AvatarUploadProps) {
  const state = useAvatarUpload(onSuccess ? { onSuccess } : {});
  const { i18n } = useTranslation();
  return <AvatarUploadView lang={i18n.resolvedLanguage ?? i18n.language} {...state} {...view} />;
}

export function AvatarUploadView(props: AvatarUploadViewProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const hintId = useId();
  const alertId = useId();
  const shown = props.previewUrl ?? props.currentUrl;
  return (
    <FormShell
      title={t('avatarUpload.title')}
      headingLevel={props.headingLevel}
      text={t('avatarUpload.text')}
      onSubmit={props.onSubmit}
      busy={props.busy}
      className={props.className}
      lang={props.lang}
      describedBy={props.alert ? alertId : undefined}
    >
      <div className={styles.preview} data-testid="avatar-preview">
        {shown ? (
          <img
            className={styles.image}
            src={shown}
            alt={props.previewUrl ? t('avatarUpload.previewAlt') : t('avatarUpload.currentAlt')}
          />
        ) : (
          <span className={styles.empty}>{t('avatarUpload.none')}</span>
        )}
      </div>
      <div className={formStyles.field}>
        <label className={formStyles.label} htmlFor={inputId}>
          {t('avatarUpload.choose')}
        </label>
        <input
          id={inputId}
          className={styles.file}
          type="file"
          accept={props.accept}
          onChange={props.onFile}
          aria-describedby={hintId}
        />
        <p id={hintId} className={formStyles.hint}>
          {props.fileName ? t('avatarUpload.chosen', { name: props.fileName }) : t('avatarUpload.hint')}
        </p>
      </div>
      <FormAlert id={alertId} message={props.alert} />
      <FormSuccess message={props.saved} />
      {props.busy ? (
        <progress className={styles.progress} aria-label={t('avatarUpload.busy')} />
      ) : null}
      <button
        type="submit"
        className={formStyles.submit}
        aria-disabled={props.busy || !props.canSave || undefined}
      >
        {props.busy ? t('avatarUpload.busy') : t('avatarUpload.save')}
      </button>
    </FormShell>
  );
}
