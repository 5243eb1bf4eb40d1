import { useEffect, useMemo, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { useFanstage } from '../FanstageProvider/context';
import { errorMessage, type Message } from '../shared/errorMessage';

export interface UseFollowButtonOptions {
  /** The user to follow, by id or username; the profile store loads it if needed. */
  user: string | number;
  /**
   * Called instead of following when nobody is logged in (SPEC §5: follow needs a login). When
   * it signs the fan in and resolves `true` (a widget's popup sign-in), the follow goes ahead.
   */
  onLoginRequired?: () => void | boolean | Promise<boolean | void>;
  /** Asked before unfollowing; unfollows at once when absent. */
  confirmUnfollow?: () => boolean | Promise<boolean>;
}

export interface FollowButtonState {
  /** Nothing to show: the profile is not loaded yet, or it is the viewer's own. */
  hidden: boolean;
  /** The visible text: Follow, Following, or Now following right after a follow. */
  label: string;
  /** The name after the label for screen readers, so two buttons on a page differ. */
  name: string;
  pressed: boolean;
  busy: boolean;
  /** Announced after a change, for those who do not see the button change. */
  announcement: Message;
  alert: Message;
  onClick: () => void;
}

/** Follow and unfollow, shown the same wherever the profile is, from the relations store. */
export function useFollowButton({ user, onLoginRequired, confirmUnfollow }: UseFollowButtonOptions): FollowButtonState {
  useSignals();
  const { profiles, relations, session } = useFanstage();
  const { t } = useTranslation();
  const entry = useMemo(() => profiles.get(user), [profiles, user]);
  const [justFollowed, setJustFollowed] = useState(false);
  const [announcement, setAnnouncement] = useState<Message>(null);
  const [failure, setFailure] = useState<unknown>(null);

  const profile = entry.profile.value;
  const loggedIn = session.isLoggedIn.value;
  const busy = profile ? relations.pending.value.has(profile.id) : false;
  const pressed = loggedIn && profile?.isFollowed === true;
  const name = profile ? profile.displayName.trim() || profile.username : '';
  const needsRelation = loggedIn && profile !== null && profile.isFollowed === undefined && entry.status.value === 'ready';

  useEffect(() => {
    // A profile loaded before the login (or from a public list) lacks the viewer's relation.
    if (needsRelation) void profiles.load(user);
  }, [needsRelation, profiles, user]);

  useEffect(() => {
    if (!pressed) setJustFollowed(false);
  }, [pressed]);

  async function toggle() {
    if (!profile || busy) return;
    setFailure(null);
    if (!session.isLoggedIn.peek()) {
      await followAfterLogin();
      return;
    }
    try {
      if (pressed) {
        if (confirmUnfollow && !(await confirmUnfollow())) return;
        await relations.unfollow(profile.id);
        setAnnouncement(t('follow.unfollowed', { name }));
      } else {
        // The follow shows at once (the store is optimistic), and so does its confirmation.
        setJustFollowed(true);
        await relations.follow(profile.id);
        setAnnouncement(t('follow.followed', { name }));
      }
    } catch (error) {
      setJustFollowed(false);
      setFailure(error);
    }
  }

  async function followAfterLogin() {
    try {
      const signedIn = await onLoginRequired?.();
      if (signedIn !== true || !session.isLoggedIn.peek()) return;
      // The profile was loaded anonymously: learn whether this fan follows already.
      await profiles.load(user);
      const current = entry.profile.peek();
      if (!current || current.isFollowed === true) return;
      setJustFollowed(true);
      await relations.follow(current.id);
      setAnnouncement(t('follow.followed', { name: current.displayName.trim() || current.username }));
    } catch (error) {
      setJustFollowed(false);
      setFailure(error);
    }
  }

  return {
    hidden: !profile || (session.userId.value !== null && session.userId.value === profile.id),
    label: pressed ? (justFollowed ? t('follow.nowFollowing') : t('follow.following')) : t('follow.follow'),
    name,
    pressed,
    busy,
    announcement,
    alert: failure ? errorMessage(t, failure) : null,
    onClick: () => void toggle(),
  };
}
