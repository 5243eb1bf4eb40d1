import { useTranslation } from 'react-i18next';
import { AvatarUpload } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { LoginNeeded } from './Settings';
import styles from './Settings.module.css';

/** `/settings/upload-avatar` (login only): a new profile picture; its Save button uploads. */
export default function SettingsUploadAvatar() {
  const { t } = useTranslation();
  const { loggedIn } = useSite();
  usePageTitle(t('avatarUpload.title'));
  if (!loggedIn) return <LoginNeeded />;
  return (
    <div className={styles.screen}>
      <AvatarUpload headingLevel={1} className={styles.form} />
    </div>
  );
}
