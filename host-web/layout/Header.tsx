import { Suspense } from 'react';
import { Link, useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSite } from '../site';
import { getPreviousLocation, isTabScreen } from '../navigation';
import { HamburgerMenu } from './HamburgerMenu';
import { HeaderSearch } from './HeaderSearch';
import { chatPartnerOf } from './chatPartner';
import { lazyPart } from './lazyPart';
import { GenderFilter, hasGenderFilter } from '../components/GenderFilter';
import { Icon, LogoMark } from './icons';
import styles from './Header.module.css';

// The Timeline's earnings are a signed-in person's (layout/memberParts.ts).
const HeaderEarnings = lazyPart<Record<string, never>>(() => import('./memberParts').then((m) => ({ default: m.HeaderEarnings })));
// Only an opened chat shows the price badge: it comes with that screen, not with the shell.
const HeaderChatPrice = lazyPart<{ user: string }>(() => import('./HeaderChatPrice').then((m) => ({ default: m.HeaderChatPrice })));

export function Header() {
  const { t } = useTranslation();
  const [location] = useLocation();
  const { title: pageTitle, loggedIn } = useSite();
  const title = pageTitle?.inHeader ? pageTitle.text : null;
  const showBack = !isTabScreen(location);
  // Discover is where people search: on a phone its box takes the title's place there, where
  // any other titled screen shows the search icon (which leads here).
  const searching = location === '/discover' || location.startsWith('/discover/');
  const chatPartner = loggedIn ? chatPartnerOf(location) : null;

  return (
    <header className={`${styles.header} ${title || showBack || hasGenderFilter(location) ? '' : styles.bare}`}>
      <div className={`${styles.bar} ${chatPartner ? styles.chatBar : ''} ${title ? (searching ? styles.searching : styles.titled) : ''}`}>
        {showBack ? <BackButton /> : null}
        <Link href="/" className={`${styles.logo} ${title || showBack || hasGenderFilter(location) ? styles.logoWithTitle : ''}`} aria-label={t('nav.home')}>
          <LogoMark />
          <span className={styles.wordmark}>{t('app.name')}</span>
        </Link>
        {title ? <div className={styles.title}>{title}</div> : <span className={styles.spacer} />}
        <div className={styles.actions}>
          {loggedIn && location === '/timeline' ? (
            <Suspense fallback={null}>
              <HeaderEarnings />
            </Suspense>
          ) : null}
          {chatPartner ? (
            <Suspense fallback={null}>
              <HeaderChatPrice user={chatPartner} />
            </Suspense>
          ) : null}
          <span className={styles.searchSlot}>
            <HeaderSearch />
          </span>
          {/* A phone's titled screen keeps its room for the title: search is one tap away (SPEC §2 "search icon"). */}
          {title && !chatPartner && !searching ? (
            <Link href="/discover" className={`${styles.iconButton} ${styles.searchIcon}`} aria-label={t('nav.search')}>
              <Icon name="search" />
            </Link>
          ) : null}
          {hasGenderFilter(location) ? <GenderFilter /> : null}
          {loggedIn ? null : <HamburgerMenu />}
        </div>
      </div>
    </header>
  );
}

function BackButton() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  return (
    <button
      type="button"
      className={styles.iconButton}
      aria-label={t('app.back')}
      onClick={() => {
        // Back within the app when there is somewhere to go back to; a profile opened from
        // a shared link has no history here, so it goes home instead of leaving the site.
        if (getPreviousLocation() !== null) window.history.back();
        else navigate('/');
      }}
    >
      <Icon name="back" />
    </button>
  );
}
