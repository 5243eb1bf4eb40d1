import { useMemo } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { PublicProfile } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';

export interface ChatPartnerState {
  /** The partner's id once known. */
  userId: number | null;
  profile: PublicProfile | null;
  /** While the profile is asked for, or why there is none. */
  statusText: string | null;
  missing: boolean;
}

/**
 * The person a chat is opened with, from a username or an id (SPEC §2 `/chat/{user}`, the
 * element's `with`). Null `user`: no conversation is open.
 */
export function useChatPartner(user: string | number | null | undefined): ChatPartnerState {
  useSignals();
  const { profiles } = useFanstage();
  const { t } = useTranslation();
  const key = typeof user === 'string' ? user.trim().replace(/^@/, '') : user;
  const entry = useMemo(() => (key === undefined || key === null || key === '' ? null : profiles.get(key)), [profiles, key]);
  if (!entry) return { userId: null, profile: null, statusText: null, missing: false };
  const profile = entry.profile.value;
  const status = entry.status.value;
  if (profile) return { userId: profile.id, profile, statusText: null, missing: false };
  const missing = status === 'error';
  return {
    userId: null,
    profile: null,
    statusText: missing ? t([`errors.${entry.error.value?.code ?? 'user-not-found'}`, 'chat.partnerMissing']) : t('chat.loading'),
    missing,
  };
}
