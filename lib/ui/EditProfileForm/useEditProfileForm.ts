import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { Account, UpdateMeBody } from '../../contract';
import { formatPrice, isSdkError, nearestPriceStep, priceSteps } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';
import { priceStepsNote } from '../PriceSelector/stepsNote';
import { errorMessage, focusFirstInvalid, type Message } from '../shared/formParts';

/** The fields of the form, as the inputs hold them (strings, '' for "not set"). */
export interface EditProfileValues {
  displayName: string;
  username: string;
  bio: string;
  gender: string;
  sexuality: string;
  birthday: string;
  appLanguage: string;
  messagePrice: string;
  callPrice: string;
}

export type EditProfileField = keyof EditProfileValues;

export interface SelectOption {
  value: string;
  label: string;
}

export interface EditProfileFormState {
  /** The account is still loading: nothing to edit yet. */
  loading: boolean;
  values: EditProfileValues;
  errors: Partial<Record<EditProfileField, Message>>;
  /** A live answer about the username while typing (free, or being checked); else the profile's address. */
  usernameHint: Message;
  options: {
    gender: SelectOption[];
    sexuality: SelectOption[];
    appLanguage: SelectOption[];
    messagePrice: SelectOption[];
    callPrice: SelectOption[];
  };
  /** Why each price field offers its steps (SPEC §9: each kind has its own). */
  priceHints: { messagePrice: string; callPrice: string };
  /** Prices are shown to sellers only (SPEC §5: sellers set prices). */
  showPrices: boolean;
  busy: boolean;
  alert: Message;
  /** The server asks for a verification first (-2 `verify-required`). */
  warning: Message;
  saved: Message;
  onChange: (field: EditProfileField, value: string) => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}

export interface UseEditProfileFormOptions {
  onSuccess?: (account: Account) => void;
}

const fieldsOf: Record<string, EditProfileField> = {
  'invalid-username': 'username',
  'username-taken': 'username',
  must_be_18: 'birthday',
};

const USERNAME_CHECK_DELAY = 400;

function valuesOf(account: Account | null): EditProfileValues {
  return {
    displayName: account?.displayName ?? '',
    username: account?.username ?? '',
    bio: account?.bio ?? '',
    gender: account?.gender ? String(account.gender) : '',
    sexuality: account?.sexuality ? String(account.sexuality) : '',
    birthday: account?.birthday ?? '',
    appLanguage: account?.appLanguage ?? '',
    messagePrice: account ? String(nearestPriceStep('chatMessage', account.messagePrice)) : '0',
    callPrice: account ? String(nearestPriceStep('callMinute', account.callPrice)) : '0',
  };
}

/** Only what differs from the account goes to the server, so an untouched field cannot fail. */
function changesOf(values: EditProfileValues, account: Account): UpdateMeBody {
  const body: UpdateMeBody = {};
  const before = valuesOf(account);
  if (values.displayName.trim() !== before.displayName.trim()) body.displayName = values.displayName.trim();
  if (values.username.trim() !== before.username) body.username = values.username.trim();
  if (values.bio.trim() !== before.bio.trim()) body.bio = values.bio.trim();
  if (values.gender && values.gender !== before.gender) body.gender = Number(values.gender);
  if (values.sexuality && values.sexuality !== before.sexuality) body.sexuality = Number(values.sexuality);
  if (values.birthday && values.birthday !== before.birthday) body.birthday = values.birthday;
  if (values.appLanguage && values.appLanguage !== before.appLanguage) body.appLanguage = values.appLanguage;
  if (values.messagePrice !== before.messagePrice) body.messagePrice = Number(values.messagePrice);
  if (values.callPrice !== before.callPrice) body.callPrice = Number(values.callPrice);
  return body;
}

