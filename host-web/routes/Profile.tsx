import { useMemo } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { isReservedUsername } from '../../lib/contract/usernames';
import { ProfileCard, useFanstage } from '../../lib/ui';
import { usePageTitle } from '../site';
import NotFound from './NotFound';
import { ProfileActions } from './ProfileActions';
import { ProfilePosts } from './ProfilePosts';
import styles from './Profile.module.css';

const notFoundCodes = new Set(['user-not-found', 'not-found']);

/**
 * `/{id}`: a profile by username or user id (SPEC §2). A reserved name is one of the site's
 * own addresses and never a username, so it is not even looked up.
 */
export default function Profile({ id }: { id: string }) {
  if (isReservedUsername(id)) return <NotFound />;
  return <KnownProfile id={id} />;
}

function KnownProfile({ id }: { id: string }) {
  useSignals();
  const fanstage = useFanstage();
  // The card reads the same store entry, so this adds no request of its own.
  const entry = useMemo(() => fanstage.profiles.get(id), [fanstage, id]);
  const status = entry.status.value;
  const error = entry.error.value;
  const profile = entry.profile.value;
  usePageTitle(profile ? profile.displayName.trim() || profile.username : null);

  if (status === 'error' && error && notFoundCodes.has(error.code)) return <NotFound />;

  return (
    <div className={styles.profile}>
      <ProfileCard username={id} headingLevel={1} />
      {profile ? <ProfileActions profile={profile} /> : null}
      {profile ? <ProfilePosts userId={profile.id} name={profile.displayName.trim() || profile.username} /> : null}
    </div>
  );
}
