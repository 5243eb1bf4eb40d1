import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Dialog } from '../../lib/ui';
import { useSite } from '../site';
import { categories, preferenceValue, readCookie, type Category } from './AgeGate';
import styles from './AgeGate.module.css';

/** The choice the `preference` cookie holds; without one, what the age gate starts from. */
export function currentPreferences(value: string | null): Record<Category, boolean> {
  const choice: Record<Category, boolean> = { preferences: true, statistics: false, marketing: false };
  if (value === null) return choice;
  for (const part of value.split(',')) {
    const [name, flag] = part.split('=');
    if ((categories as readonly string[]).includes(name ?? '')) choice[name as Category] = flag === '1';
  }
  return choice;
}

/**
 * The cookie preferences of SPEC §2, reopened from the footer at any time (GDPR: withdrawing
 * consent must be as easy as giving it). The same four categories as the age gate's advanced
 * settings, starting from what is stored; saving writes the `preference` cookie through
 * POST /papi/users/cookie.
 */
export function CookiePreferences({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { fanstage } = useSite();
  const [choice, setChoice] = useState(() => currentPreferences(readCookie('preference')));
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  async function save() {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    try {
      await fanstage.client.post('/papi/users/cookie', { name: 'preference', value: preferenceValue(choice) });
      onClose();
    } catch {
      setFailed(true);
      setBusy(false);
    }
  }

  return (
    <Dialog open title={t('consent.reopenTitle')} description={t('consent.reopenText')} closeLabel={t('loginPrompt.close')} onClose={onClose} data-testid="cookie-preferences">
      <div className={styles.content}>
        <p className={styles.links}>
          <Link href="/cookie-policy" onClick={onClose}>
            {t('footer.cookiePolicy')}
          </Link>
        </p>
        {failed ? (
          <p className={styles.error} role="alert">
            {t('consent.failed')}
          </p>
        ) : null}
        <fieldset className={styles.cookies}>
          <legend className={styles.legend}>{t('consent.cookiesTitle')}</legend>
          <label className={styles.option}>
            <input type="checkbox" checked disabled />
            <span>
              <strong>{t('consent.necessary')}</strong>
              <small>{t('consent.necessaryText')}</small>
            </span>
          </label>
          {categories.map((category) => (
            <label key={category} className={styles.option}>
              <input type="checkbox" checked={choice[category]} onChange={(event) => setChoice((current) => ({ ...current, [category]: event.target.checked }))} />
              <span>
                <strong>{t(`consent.${category}`)}</strong>
                <small>{t(`consent.${category}Text`)}</small>
              </span>
            </label>
          ))}
        </fieldset>
        <button type="button" className={styles.primary} onClick={() => void save()} aria-busy={busy}>
          {t('consent.save')}
        </button>
      </div>
    </Dialog>
  );
}
