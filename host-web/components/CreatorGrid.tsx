import { startTransition, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ProfileCard, ProfileCardView, useFanstage } from '../../lib/ui';
import type { PublicProfile, SdkError } from '../../lib/sdk';
import { pageSizes } from '../../lib/sdk/rules/constants';
import { useInAppLinks } from '../useInAppLinks';
import styles from './CreatorGrid.module.css';

type ListState = { status: 'loading' } | { status: 'error'; error: SdkError } | { status: 'ready'; creators: PublicProfile[] };

/**
 * Creators to follow (`GET /papi/who-to-follow`), each card leading to the creator's profile.
 * The public home and Discover's active-users tab both show it.
 */
export function CreatorGrid({ headingLevel }: { headingLevel: 2 | 3 }) {
  const { t } = useTranslation();
  const fanstage = useFanstage();
  const onClick = useInAppLinks();
  const [state, setState] = useState<ListState>({ status: 'loading' });

  const load = useCallback(
    (signal?: AbortSignal) => {
      setState({ status: 'loading' });
      fanstage.search.suggested().then(
        (creators) => {
          if (signal?.aborted) return;
          // Fifteen cards at once: rendered in slices, so a slow phone stays responsive meanwhile.
          startTransition(() => setState({ status: 'ready', creators }));
        },
        (error: SdkError) => {
          if (!signal?.aborted) setState({ status: 'error', error });
        },
      );
    },
    [fanstage],
  );

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  if (state.status === 'loading') {
    return (
      <div className={styles.grid} aria-busy="true" data-testid="creator-grid-loading">
        <p className="visually-hidden" role="status">
          {t('home.loading')}
        </p>
        {/* As many cards as a page of suggestions holds, each as tall as a loaded card: the posts under them stay where they are. */}
        {Array.from({ length: pageSizes.whoToFollow }, (_, index) => (
          <div key={index} aria-hidden="true">
            <ProfileCardView status="loading" message="" />
          </div>
        ))}
      </div>
    );
  }

  if (state.status === 'error') {
    return (
      <div className={styles.problem} role="alert">
        <p>{t('home.error')}</p>
        {state.error.code ? <p className={styles.detail}>{t(`errors.${state.error.code}`, { defaultValue: '' })}</p> : null}
        <button type="button" className={styles.retry} onClick={() => load()}>
          {t('app.retry')}
        </button>
      </div>
    );
  }

  if (state.creators.length === 0) return <p className={styles.problem}>{t('home.empty')}</p>;

  return (
    // The click handler only turns the cards' plain links into in-app navigation.
    <ul className={styles.grid} onClick={onClick} data-testid="creator-grid">
      {state.creators.map((creator) => (
        <li key={creator.id} className={styles.item}>
          <ProfileCard username={creator.username} href={`/${encodeURIComponent(creator.username)}`} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}
