import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { AbuseReasons, AbuseTypes, abuseLimits, type AbusePreview, type AbuseReason, type AbuseReportBody, type AbuseType } from '../../lib/contract/abuse';
import { FormAlert, FormShell, FormSuccess, SubmitButton, errorMessage, focusFirstInvalid, formStyles } from '../../lib/ui/shared/formParts';
import { usePageTitle, useSite } from '../site';
import { AfterSessionCheck } from '../components/AfterSessionCheck';
import { LoginNeeded } from './Settings';
import styles from './AbuseForm.module.css';

/** The thing named by the address (`?type=post&id=12`), or null when the address names none. */
function thingOf(search: string): { type: AbuseType; id: number } | null {
  const query = new URLSearchParams(search);
  const type = query.get('type');
  const id = Number(query.get('id'));
  if (!AbuseTypes.includes(type as AbuseType) || !Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
  return { type: type as AbuseType, id };
}

/**
 * `/abuse-form` (SPEC §2, login): the report of a profile, post, comment or chat message,
 * reached from the Report actions. Shows what is reported (GET /api/abuse/target), then takes
 * a reason and an optional text (POST /api/abuse). docs/moderation.md says what happens next.
 */
export default function AbuseForm() {
  const { loggedIn } = useSite();
  return <AfterSessionCheck>{loggedIn ? <ReportForm /> : <LoginNeeded />}</AfterSessionCheck>;
}

function ReportForm() {
  const { t } = useTranslation();
  const { fanstage } = useSite();
  usePageTitle(t('abuse.title'));
  const search = useSearch();
  const thing = thingOf(search);
  const alertId = useId();
  const reasonId = useId();
  const textId = useId();
  const [preview, setPreview] = useState<{ key: string; value: AbusePreview | null; failure: unknown }>({ key: '', value: null, failure: null });
  const [reason, setReason] = useState<AbuseReason | ''>('');
  const [text, setText] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const key = thing ? `${thing.type}:${thing.id}` : '';

  useEffect(() => {
    if (!thing) return;
    let live = true;
    fanstage.client
      .get<AbusePreview>('/api/abuse/target', { type: thing.type, id: thing.id })
      .then((value) => live && setPreview({ key, value, failure: null }))
      .catch((error: unknown) => live && setPreview({ key, value: null, failure: error }));
    return () => {
      live = false;
    };
    // `key` names the thing; the object itself is new on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fanstage, key]);

  if (!thing) {
    return (
      <div className={styles.page} data-testid="abuse-form">
        <h1 className={styles.title}>{t('abuse.title')}</h1>
        <p role="alert">{t('abuse.nothing')}</p>
        <Link href="/">{t('abuse.home')}</Link>
      </div>
    );
  }

  const shown = preview.key === key ? preview : { value: null, failure: null };
  const reasonError = reason === '' ? t('abuse.chooseReason') : null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !thing || sent) return;
    setSubmitted(true);
    if (reason === '') {
      focusFirstInvalid(event.currentTarget);
      return;
    }
    const trimmed = text.trim();
    const body: AbuseReportBody = { type: thing.type, id: thing.id, reason, ...(trimmed === '' ? {} : { text: trimmed }) };
    setBusy(true);
    setFailure(null);
    fanstage.client
      .post<{ id: number }>('/api/abuse', body)
      .then(() => setSent(true))
      .catch((error: unknown) => setFailure(error))
      .finally(() => setBusy(false));
  }

  const author = shown.value ? shown.value.author.displayName.trim() || shown.value.author.username : null;
  return (
    <div className={styles.page} data-testid="abuse-form">
      <FormShell title={t('abuse.title')} headingLevel={1} text={t('abuse.lead')} onSubmit={onSubmit} busy={busy} className={styles.form} describedBy={failure ? alertId : undefined}>
        <section className={styles.thing} aria-label={t('abuse.reported')} data-testid="abuse-thing">
          <p className={styles.kind}>{t(`abuse.types.${thing.type}`)}</p>
          {shown.value ? (
            <>
              {/* A profile is its owner's own: named, not "by" anyone; its one picture is the avatar. */}
              <p className={styles.author}>
                {thing.type === 'user' ? author : t('abuse.by', { name: author })} <span className={styles.muted}>@{shown.value.author.username}</span>
              </p>
              {shown.value.text ? <blockquote className={styles.quote}>{shown.value.text}</blockquote> : null}
              {shown.value.mediaCount > 0 ? <p className={styles.muted}>{thing.type === 'user' ? t('abuse.avatar') : t('abuse.media', { count: shown.value.mediaCount })}</p> : null}
            </>
          ) : shown.failure ? (
            <p role="alert">{errorMessage(t, shown.failure)}</p>
          ) : (
            <p role="status" className={styles.muted}>
              {t('app.loading')}
            </p>
          )}
        </section>
        {sent ? null : (
          <>
            <div className={formStyles.field}>
              <label className={formStyles.label} htmlFor={reasonId}>
                {t('abuse.reason')}
              </label>
              <div className={formStyles.control}>
                <select
                  id={reasonId}
                  className={formStyles.input}
                  value={reason}
                  onChange={(event) => setReason(event.target.value as AbuseReason | '')}
                  required
                  aria-invalid={submitted && reasonError ? true : undefined}
                  aria-describedby={submitted && reasonError ? `${reasonId}-error` : undefined}
                >
                  <option value="">{t('abuse.chooseReason')}</option>
                  {AbuseReasons.map((value) => (
                    <option key={value} value={value}>
                      {t(`abuse.reasons.${value}`)}
                    </option>
                  ))}
                </select>
              </div>
              {submitted && reasonError ? (
                <p id={`${reasonId}-error`} className={formStyles.fieldError}>
                  {reasonError}
                </p>
              ) : null}
            </div>
            <div className={formStyles.field}>
              <label className={formStyles.label} htmlFor={textId}>
                {t('abuse.text')}
              </label>
              <textarea
                id={textId}
                className={`${formStyles.input} ${styles.text}`}
                value={text}
                maxLength={abuseLimits.text}
                rows={5}
                onChange={(event) => setText(event.target.value)}
                aria-describedby={`${textId}-count`}
              />
              <p id={`${textId}-count`} className={formStyles.hint}>
                {t('abuse.count', { length: text.length, max: abuseLimits.text })}
              </p>
            </div>
          </>
        )}
        <FormAlert id={alertId} message={failure ? errorMessage(t, failure) : null} />
        <FormSuccess message={sent ? t('abuse.sent') : null} />
        {sent ? null : <SubmitButton label={t('abuse.submit')} busyLabel={t('abuse.busy')} busy={busy} />}
      </FormShell>
    </div>
  );
}
