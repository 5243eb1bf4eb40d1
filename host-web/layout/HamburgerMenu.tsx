import { useCallback, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSite } from '../site';
import { Dialog } from '../../lib/ui';
import { FooterLinks } from './Footer';
import { LanguagePicker } from './LanguagePicker';
import { useModelProgram } from '../routes/tourSettings';
import { Icon, LogoMark } from './icons';
import styles from './HamburgerMenu.module.css';

/** The visitor's menu on phones and tablets (SPEC §2); the web layout has the side navigation. */
export function HamburgerMenu() {
  const { t } = useTranslation();
  const { openLoginPrompt } = useSite();
  const modelProgram = useModelProgram();
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);

  // The login prompt replaces the menu; focus then returns to the menu button, not into it.
  const toLoginPrompt = () => {
    close();
    openLoginPrompt();
  };

  return (
    <>
      <button
        type="button"
        className={styles.toggle}
        aria-label={t('nav.menu')}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <Icon name="menu" />
      </button>
      <Dialog
        open={open}
        title={
          <span className={styles.brand}>
            <LogoMark size={28} />
            {t('nav.menu')}
          </span>
        }
        closeLabel={t('nav.closeMenu')}
        size="drawer"
        onClose={close}
        bodyClassName={styles.content}
        data-testid="hamburger-menu"
      >
          <div className={styles.actions}>
            <Link href="/sign-up" className={styles.primary} onClick={close}>
              {t('nav.signUp')}
            </Link>
            <button type="button" className={styles.secondary} aria-haspopup="dialog" onClick={toLoginPrompt}>
              {t('nav.login')}
            </button>
          </div>
          <nav aria-label={t('nav.menu')}>
            <ul className={styles.list}>
              <li>
                <Link href="/discover" className={styles.item} onClick={close}>
                  <Icon name="discover" size={22} />
                  {t('nav.discover')}
                </Link>
              </li>
              {modelProgram ? (
                <li>
                  <Link href="/tour-partners" className={styles.item} onClick={close}>
                    <Icon name="star" size={22} />
                    {t('footer.modelProgram')}
                  </Link>
                </li>
              ) : null}
              <li>
                <Link href="/tour-faq" className={styles.item} onClick={close}>
                  <Icon name="help" size={22} />
                  {t('footer.faq')}
                </Link>
              </li>
            </ul>
          </nav>
          <LanguagePicker className={styles.language} />
          <FooterLinks className={styles.footer} onNavigate={close} />
      </Dialog>
    </>
  );
}
