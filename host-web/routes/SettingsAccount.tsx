import { useId, useState, type FormEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { useFanstage } from '../../lib/ui';
import { FormAlert, FormShell, FormSuccess, SubmitButton, TextField, errorMessage, focusFirstInvalid, formStyles, validateEmail, validateNewPassword } from '../../lib/ui/shared/formParts';
import type { Fanstage } from '../../lib/sdk';
import { usePageTitle, useSite } from '../site';
import { LoginNeeded } from './Settings';
import settingsStyles from './Settings.module.css';
import styles from './SettingsAccount.module.css';

/** The delete-account survey's reasons (enum `deleteReason`, SPEC §3). */
const deleteReasons = [1, 2, 3, 4, 5] as const;
const e164 = /^\+[1-9]\d{7,14}$/;

/**
 * `/settings/account` (SPEC §2 Settings > ManageAccount; the changed-terms popup's decline leads
 * here): the account's e-mail, password and phone, a download of its data, and its deletion.
 * Each part is a form of its own, so one failing never loses what was typed in another.
 */
export default function SettingsAccount() {
  const { t } = useTranslation();
  const { loggedIn } = useSite();
  usePageTitle(t('manageAccount.title'));
  if (!loggedIn) return <LoginNeeded />;
  return (
    <section className={`${settingsStyles.screen} ${styles.screen}`} aria-labelledby="manage-account-title">
      <h1 id="manage-account-title" className={settingsStyles.title}>
        {t('manageAccount.title')}
      </h1>
      <EmailForm />
      <PasswordForm />
      <PhoneForm />
      <ExportData />
      <DeleteAccount />
    </section>
  );
}

const passwordToggle = (t: ReturnType<typeof useTranslation>['t']) => ({ show: t('manageAccount.showPassword'), hide: t('manageAccount.hidePassword') });

function EmailForm() {
  useSignals();
  const { t } = useTranslation();
  const { session, account: api } = useFanstage();
  const account = session.account.value;
  const alertId = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const errors = { email: validateEmail(t, email), password: password === '' ? t('auth.required') : null };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setSubmitted(true);
    setDone(null);
    if (errors.email !== null || errors.password !== null) {
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setBusy(true);
    setFailure(null);
    api
      .updateMe({ email: email.trim(), currentPassword: password })
      .then((next) => {
        session.setAccount(next);
        setDone(next.emailVerified ? t('manageAccount.email.saved') : t('manageAccount.email.sent', { email: next.email }));
        setSubmitted(false);
        setEmail('');
        setPassword('');
      })
      .catch((error: unknown) => setFailure(error))
      .finally(() => setBusy(false));
  }

  const shown = (error: string | null) => (submitted ? error : null);
  return (
    <FormShell title={t('manageAccount.email.title')} headingLevel={2} onSubmit={onSubmit} busy={busy} describedBy={failure ? alertId : undefined} className={styles.part}>
      {account ? (
        <p className={styles.current} data-testid="account-email">
          {t('manageAccount.email.current', { email: account.email })}{' '}
          <strong className={account.emailVerified ? settingsStyles.verified : settingsStyles.unverified}>
            {account.emailVerified ? t('settings.verified') : t('settings.notVerified')}
          </strong>
        </p>
      ) : null}
      <TextField type="email" label={t('manageAccount.email.new')} autoComplete="email" value={email} onChange={setEmail} error={shown(errors.email)} />
      <TextField type="password" label={t('manageAccount.currentPassword')} autoComplete="current-password" value={password} onChange={setPassword} error={shown(errors.password)} toggle={passwordToggle(t)} />
      <FormAlert id={alertId} message={failure ? errorMessage(t, failure) : null} />
      <FormSuccess message={done} />
      <SubmitButton label={t('manageAccount.email.submit')} busyLabel={t('manageAccount.saving')} busy={busy} />
    </FormShell>
  );
}

function PasswordForm() {
  useSignals();
  const { t } = useTranslation();
  const { session, account: api } = useFanstage();
  const alertId = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const errors = {
    current: current === '' ? t('auth.required') : null,
    next: validateNewPassword(t, next) ?? (next === current ? t('manageAccount.password.same') : null),
    repeat: repeat !== next ? t('manageAccount.password.mismatch') : null,
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setSubmitted(true);
    setDone(false);
    if (Object.values(errors).some((error) => error !== null)) {
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setBusy(true);
    setFailure(null);
    api
      .updateMe({ currentPassword: current, newPassword: next })
      .then((account) => {
        session.setAccount(account);
        setDone(true);
        setSubmitted(false);
        setCurrent('');
        setNext('');
        setRepeat('');
      })
      .catch((error: unknown) => setFailure(error))
      .finally(() => setBusy(false));
  }

  const shown = (error: string | null) => (submitted ? error : null);
  return (
    <FormShell title={t('manageAccount.password.title')} headingLevel={2} text={t('manageAccount.password.text')} onSubmit={onSubmit} busy={busy} describedBy={failure ? alertId : undefined} className={styles.part}>
      {/* Tells password managers whose password this is, so they update the right entry. */}
      <input type="email" name="username" autoComplete="username" value={session.account.value?.email ?? ''} readOnly hidden />
      <TextField type="password" label={t('manageAccount.currentPassword')} autoComplete="current-password" value={current} onChange={setCurrent} error={shown(errors.current)} toggle={passwordToggle(t)} />
      <TextField type="password" label={t('manageAccount.password.new')} autoComplete="new-password" value={next} onChange={setNext} error={shown(errors.next)} hint={t('manageAccount.password.hint')} toggle={passwordToggle(t)} />
      <TextField type="password" label={t('manageAccount.password.repeat')} autoComplete="new-password" value={repeat} onChange={setRepeat} error={shown(errors.repeat)} />
      <FormAlert id={alertId} message={failure ? errorMessage(t, failure) : null} />
      <FormSuccess message={done ? t('manageAccount.password.saved') : null} />
      <SubmitButton label={t('manageAccount.password.submit')} busyLabel={t('manageAccount.saving')} busy={busy} />
    </FormShell>
  );
}

function PhoneForm() {
  useSignals();
  const { t } = useTranslation();
  const { session, account: api } = useFanstage();
  const verified = session.account.value?.phoneVerified === true;
  const alertId = useId();
  const [phone, setPhone] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const typedPhone = phone.replace(/[\s\-.()]/g, '').replace(/^00/, '+');
  const errors = sentTo === null ? { phone: phone.trim() === '' ? t('auth.required') : e164.test(typedPhone) ? null : t('manageAccount.phone.invalid') } : { code: /^\d{6}$/.test(code.replace(/\s/g, '')) ? null : t('manageAccount.phone.codeInvalid') };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setSubmitted(true);
    if (Object.values(errors).some((error) => error !== null)) {
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setBusy(true);
    setFailure(null);
    const step =
      sentTo === null
        ? api.sendPhoneCode(typedPhone).then((sent) => {
            setSentTo(sent.phone);
            setSubmitted(false);
          })
        : api.verifyPhone(code.replace(/\s/g, '')).then(async () => {
            setDone(true);
            setSentTo(null);
            setPhone('');
            setCode('');
            setSubmitted(false);
            await session.loadAccount().catch(() => undefined);
          });
    step.catch((error: unknown) => setFailure(error)).finally(() => setBusy(false));
  }

  function another() {
    setSentTo(null);
    setCode('');
    setFailure(null);
    setSubmitted(false);
  }

  const shown = (error: string | null | undefined) => (submitted ? (error ?? null) : null);
  return (
    <FormShell title={t('manageAccount.phone.title')} headingLevel={2} text={t('manageAccount.phone.text')} onSubmit={onSubmit} busy={busy} describedBy={failure ? alertId : undefined} className={styles.part}>
      <p className={styles.current} data-testid="account-phone">
        <strong className={verified ? settingsStyles.verified : settingsStyles.unverified}>{verified ? t('manageAccount.phone.verified') : t('manageAccount.phone.notVerified')}</strong>
      </p>
      {sentTo === null ? (
        <TextField type="text" label={t('manageAccount.phone.number')} autoComplete="tel" value={phone} onChange={setPhone} error={shown('phone' in errors ? errors.phone : null)} hint={t('manageAccount.phone.numberHint')} />
      ) : (
        <>
          <p role="status">{t('manageAccount.phone.sent', { phone: sentTo })}</p>
          <TextField type="text" label={t('manageAccount.phone.code')} autoComplete="one-time-code" value={code} onChange={setCode} error={shown('code' in errors ? errors.code : null)} autoFocus />
        </>
      )}
      <FormAlert id={alertId} message={failure ? errorMessage(t, failure) : null} />
      <FormSuccess message={done ? t('manageAccount.phone.done') : null} />
      <SubmitButton label={sentTo === null ? t('manageAccount.phone.send') : t('manageAccount.phone.verify')} busyLabel={t('manageAccount.saving')} busy={busy} />
      {sentTo === null ? null : (
        <button type="button" className={styles.linkButton} onClick={another}>
          {t('manageAccount.phone.another')}
        </button>
      )}
    </FormShell>
  );
}

/**
 * Fetches the export with the session's token and hands it to the browser as a file. A plain
 * link cannot carry the bearer token; an expired token gets the session's one refresh.
 */
async function downloadExport(fanstage: Fanstage): Promise<void> {
  const get = (token: string | null) =>
    fetch(fanstage.client.url('/api/users/me/export'), { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: 'include' });
  let response = await get(fanstage.session.accessToken.peek());
  if (response.status === 401 && (await fanstage.session.refresh())) response = await get(fanstage.session.accessToken.peek());
  if (!response.ok) throw new Error(`export answered ${response.status}`);
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'fanstage-export.json';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click returns; the address is kept a moment for slow ones.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function ExportData() {
  const { t } = useTranslation();
  const fanstage = useFanstage();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  function download() {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    downloadExport(fanstage)
      .catch(() => setFailed(true))
      .finally(() => setBusy(false));
  }

  return (
    <section className={styles.part} aria-labelledby="export-title">
      <h2 id="export-title" className={settingsStyles.subtitle}>
        {t('manageAccount.export.title')}
      </h2>
      <p>{t('manageAccount.export.text')}</p>
      {failed ? (
        <p role="alert" className={formStyles.alert}>
          {t('manageAccount.export.failed')}
        </p>
      ) : null}
      <button type="button" className={styles.secondary} onClick={download} aria-busy={busy}>
        {busy ? t('manageAccount.export.busy') : t('manageAccount.export.download')}
      </button>
    </section>
  );
}

function DeleteAccount() {
  const { t } = useTranslation();
  const { session, account: api } = useFanstage();
  const alertId = useId();
  const reasonId = useId();
  const textId = useId();
  const [reason, setReason] = useState<number | null>(null);
  const [text, setText] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const errors = { reason: reason === null ? t('manageAccount.delete.reasonRequired') : null, password: password === '' ? t('auth.required') : null };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setSubmitted(true);
    if (reason === null || errors.password !== null) {
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setBusy(true);
    setFailure(null);
    api
      .deleteMe({ deleteReason: reason, password, ...(text.trim() === '' ? {} : { text: text.trim() }) })
      .then(async () => {
        // The server ended every session; this one clears itself, and the page starts afresh.
        await session.logout().catch(() => undefined);
        window.location.assign('/');
      })
      .catch((error: unknown) => {
        setFailure(error);
        setBusy(false);
      });
  }

  const shown = (error: string | null) => (submitted ? error : null);
  return (
    <FormShell title={t('manageAccount.delete.title')} headingLevel={2} text={t('manageAccount.delete.text')} onSubmit={onSubmit} busy={busy} describedBy={failure ? alertId : undefined} className={`${styles.part} ${styles.danger}`}>
      <fieldset className={styles.reasons} aria-describedby={shown(errors.reason) ? `${reasonId}-error` : undefined} aria-invalid={shown(errors.reason) ? true : undefined}>
        <legend className={formStyles.label}>{t('manageAccount.delete.reason')}</legend>
        {deleteReasons.map((value) => (
          <label key={value} className={styles.reason}>
            <input type="radio" name="deleteReason" value={value} checked={reason === value} onChange={() => setReason(value)} aria-invalid={shown(errors.reason) ? true : undefined} />
            <span>{t(`deleteReason.${value}`, { ns: 'enums' })}</span>
          </label>
        ))}
        {shown(errors.reason) ? (
          <p id={`${reasonId}-error`} className={formStyles.fieldError}>
            {errors.reason}
          </p>
        ) : null}
      </fieldset>
      <div className={formStyles.field}>
        <label className={formStyles.label} htmlFor={textId}>
          {t('manageAccount.delete.more')}
        </label>
        <textarea id={textId} className={formStyles.input} value={text} maxLength={1000} rows={3} onChange={(event) => setText(event.target.value)} />
      </div>
      <TextField type="password" label={t('manageAccount.currentPassword')} autoComplete="current-password" value={password} onChange={setPassword} error={shown(errors.password)} />
      <FormAlert id={alertId} message={failure ? errorMessage(t, failure) : null} />
      <button type="submit" className={styles.delete} aria-busy={busy}>
        {busy ? t('manageAccount.delete.busy') : t('manageAccount.delete.submit')}
      </button>
    </FormShell>
  );
}