/** "Your address is example.com/jana": the platform's own address and the name being typed. */
function addressHint(publicUrl: string | undefined, username: string, t: (key: string, options: { address: string }) => string): Message {
  if (!publicUrl || !username) return null;
  let site: string;
  try {
    const url = new URL(publicUrl);
    site = `${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
  return t('profileEdit.usernameHint', { address: `${site}/${username}` });
}

/** Edits the logged-in user's profile (SPEC §2 EditProfile) through `PUT /api/users/me`. */
export function useEditProfileForm({ onSuccess }: UseEditProfileFormOptions = {}): EditProfileFormState {
  useSignals();
  const fanstage = useFanstage();
  const { session, profiles, settings } = fanstage;
  const { t } = useTranslation();
  const account = session.account.value;
  const salt = settings.settings.value?.salt;
  const [values, setValues] = useState<EditProfileValues>(() => valuesOf(account));
  const [errors, setErrors] = useState<EditProfileFormState['errors']>({});
  const [usernameHint, setUsernameHint] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [warning, setWarning] = useState<Message>(null);
  const [saved, setSaved] = useState<Message>(null);
  const loadedFor = useRef<number | null>(account?.id ?? null);
  const languageChosen = useRef(false);

  useEffect(() => {
    if (session.isLoggedIn.peek() && !session.account.peek()) void session.loadAccount().catch(() => undefined);
    void settings.load().catch(() => undefined);
  }, [session, settings]);

  useEffect(() => {
    // The form starts from the account once it arrives, and not again: typing is never undone.
    if (account && loadedFor.current !== account.id) {
      loadedFor.current = account.id;
      setValues(valuesOf(account));
    }
  }, [account]);

  // The language is the interface's too, and may change elsewhere while the form is open (the
  // site's picker): an untouched select follows the account, so Done never puts back the old one.
  const accountLanguage = account?.appLanguage;
  useEffect(() => {
    if (accountLanguage !== undefined && !languageChosen.current) setValues((v) => (v.appLanguage === accountLanguage ? v : { ...v, appLanguage: accountLanguage }));
  }, [accountLanguage]);

  const username = values.username.trim();
  const ownUsername = account?.username ?? '';
  useEffect(() => {
    setUsernameHint(null);
    if (!username || username.toLowerCase() === ownUsername.toLowerCase()) {
      setErrors((e) => ({ ...e, username: null }));
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setUsernameHint(t('profileEdit.usernameChecking'));
      fanstage.client
        .post<undefined>('/papi/check/username', { username }, { signal: controller.signal })
        .then(() => {
          setUsernameHint(t('profileEdit.usernameFree'));
          setErrors((e) => ({ ...e, username: null }));
        })
        .catch((error: unknown) => {
          if (isSdkError(error) && error.code === 'aborted') return;
          setUsernameHint(null);
          setErrors((e) => ({ ...e, username: errorMessage(t, error) }));
        });
    }, USERNAME_CHECK_DELAY);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [username, ownUsername, fanstage, t]);

  function price(cents: number): string {
    return salt === undefined ? String(cents) : formatPrice(cents, salt, t('price.free'));
  }

  function onChange(field: EditProfileField, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    if (field === 'appLanguage') languageChosen.current = true;
    setSaved(null);
    if (field !== 'username') setErrors((e) => ({ ...e, [field]: null }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !account) return;
    const form = event.currentTarget;
    const next: EditProfileFormState['errors'] = { ...errors };
    if (!values.displayName.trim()) next.displayName = t('auth.required');
    if (!username) next.username = t('auth.required');
    setErrors(next);
    setFailure(null);
    setWarning(null);
    setSaved(null);
    if (Object.values(next).some(Boolean)) {
      focusFirstInvalid(form);
      return;
    }
    const body = changesOf(values, account);
    if (Object.keys(body).length === 0) {
      setSaved(t('profileEdit.saved'));
      onSuccess?.(account);
      return;
    }
    setBusy(true);
    fanstage.account
      .updateMe(body)
      .then((updated) => {
        session.setAccount(updated);
        profiles.patch(updated.id, (profile) => ({
          ...profile,
          displayName: updated.displayName,
          username: updated.username,
          bio: updated.bio,
          gender: updated.gender,
          messagePrice: updated.messagePrice,
          callPrice: updated.callPrice,
        }));
        languageChosen.current = false;
        setValues(valuesOf(updated));
        setSaved(t('profileEdit.saved'));
        onSuccess?.(updated);
      })
      .catch((error: unknown) => {
        if (isSdkError(error) && error.code === 'verify-required') {
          setWarning(t('profileEdit.verifyRequired'));
          return;
        }
        const bodyField = isSdkError(error) ? (error.body as { field?: unknown } | undefined)?.field : undefined;
        const field =
          (typeof bodyField === 'string' && bodyField in values ? (bodyField as EditProfileField) : undefined) ??
          (isSdkError(error) ? fieldsOf[error.code] : undefined);
        if (field) {
          setErrors((e) => ({ ...e, [field]: errorMessage(t, error) }));
          focusFirstInvalid(form);
        } else setFailure(error);
      })
      .finally(() => setBusy(false));
  }

  return {
    loading: !account,
    values,
    errors,
    usernameHint: errors.username ? null : (usernameHint ?? addressHint(settings.settings.value?.publicUrl, username || ownUsername, t)),
    options: {
      gender: [
        { value: '1', label: t('profileEdit.gender1') },
        { value: '2', label: t('profileEdit.gender2') },
      ],
      sexuality: [1, 2, 3, 4].map((n) => ({ value: String(n), label: t(`profileEdit.sexuality${n}`) })),
      appLanguage: [
        { value: 'en', label: 'English' },
        { value: 'cs', label: 'Čeština' },
      ],
      messagePrice: priceSteps.chatMessage.map((cents) => ({ value: String(cents), label: price(cents) })),
      callPrice: priceSteps.callMinute.map((cents) => ({ value: String(cents), label: price(cents) })),
    },
    priceHints: { messagePrice: priceStepsNote(t, 'chatMessage', salt), callPrice: priceStepsNote(t, 'callMinute', salt) },
    showPrices: account?.isSeller === true,
    busy,
    alert: failure ? errorMessage(t, failure) : null,
    warning,
    saved,
    onChange,
    onSubmit,
  };
}
