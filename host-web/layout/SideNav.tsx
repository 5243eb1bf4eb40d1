import { Suspense, useSyncExternalStore } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSite } from '../site';
import { TabItems } from './TabItems';
import { lazyPart } from './lazyPart';
import { Icon, LogoMark } from './icons';
import { MediaPickerButton } from '../components/MediaPickerButton';
import styles from './SideNav.module.css';

// The earnings aside is for partners and creators (layout/memberParts.ts).
const EarningsAside = lazyPart<Record<string, never>>(() => import('./memberParts').then((m) => ({ default: m.EarningsAside })));
// The chat aside is for logged-in people on the web layout: it is fetched after the first paint.
const ChatAside = lazyPart<Record<string, never>>(() => import('./ChatAside').then((m) => ({ default: m.ChatAside })));

const wideQuery = '(min-width: 1280px)';
function subscribeWide(onChange: () => void) {
  const query = window.matchMedia(wideQuery);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Whether the web layout shows (≥ 1280 px): the column's asides are fetched and kept up only then. */
function useWide(): boolean {
  return useSyncExternalStore(subscribeWide, () => window.matchMedia(wideQuery).matches);
}

/** The web layout's navigation (≥ 1280 px); CSS hides it below, where BottomNav shows. */
export function SideNav() {
  const { t } = useTranslation();
  const { loggedIn, openLoginPrompt, fanstage } = useSite();
  // A creator's button opens the file picker (SPEC §2); anyone else's leads to the New post
  // screen first, which says that their posts are free before they pick anything.
  const creator = fanstage.session.account.value?.isSeller === true;
  // Below 1280 px the column is hidden: a phone neither fetches nor renders the chat aside.
  const wide = useWide();
  return (
    <div className={styles.side}>
      {/* One landmark holds all of the column's navigation: the home link, the tabs and the way in or the new post. */}
      <nav aria-label={t('nav.main')} data-testid="side-nav" className={styles.nav}>
        <Link href="/" className={styles.logo} aria-label={t('nav.home')}>
          <LogoMark size={36} />
          <span className={styles.wordmark}>{t('app.name')}</span>
        </Link>
        <TabItems classes={styles} withLogout />
        {loggedIn && creator ? (
          // SPEC §2: the web layout's add-post button opens a file picker for the new post.
          <MediaPickerButton className={styles.newPost} label={t('sitePosts.addPost.choose')}>
            <Icon name="add" />
            <span>{t('nav.newPost')}</span>
          </MediaPickerButton>
        ) : loggedIn ? (
          <Link href="/new-post" className={styles.newPost}>
            <Icon name="add" />
            <span>{t('nav.newPost')}</span>
          </Link>
        ) : (
          // A visitor's way in, where the add-post button stands for people who are signed in.
          <div className={styles.visitor} role="group" aria-label={t('nav.account')}>
            <Link href="/sign-up" className={styles.newPost}>
              {t('nav.signUp')}
            </Link>
            <button type="button" className={styles.login} aria-haspopup="dialog" onClick={openLoginPrompt}>
              {t('nav.login')}
            </button>
          </div>
        )}
      </nav>
      {loggedIn ? (
        <Suspense fallback={null}>
          <EarningsAside />
        </Suspense>
      ) : null}
      {loggedIn && wide ? (
        <Suspense fallback={null}>
          <ChatAside />
        </Suspense>
      ) : null}
    </div>
  );
}
