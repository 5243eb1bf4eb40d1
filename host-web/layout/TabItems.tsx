import { Suspense, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSite } from '../site';
import { activeTab, tabs, type Tab } from '../navigation';
import { Icon } from './icons';
import { lazyPart, useWanted } from './lazyPart';

// The counts are a signed-in person's: a visitor's first load goes without them (layout/memberParts.ts).
const NotificationBadge = lazyPart<{ children: ReactNode }>(() => import('./memberParts').then((m) => ({ default: m.NotificationBadge })));
const ChatTabBadge = lazyPart<{ children: ReactNode }>(() => import('./memberParts').then((m) => ({ default: m.ChatTabBadge })));
const EarningsTabBadge = lazyPart<{ className?: string | undefined }>(() => import('./memberParts').then((m) => ({ default: m.EarningsTabBadge })));

/** Class names from the caller's CSS module, which styles the same markup its own way. */
export type TabItemsClasses = Readonly<Partial<Record<'list' | 'item' | 'link' | 'icon' | 'label' | 'logout' | 'earnings', string>>>;

/**
 * The five main tabs (SPEC §2), shared by the bottom and the side navigation. A tab the
 * visitor may not open is a button that opens the login prompt, not a link that would
 * bounce: it says honestly what it does, and screen readers announce the dialog.
 */
export function TabItems({ classes, withLogout = false }: { classes: TabItemsClasses; withLogout?: boolean }) {
  const { t } = useTranslation();
  const [location] = useLocation();
  const { loggedIn, username, openLoginPrompt, openLogoutConfirm, fanstage } = useSite();
  const ownProfile = loggedIn && username ? `/${username}` : null;
  const current = ownProfile && location.toLowerCase() === ownProfile.toLowerCase() ? 'profile' : activeTab(location);

  return (
    <ul className={classes.list}>
      {tabs.map((tab) => {
        // SPEC §2: the Profile tab leads to the user's own username.
        const path = tab.id === 'profile' ? ownProfile : tab.path;
        return (
          <li key={tab.id} className={classes.item}>
            {canOpen(tab, loggedIn) && path ? (
              <Link
                href={path}
                className={classes.link}
                aria-current={current === tab.id ? 'page' : undefined}
                // SPEC §2: tapping the active Discover tab resets the search and the filters.
                onClick={tab.id === 'discover' && current === 'discover' ? () => fanstage.search.resetFilters() : undefined}
              >
                <TabContent tab={tab} classes={classes} label={t(`nav.${tab.id}`)} />
              </Link>
            ) : (
              // Logged in, the own profile is only unknown for the moment the account loads.
              <button type="button" className={classes.link} aria-haspopup={loggedIn ? undefined : 'dialog'} disabled={loggedIn} onClick={openLoginPrompt}>
                <TabContent tab={tab} classes={classes} label={t(`nav.${tab.id}`)} />
              </button>
            )}
            {withLogout && loggedIn && tab.id === 'profile' ? (
              // SPEC §2: the web layout's Logout icon sits on the Profile item.
              <button type="button" className={classes.logout} aria-label={t('logout.open')} title={t('logout.open')} aria-haspopup="dialog" onClick={openLogoutConfirm}>
                <Icon name="logout" />
              </button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

function canOpen(tab: Tab, loggedIn: boolean): boolean {
  return loggedIn || tab.openToVisitors;
}

function TabContent({ tab, classes, label }: { tab: Tab; classes: TabItemsClasses; label: string }) {
  const { loggedIn } = useSite();
  // Fetched once someone signs in, and kept: each clears its count when they log out.
  const counted = useWanted(loggedIn);
  const icon = <Icon name={tab.icon} className={classes.icon} />;
  const Badge = tab.id === 'notifications' ? NotificationBadge : tab.id === 'chat' ? ChatTabBadge : null;
  return (
    <>
      {Badge && counted ? (
        <Suspense fallback={icon}>
          <Badge>{icon}</Badge>
        </Suspense>
      ) : (
        icon
      )}
      <span className={classes.label}>{label}</span>
      {/* After the label, so the tab is named "Timeline" first; each navigation places it. */}
      {tab.id === 'timeline' && counted ? (
        <Suspense fallback={null}>
          <EarningsTabBadge className={classes.earnings} />
        </Suspense>
      ) : null}
    </>
  );
}
