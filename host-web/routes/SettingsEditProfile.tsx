import { useTranslation } from 'react-i18next';
import { EditProfileForm } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { LoginNeeded } from './Settings';
import styles from './Settings.module.css';

/** `/settings/edit-profile` (login only): the profile editor; its Done button saves. */
export default function SettingsEditProfile() {
  const { t } = useTranslation();
  const { loggedIn } = useSite();
  usePageTitle(t('profileEdit.title'));
  if (!loggedIn) return <LoginNeeded />;
  return (
    <div className={styles.screen}>
      {/* The footer's language picker is the one language setting, the account's and the page's. */}
      <EditProfileForm headingLevel={1} className={styles.form} languageField={false} />
    </div>
  );
}
