import { useEffect, useId, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import { avatarUrl, pageSizes, type PublicProfile } from '../../lib/sdk';
import { useFanstage } from '../../lib/ui';
import styles from './TopUsers.module.css';

interface TopUsersState {
  readonly kind: 'online' | 'suggested';
  readonly users: readonly PublicProfile[];
}

/**
 * The Timeline's horizontal scroller of people (SPEC §2): who is online now, or, when nobody
 * is, creators worth following, so the strip is never an empty band at the top of the page.
 * With the viewer's token the server leaves out the viewer and blocked people.
 */
export function TopUsers() {
  useSignals();
  const { t } = useTranslation();
  const fanstage = useFanstage();
  const headingId = useId();
  const [state, setState] = useState<TopUsersState | null>(null);
  const cdn = fanstage.settings.settings.value?.mediaCDN ?? '';

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    void fanstage.settings.load().catch(() => undefined);
    (async () => {
      const online = await fanstage.client.get<PublicProfile[]>('/papi/online-users', { limit: pageSizes.onlineUsers }, { signal, withToken: true }).catch(() => []);
      if (online.length > 0) return { kind: 'online', users: online } as const;
      const suggested = await fanstage.client.get<PublicProfile[]>('/papi/who-to-follow', { limit: pageSizes.whoToFollow }, { signal, withToken: true }).catch(() => []);
      return { kind: 'suggested', users: suggested } as const;
    })().then((next) => {
      if (signal.aborted) return;
      fanstage.profiles.remember([...next.users]);
      setState(next);
    });
    return () => controller.abort();
  }, [fanstage]);

  if (!state || state.users.length === 0) return null;

  return (
    <section className={styles.strip} aria-labelledby={headingId} data-testid="top-users">
      <h2 id={headingId} className="visually-hidden">
        {t(state.kind === 'online' ? 'sitePosts.topUsers.online' : 'sitePosts.topUsers.suggested')}
      </h2>
      <ul className={styles.list}>
        {state.users.map((user) => {
          const name = user.displayName.trim() || user.username;
          const src = avatarUrl(cdn, user.avatarMedia, 120);
          return (
            <li key={user.id} className={styles.item}>
              <Link href={`/${encodeURIComponent(user.username)}`} className={styles.link}>
                <span className={`${styles.avatar} ${user.online ? styles.online : ''}`}>
                  {src ? <img src={src} alt="" width={60} height={60} loading="lazy" /> : <span aria-hidden="true">{name.slice(0, 1).toUpperCase()}</span>}
                </span>
                <span className={styles.name}>{name}</span>
                {user.online ? <span className="visually-hidden">{t('sitePosts.topUsers.isOnline')}</span> : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
