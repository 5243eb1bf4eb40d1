import { useTranslation } from 'react-i18next';
import { MassMessages } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import { LoginNeeded } from './Settings';
import styles from './Money.module.css';

/**
 * `/settings/mass-messages` (login): the creator's mass messages — one message, with a priced
 * photo or video if wanted, to all followers, subscribers or expired subscribers — and the
 * messages sent, with how many got each and how many unlocked it (SPEC §7 massChatMessage).
 */
export default function SettingsMassMessages() {
  const { loggedIn } = useSite();
  return <AfterSessionCheck>{loggedIn ? <Mass /> : <LoginNeeded />}</AfterSessionCheck>;
}

function Mass() {
  const { t } = useTranslation();
  usePageTitle(t('creatorTools.site.mass'));
  return (
    <section className={[styles.screen, styles.wide].join(' ')} aria-labelledby="mass-title">
      <h1 id="mass-title" className={styles.title}>
        {t('creatorTools.site.mass')}
      </h1>
      <MassMessages headingLevel={2} />
    </section>
  );
}
