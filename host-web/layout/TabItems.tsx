import { Link, useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSite } from '../site';
import { activeTab, tabs, type Tab } from '../navigation';
import { Icon } from './icons';

/** Class names from the caller's CSS module, which styles the same markup its own way. */
export type TabItemsClasses = Readonly<Partial<Record<'list' | 'item' | 'link' | 'icon' | 'label', string>>>;

/**
 * The five main tabs (SPEC §2), shared by the bottom and the side navigation. A tab the
 * visitor may not open is a button that opens the login prompt, not a link that would
 * bounce: it says honestly what it does, and screen readers announce the dialog.
 */
export function TabItems({ classes }: { classes: TabItemsClasses }) {
  const { t } = useTranslation();
  const [location] = useLocation();
  const { loggedIn, openLoginPrompt } = useSite();
  const current = activeTab(location);

  return (
    <ul className={classes.list}>
      {tabs.map((tab) => (
        <li key={tab.id} className={classes.item}>
          {canOpen(tab, loggedIn) && tab.path ? (
            <Link href={tab.path} className={classes.link} aria-current={current === tab.id ? 'page' : undefined}>
              <TabContent tab={tab} classes={classes} label={t(`nav.${tab.id}`)} />
            </Link>
          ) : (
            <button type="button" className={classes.link} aria-haspopup="dialog" onClick={openLoginPrompt}>
              <TabContent tab={tab} classes={classes} label={t(`nav.${tab.id}`)} />
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

function canOpen(tab: Tab, loggedIn: boolean): boolean {
  return loggedIn || tab.openToVisitors;
}

function TabContent({ tab, classes, label }: { tab: Tab; classes: TabItemsClasses; label: string }) {
  return (
    <>
      <Icon name={tab.icon} className={classes.icon} />
      <span className={classes.label}>{label}</span>
    </>
  );
}
