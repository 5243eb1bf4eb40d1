import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSite } from '../site';

/**
 * Waits for the start-up session check before showing what depends on the viewer: a post
 * loaded a moment too early would come back as a visitor sees it (no like, no unlock key)
 * and stay that way in the shared store.
 */
export function AfterSessionCheck({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { sessionChecked } = useSite();
  if (!sessionChecked) {
    return (
      <p className="visually-hidden" role="status">
        {t('app.loading')}
      </p>
    );
  }
  return <>{children}</>;
}
