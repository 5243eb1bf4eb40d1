import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignals } from '@preact/signals-react/runtime';
import type { PartnerStatus } from '../../contract';
import { isSdkError } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';
import '../theme/tokens.css';
import { checkPartnerForm, isPartnerCode, partnerFields, type PartnerField, type PartnerFormValues } from './partnerForm';
import { usePartnerStatus } from './usePartnerStatus';
import styles from '../OfferSettings/creatorTools.module.css';
import own from './partner.module.css';

export interface PartnerRegistrationProps {
  className?: string;
  /** A `C-` partner code the page already knows (the `affcode` cookie), filled in for the person. */
  initialCode?: string;
  /** Leaves the page for the identity provider's page; default `location.assign`. */
  navigate?: (url: string) => void;
}

const emptyForm: PartnerFormValues = { name: '', street: '', zip: '', country: '', iban: '', companyId: '' };

/**
 * The partner programme for the person themselves (SPEC §2 /partner-registration, §4 approved
 * states; docs/partners.md): the partner form with an optional partner code, then the identity
 * check at the provider, the waiting states, badge confirmation once approved, and cancelling.
 */
export function PartnerRegistration({ className, initialCode, navigate }: PartnerRegistrationProps) {
  useSignals();
  const { t, i18n } = useTranslation();
  const fanstage = useFanstage();
  const { api, status, loadState, reload, adopt } = usePartnerStatus();
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);

  /** Runs one action; answers its failure (null when it went through) for the form's fields. */
  const run = async (work: () => Promise<PartnerStatus | void>, success?: string): Promise<unknown> => {
    setBusy(true);
    setMessage(null);
    try {
      const next = await work();
      if (next) adopt(next);
      if (success) setMessage({ kind: 'success', text: success });
      // The account carries the approved state too (the Timeline badge, the banner).
      void fanstage.session.loadAccount().catch(() => undefined);
      return null;
    } catch (error) {
      setMessage({ kind: 'error', text: errorText(t, error) });
      if (isSdkError(error) && error.code === 'partner-wrong-state') void reload();
      return error;
    } finally {
      setBusy(false);
    }
  };

  const startCheck = () =>
    run(async () => {
      const started = await api.startIdCheck();
      (navigate ?? ((url: string) => globalThis.location.assign(url)))(started.redirectUrl);
    });

  const state = status?.approvedState ?? 0;
  const cancellable = [7, 101, 105, 107, 110].includes(state);

  return (
    <section className={['fs-root', styles.root, className].filter(Boolean).join(' ')} lang={i18n.resolvedLanguage ?? i18n.language} data-testid="partner-registration" data-approved-state={status ? state : undefined}>
      <div className={styles.stack}>
        <div role="status" aria-live="polite">
          {message?.kind === 'success' ? <p className={styles.success}>{message.text}</p> : null}
        </div>
        <div role="alert">{message?.kind === 'error' ? <p className={styles.error}>{message.text}</p> : null}</div>
      </div>
      {loadState === 'loading' ? (
        <p role="status">{t('partner.loading')}</p>
      ) : loadState === 'error' || !status ? (
        <div className={styles.actions}>
          <p className={styles.error}>{t('errors.couldnt-get-info-from-server')}</p>
          <button type="button" className={styles.secondary} onClick={() => void reload()}>
            {t('partner.retry')}
          </button>
        </div>
      ) : (
        <>
          <Steps state={state} />
          {state === 0 || state === 7 ? (
            <>
              {state === 7 && status.declineReason ? <p className={own.notice}>{t('partner.declined', { reason: status.declineReason })}</p> : null}
              <PartnerFormCard status={status} initialCode={initialCode} busy={busy} onSubmit={(body, code) => run(async () => {
                // A saved form (7) stays saved when only the partner code is refused.
                if (state !== 7 || formChanged(status, body)) adopt(await api.saveForm(body));
                return api.registrationDone(code || undefined);
              }, t('partner.saved'))} />
            </>
          ) : null}
          {state === 101 ? (
            <div className={styles.card}>
              <h2 className={styles.heading}>{t('partner.verify.title')}</h2>
              {status.idCheck?.status === 'declined' ? <p className={own.notice}>{t('partner.verify.declined', { reason: status.idCheck.reason ?? t('partner.noReason') })}</p> : null}
              {status.idCheck?.status === 'review' && status.declineReason ? <p className={own.notice}>{t('partner.declined', { reason: status.declineReason })}</p> : null}
              <p className={styles.muted}>{t('partner.verify.text')}</p>
              <div className={styles.actions}>
                <button type="button" className={styles.primary} disabled={busy} onClick={() => void startCheck()}>
                  {t('partner.verify.start')}
                </button>
              </div>
            </div>
          ) : null}
          {state === 105 ? (
            <div className={styles.card}>
              <h2 className={styles.heading}>{t('partner.checking.title')}</h2>
              <p className={styles.muted}>{t('partner.checking.text')}</p>
              <div className={styles.actions}>
                <button type="button" className={styles.secondary} disabled={busy} onClick={() => void startCheck()}>
                  {t('partner.checking.again')}
                </button>
              </div>
            </div>
          ) : null}
          {state === 107 ? (
            <div className={styles.card}>
              <h2 className={styles.heading}>{t('partner.review.title')}</h2>
              <p className={styles.muted}>{t('partner.review.text')}</p>
            </div>
          ) : null}
          {state === 110 ? (
            <div className={styles.card}>
              <h2 className={styles.heading}>{t('partner.waiting.title')}</h2>
              <p className={styles.muted}>{t('partner.waiting.text')}</p>
            </div>
          ) : null}
          {state === 120 ? <Approved status={status} busy={busy} onBadge={(show) => run(() => api.confirmBadge(show), show ? t('partner.badge.shown') : t('partner.badge.hidden'))} /> : null}
          {cancellable ? (
            <div className={styles.actions}>
              {confirmCancel ? (
                <div className={own.confirm} role="group" aria-label={t('partner.cancel.question')}>
                  <p className={styles.text}>{t('partner.cancel.question')}</p>
                  <div className={styles.actions}>
                    <button type="button" className={styles.danger} disabled={busy} onClick={() => void run(() => api.cancelVerification(), t('partner.cancel.done')).then(() => setConfirmCancel(false))}>
                      {t('partner.cancel.yes')}
                    </button>
                    <button type="button" className={styles.secondary} onClick={() => setConfirmCancel(false)}>
                      {t('partner.cancel.no')}
                    </button>
                  </div>
                </div>
              ) : (
                <button type="button" className={styles.secondary} onClick={() => setConfirmCancel(true)}>
                  {t('partner.cancel.button')}
                </button>
              )}
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

function formChanged(status: PartnerStatus, body: ReturnType<typeof checkPartnerForm>['body']): boolean {
  const form = status.form;
  return !form || form.name !== body.name || form.street !== body.street || form.zip !== body.zip || form.country !== body.country || form.iban !== body.iban || form.companyId !== (body.companyId ?? null);
}

/** Where the person stands: form, identity, approval. */
function Steps({ state }: { state: number }) {
  const { t } = useTranslation();
  const step = state === 120 ? 4 : state === 110 ? 3 : state >= 101 ? 2 : 1;
  const names = [t('partner.steps.form'), t('partner.steps.identity'), t('partner.steps.approval')];
  return (
    <ol className={own.steps} aria-label={t('partner.steps.label')}>
      {names.map((name, index) => (
        <li key={name} className={index + 1 === step ? own.current : index + 1 < step ? own.done : undefined} aria-current={index + 1 === step ? 'step' : undefined}>
          {name}
        </li>
      ))}
    </ol>
  );
}

function PartnerFormCard({ status, initialCode, busy, onSubmit }: { status: PartnerStatus; initialCode?: string; busy: boolean; onSubmit: (body: ReturnType<typeof checkPartnerForm>['body'], code: string) => Promise<unknown> }) {
  useSignals();
  const { t } = useTranslation();
  const { settings } = useFanstage();
  const id = useId();
  const [values, setValues] = useState<PartnerFormValues>(() =>
    status.form ? { name: status.form.name, street: status.form.street, zip: status.form.zip, country: status.form.country, iban: status.form.iban, companyId: status.form.companyId ?? '' } : emptyForm,
  );
  const [code, setCode] = useState(() => (initialCode && isPartnerCode(initialCode) ? initialCode : ''));
  const [errors, setErrors] = useState<Partial<Record<PartnerField | 'companyCode', string>>>({});
  const validation = settings.settings.value?.partnerValidation;

  useEffect(() => {
    if (settings.status.peek() === 'idle') settings.load().catch(() => undefined);
  }, [settings]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!validation) return;
    const checked = checkPartnerForm(values, validation);
    const trimmedCode = code.trim().toUpperCase();
    const found: Partial<Record<PartnerField | 'companyCode', string>> = { ...checked.errors };
    if (trimmedCode !== '' && !isPartnerCode(trimmedCode)) found.companyCode = 'partner-invalid-code';
    setErrors(found);
    const first = [...partnerFields, 'companyCode'].find((field) => found[field as PartnerField]);
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    const failure = await onSubmit(checked.body, trimmedCode);
    // The server's own per-field answer, shown at its field.
    const field = isSdkError(failure) ? (failure.body as { field?: string } | undefined)?.field : undefined;
    if (isSdkError(failure) && field) {
      setErrors({ [field]: field === 'companyCode' ? 'partner-invalid-code' : failure.code });
      document.getElementById(`${id}-${field}`)?.focus();
    }
  };

  const labels: Record<PartnerField, string> = {
    name: t('partner.form.name'),
    street: t('partner.form.street'),
    zip: t('partner.form.zip'),
    country: t('partner.form.country'),
    iban: t('partner.form.iban'),
    companyId: t('partner.form.companyId'),
  };
  const hints: Partial<Record<PartnerField, string>> = { country: t('partner.form.countryHint'), companyId: t('partner.form.optional') };

  return (
    <form className={styles.card} aria-labelledby={`${id}-title`} noValidate onSubmit={(event) => void submit(event)}>
      <h2 id={`${id}-title`} className={styles.heading}>
        {t('partner.form.title')}
      </h2>
      <p className={styles.muted}>{t('partner.form.intro')}</p>
      <div className={own.grid}>
        {partnerFields.map((field) => (
          <div key={field} className={styles.field}>
            <label className={styles.fieldLabel} htmlFor={`${id}-${field}`}>
              {labels[field]}
            </label>
            {hints[field] ? (
              <span id={`${id}-${field}-hint`} className={styles.muted}>
                {hints[field]}
              </span>
            ) : null}
            <input
              id={`${id}-${field}`}
              name={field}
              className={styles.input}
              value={values[field]}
              autoComplete={autocomplete[field]}
              maxLength={field === 'country' ? 2 : field === 'zip' ? 20 : 100}
              aria-invalid={errors[field] ? true : undefined}
              aria-describedby={[hints[field] ? `${id}-${field}-hint` : '', errors[field] ? `${id}-${field}-error` : ''].filter(Boolean).join(' ') || undefined}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setValues((previous) => ({ ...previous, [field]: value }));
              }}
            />
            {errors[field] ? (
              <span id={`${id}-${field}-error`} className={styles.error}>
                {t(`errors.${errors[field]}`)}
              </span>
            ) : null}
          </div>
        ))}
        <div className={styles.field}>
          <label className={styles.fieldLabel} htmlFor={`${id}-companyCode`}>
            {t('partner.form.code')}
          </label>
          <span id={`${id}-companyCode-hint`} className={styles.muted}>
            {t('partner.form.codeHint')}
          </span>
          <input
            id={`${id}-companyCode`}
            name="companyCode"
            className={styles.input}
            value={code}
            maxLength={10}
            autoComplete="off"
            aria-invalid={errors.companyCode ? true : undefined}
            aria-describedby={[`${id}-companyCode-hint`, errors.companyCode ? `${id}-companyCode-error` : ''].filter(Boolean).join(' ')}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          {errors.companyCode ? (
            <span id={`${id}-companyCode-error`} className={styles.error}>
              {t(`partner.${errors.companyCode}`)}
            </span>
          ) : null}
        </div>
      </div>
      <div className={styles.actions}>
        <button type="submit" className={styles.primary} disabled={busy || !validation}>
          {busy ? t('partner.form.saving') : t('partner.form.submit')}
        </button>
      </div>
    </form>
  );
}

const autocomplete: Record<PartnerField, string> = { name: 'name', street: 'street-address', zip: 'postal-code', country: 'country', iban: 'off', companyId: 'off' };

function Approved({ status, busy, onBadge }: { status: PartnerStatus; busy: boolean; onBadge: (show: boolean) => Promise<unknown> }) {
  const { t } = useTranslation();
  return (
    <div className={styles.card}>
      <h2 className={styles.heading}>{t('partner.approved.title')}</h2>
      <p className={styles.muted}>{t('partner.approved.text')}</p>
      {status.partnerCode ? <p className={styles.text}>{t('partner.approved.code', { code: status.partnerCode })}</p> : null}
      <fieldset className={own.badge}>
        <legend>{t('partner.badge.question')}</legend>
        <p className={styles.muted}>{status.hasBadge ? t('partner.badge.shown') : t('partner.badge.hidden')}</p>
        <div className={styles.actions}>
          <button type="button" className={styles.primary} disabled={busy} aria-pressed={status.hasBadge} onClick={() => void onBadge(true)}>
            {t('partner.badge.yes')}
          </button>
          <button type="button" className={styles.secondary} disabled={busy} aria-pressed={!status.hasBadge} onClick={() => void onBadge(false)}>
            {t('partner.badge.no')}
          </button>
        </div>
      </fieldset>
    </div>
  );
}

/** The translated failure: a field's key, the partner code's, a state that moved on, or the server's. */
export function errorText(t: (key: string, options?: Record<string, unknown>) => string, error: unknown): string {
  if (!isSdkError(error)) return t('errors.couldnt-get-info-from-server');
  if (error.code === 'invalid-code') return t('partner.partner-invalid-code');
  if (error.code === 'aborted') return '';
  const key = `errors.${error.code}`;
  const text = t(key);
  return text === key ? t('errors.couldnt-get-info-from-server') : text;
}
