import { Suspense, useEffect, useMemo, type ComponentProps } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { isReservedUsername } from '../../lib/contract/usernames';
import { ProfileCard, useFanstage } from '../../lib/ui';
import type { PublicProfile } from '../../lib/contract';
import { usePageTitle, useSite } from '../site';
import { lazyPart } from '../layout/lazyPart';
import { linkLanding } from '../landing';
import type { ProfileActions as ProfileActionsPart } from './ProfileActions';
import type { ProfilePosts as ProfilePostsPart } from './ProfilePosts';
import type { LinkOffer as LinkOfferPart } from './LinkOffer';
import styles from './Profile.module.css';

// The card is the screen's largest paint and needs only what the first load brings (its strings
// are among the first load's, host-web/vite.config.ts): it shows as soon as the profile is in.
// The actions (follow, message, call, subscribe, the menu) and the posts bring strings and
// stores of their own and follow it, each in a box kept for it so nothing below moves.
const ProfileActions = lazyPart<ComponentProps<typeof ProfileActionsPart>>(() => import('./ProfileActions').then((m) => ({ default: m.ProfileActions })));
const ProfilePosts = lazyPart<ComponentProps<typeof ProfilePostsPart>>(() => import('./ProfilePosts').then((m) => ({ default: m.ProfilePosts })));
const LinkOffer = lazyPart<ComponentProps<typeof LinkOfferPart>>(() => import('./LinkOffer').then((m) => ({ default: m.LinkOffer })));
const NotFound = lazyPart<Record<string, never>>(() => import('./NotFound'));

const notFoundCodes = new Set(['user-not-found', 'not-found']);

/** The creators this page load has told of a visit: SPEC §5, a profile visit once per profile. */
const visited = new Set<number>();

/**
 * Opening a creator's profile is a visit she is told of (the socket's `profileVisit`); reading
 * a profile elsewhere (a chat, a button) is not, and fans are not told who looked at them.
 * Sent once the socket is open, as a page opened from a link may come before it.
 */
function useProfileVisit(profile: PublicProfile | null) {
  const fanstage = useFanstage();
  const { loggedIn, username } = useSite();
  const open = fanstage.socket.connectedState.value === 'open';
  const creatorId = profile && (profile.isSeller || profile.isPartner) && profile.username !== username ? profile.id : null;
  useEffect(() => {
    if (!loggedIn || !open || creatorId === null || visited.has(creatorId)) return;
    if (fanstage.socket.send({ type: 'profileVisit', profileUserId: creatorId })) visited.add(creatorId);
  }, [fanstage, loggedIn, open, creatorId]);
}

/**
 * `/{id}`: a profile by username or user id (SPEC §2). A reserved name is one of the site's
 * own addresses and never a username, so it is not even looked up.
 */
export default function Profile({ id }: { id: string }) {
  if (isReservedUsername(id)) return <Suspense fallback={null}><NotFound /></Suspense>;
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
  useProfileVisit(profile);

  if (status === 'error' && error && notFoundCodes.has(error.code)) {
    return (
      <Suspense fallback={null}>
        <NotFound />
      </Suspense>
    );
  }

  return (
    <div className={styles.profile}>
      <ProfileCard username={id} headingLevel={1} />
      {profile ? (
        <Suspense fallback={<div className={styles.actionsPending} />}>
          <ProfileActions profile={profile} />
        </Suspense>
      ) : null}
      {profile && linkLanding.value !== null ? (
        <Suspense fallback={null}>
          <LinkOffer username={profile.username} />
        </Suspense>
      ) : null}
      {profile ? (
        <Suspense fallback={<div className={styles.postsPending} />}>
          <ProfilePosts userId={profile.id} name={profile.displayName.trim() || profile.username} />
        </Suspense>
      ) : null}
    </div>
  );
}
