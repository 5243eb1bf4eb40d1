import { useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { SignUpForm, VerifyEmailNotice } from '../../lib/ui';
import { usePageTitle, useSite } from '../site';
import { useInvitedBy } from '../landing';
import styles from './Account.module.css';

/**
 * `/sign-up` (SPEC §2). A successful sign-up logs in at once (SPEC §4); the screen then asks
 * for the e-mail verification. A logged-in user opening the page sees the same.
 */
export default function SignUp() {
  const { t } = useTranslation();
  const { loggedIn, openLoginPrompt, fanstage } = useSite();
  const invitedBy = useInvitedBy(fanstage);
  const [justSignedUp, setJustSignedUp] = useState(false);
  usePageTitle(t('account.signUp.pageTitle'), { inHeader: false });

  if (loggedIn) {
    return (
      <div className={styles.screen} data-testid="sign-up-done">
        <section className={styles.panel} aria-labelledby="sign-up-welcome">
          <h1 id="sign-up-welcome" className={styles.title}>
            {justSignedUp ? t('account.signUp.welcome') : t('account.signUp.alreadyIn')}
          </h1>
          <Link href="/discover" className={styles.action}>
            {t('account.signUp.discover')}
          </Link>
        </section>
        <VerifyEmailNotice />
      </div>
    );
  }

  return (
    <div className={styles.screen}>
      {invitedBy ? (
        <p className={styles.aside} data-testid="sign-up-invited-by">
          {t('invites.signUpInvitedBy', { name: invitedBy.displayName || invitedBy.username })}
        </p>
      ) : null}
      <SignUpForm headingLevel={1} autoFocus onSuccess={() => setJustSignedUp(true)} />
      <p className={styles.aside}>
        {t('account.signUp.haveAccount')}{' '}
        <button type="button" className={styles.textButton} aria-haspopup="dialog" onClick={openLoginPrompt}>
          {t('account.signUp.login')}
        </button>
      </p>
    </div>
  );
}
