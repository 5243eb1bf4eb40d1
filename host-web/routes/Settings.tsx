import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useFanstage, VerifyEmailNotice } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { SettingsSites } from './SettingsSites';
import { SettingsSpending } from './SettingsSpending';
import { SettingsInvite } from './SettingsInvite';
import styles from './Settings.module.css';

/** `/settings` (login only, SPEC §2): the settings list and the account's e-mail. */
export default function Settings() {
  useSignals();
  const { t } = useTranslation();
  const { loggedIn, openLogoutConfirm } = useSite();
  const { session } = useFanstage();
  const account = session.account.value;
  usePageTitle(t('settings.title'));

  if (!loggedIn) return <LoginNeeded />;

  return (
    <section className={styles.screen} aria-labelledby="settings-title">
      <h1 id="settings-title" className={styles.title}>
        {t('settings.title')}
      </h1>
      <nav aria-labelledby="settings-title">
        <ul className={styles.list}>
          <li>
            <Link href="/settings/edit-profile" className={styles.item}>
              {t('settings.editProfile')}
            </Link>
          </li>
          <li>
            <Link href="/settings/upload-avatar" className={styles.item}>
              {t('settings.uploadAvatar')}
            </Link>
          </li>
          <li>
            <Link href="/settings/account" className={styles.item}>
              {t('settings.manageAccount')}
            </Link>
          </li>
          <li>
            <Link href="/settings/wallet" className={styles.item}>
              {t('siteMoney.menu.wallet')}
            </Link>
          </li>
          <li>
            <Link href="/settings/earnings" className={styles.item}>
              {t('siteMoney.menu.earnings')}
            </Link>
          </li>
          <li>
            <Link href="/settings/subscription/subscribing" className={styles.item}>
              {t('siteMoney.menu.subscriptions')}
            </Link>
          </li>
          {account?.isSeller ? (
            <>
              <li>
                <Link href="/settings/offers" className={styles.item}>
                  {t('creatorTools.site.offers')}
                </Link>
              </li>
              <li>
                <Link href="/settings/mass-messages" className={styles.item}>
                  {t('creatorTools.site.mass')}
                </Link>
              </li>
              <li>
                <Link href="/settings/widget-sites" className={styles.item}>
                  {t('widgetSites.title')}
                </Link>
              </li>
              <li>
                <Link href="/statistics" className={styles.item}>
                  {t('statistics.title')}
                </Link>
              </li>
            </>
          ) : null}
        </ul>
      </nav>
      <section className={styles.account} aria-labelledby="settings-account">
        <h2 id="settings-account" className={styles.subtitle}>
          {t('settings.account')}
        </h2>
        {account ? (
          <dl className={styles.facts}>
            <dt>{t('settings.email')}</dt>
            <dd data-testid="settings-email">
              {account.email}{' '}
              <span className={account.emailVerified ? styles.verified : styles.unverified}>
                {account.emailVerified ? t('settings.verified') : t('settings.notVerified')}
              </span>
            </dd>
          </dl>
        ) : (
          <p role="status">{t('app.loading')}</p>
        )}
        <VerifyEmailNotice headingLevel={3} />
      </section>
      <SettingsInvite />
      <SettingsSpending />
      <SettingsSites />
      {/* Phones and tablets have no logout icon in their navigation: this is their way out. */}
      <button type="button" className={styles.logout} aria-haspopup="dialog" onClick={openLogoutConfirm}>
        {t('logout.open')}
      </button>
    </section>
  );
}

/** Shown for the moment before the site's login guard sends a visitor to `/`. */
export function LoginNeeded() {
  const { t } = useTranslation();
  return (
    <p className={styles.screen} role="status">
      {t('settings.redirecting')}
    </p>
  );
}
