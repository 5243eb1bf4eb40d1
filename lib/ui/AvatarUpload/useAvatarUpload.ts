import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { Account } from '../../contract';
import { avatarUrl } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';
import { errorMessage, type Message } from '../shared/errorMessage';

export interface AvatarUploadState {
  /** The picture now on the profile (500 px), or null. */
  currentUrl: string | null;
  /** A local preview of the chosen file, or null before a choice. */
  previewUrl: string | null;
  fileName: string | null;
  /** What the input accepts: pictures, including HEIC from phones. */
  accept: string;
  busy: boolean;
  /** Save is offered once a file is chosen. */
  canSave: boolean;
  alert: Message;
  saved: Message;
  onFile: (event: ChangeEvent<HTMLInputElement>) => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}

export interface UseAvatarUploadOptions {
  onSuccess?: (account: Account) => void;
}

export const AVATAR_ACCEPT = 'image/*,.heic,.heif';

/** Chooses and uploads a new avatar (SPEC §2 UploadAvatar); the server cuts the centred square. */
export function useAvatarUpload({ onSuccess }: UseAvatarUploadOptions = {}): AvatarUploadState {
  useSignals();
  const fanstage = useFanstage();
  const { session, profiles, settings } = fanstage;
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [saved, setSaved] = useState<Message>(null);
  const running = useRef<AbortController | null>(null);
  const account = session.account.value;
  const cdn = settings.settings.value?.mediaCDN;

  useEffect(() => {
    if (session.isLoggedIn.peek() && !session.account.peek()) void session.loadAccount().catch(() => undefined);
    void settings.load().catch(() => undefined);
    return () => running.current?.abort();
  }, [session, settings]);

  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') return;
    const url = URL.createObjectURL(file);
    setPreviewUrl(url);
    return () => {
      URL.revokeObjectURL(url);
      setPreviewUrl(null);
    };
  }, [file]);

  function onFile(event: ChangeEvent<HTMLInputElement>) {
    setFile(event.target.files?.[0] ?? null);
    setFailure(null);
    setSaved(null);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !file) return;
    setBusy(true);
    setFailure(null);
    setSaved(null);
    const controller = new AbortController();
    running.current = controller;
    fanstage.account
      .uploadAvatar(file, file.name || 'avatar', controller.signal)
      .then((updated) => {
        session.setAccount(updated);
        // Every card and header showing this user reads the store: the new picture shows at once.
        profiles.patch(updated.id, (profile) => ({ ...profile, avatarMedia: updated.avatarMedia }));
        setFile(null);
        setSaved(t('avatarUpload.saved'));
        onSuccess?.(updated);
      })
      .catch((error: unknown) => setFailure(error))
      .finally(() => {
        if (running.current === controller) running.current = null;
        setBusy(false);
      });
  }

  return {
    currentUrl: cdn && account ? avatarUrl(cdn, account.avatarMedia, 500) : null,
    previewUrl,
    fileName: file?.name ?? null,
    accept: AVATAR_ACCEPT,
    busy,
    canSave: file !== null,
    alert: failure ? errorMessage(t, failure) : null,
    saved,
    onFile,
    onSubmit,
  };
}
