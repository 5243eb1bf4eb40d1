import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { useFanstage } from '../FanstageProvider/context';
import styles from './ExternalSignIn.module.css';

/** One "Continue with …" link: a full navigation to the provider through the platform. */
export interface ExternalSignInLink {
  name: string;
  label: string;
  href: string;
}

/**
 * The external sign-in providers the platform offers (GET /papi/settings `oauthProviders`), as
 * links that start the sign-in and come back to this very page (`returnTo`, a path of the
 * platform: the server refuses any other). None until the settings are loaded, and none when
 * the platform offers none.
 */
export function useExternalSignIn(): ExternalSignInLink[] {
  useSignals();
  const fanstage = useFanstage();
  const { t, i18n } = useTranslation();
  const settings = fanstage.settings.settings.value;
  // The sign-in comes back to a page of the platform, so the links only make sense there:
  // not in a widget on someone else's page, which signs in through its popup instead (and
  // there the form asks the server for nothing it does not need).
  const platform = onPlatform(fanstage.client.baseUrl);
  useEffect(() => {
    // A failed load only hides the buttons; the form works without them.
    if (platform) fanstage.settings.load().catch(() => undefined);
  }, [fanstage, platform]);
  const providers = settings?.oauthProviders ?? [];
  if (providers.length === 0 || !platform) return [];
  const here = typeof window === 'undefined' ? '/' : `${window.location.pathname}${window.location.search}${window.location.hash}`;
  const language = i18n.resolvedLanguage ?? i18n.language;
  return providers.map((provider) => {
    const query = new URLSearchParams({ provider: provider.name, returnTo: here, lang: language });
    return { name: provider.name, label: t('oauth.continueWith', { provider: provider.title }), href: fanstage.client.url(`/api/oauth/authorize?${query.toString()}`) };
  });
}

function onPlatform(baseUrl: string): boolean {
  if (typeof window === 'undefined') return false;
  if (baseUrl === '') return true;
  try {
    return new URL(baseUrl, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/** The divider and the provider links under a login or sign-up form; nothing when there are none. */
export function ExternalSignIn({ links }: { links: readonly ExternalSignInLink[] | undefined }) {
  const { t } = useTranslation();
  if (links === undefined || links.length === 0) return null;
  return (
    <div className={styles.external}>
      <p className={styles.or}>{t('oauth.or')}</p>
      {links.map((link) => (
        <a key={link.name} className={styles.provider} href={link.href}>
          {link.label}
        </a>
      ))}
    </div>
  );
}
