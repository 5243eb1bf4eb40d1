import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PartnerApplication } from '../../contract';
import { adminPartnersApi } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';
import '../theme/tokens.css';
import { errorText } from './PartnerRegistration';
import styles from '../OfferSettings/creatorTools.module.css';
import own from './partner.module.css';

export interface AdminPartnerQueueProps {
  className?: string;
  /** The level of the section's heading (2 by default). */
  headingLevel?: 2 | 3;
}

/** The states in which an application waits for an administrator: verified (110) and to review (107). */
const decidable = new Set([107, 110]);

/**
 * The administrators' queue of partner applications (docs/partners.md, Moderation): each
 * applicant's form, identity check and documents, earlier decisions, and approve or decline
 * with a reason. The server allows it to administrators (level 500) only.
 */
export function AdminPartnerQueue({ className, headingLevel = 2 }: AdminPartnerQueueProps) {
  const { t, i18n } = useTranslation();
  const fanstage = useFanstage();
  const api = useMemo(() => adminPartnersApi(fanstage.client), [fanstage]);
  const [filter, setFilter] = useState<'queue' | 'all'>('queue');
  const [list, setList] = useState<PartnerApplication[] | null>(null);
  const [loadState, setLoadState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const titleId = useId();
  const filterId = useId();
  const Heading = `h${headingLevel}` as const;

  const load = useCallback(
    async (signal?: AbortSignal) => {
      setLoadState('loading');
      try {
        const next = await api.list({ filter, limit: 30 }, signal);
        setList(next);
        setLoadState('ready');
      } catch {
        if (!signal?.aborted) setLoadState('error');
      }
    },
    [api, filter],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const decided = (application: PartnerApplication, text: string) => {
    setMessage({ kind: 'success', text });
    setList((previous) => (previous ?? []).flatMap((item) => (item.user.id !== application.user.id ? [item] : filter === 'queue' ? [] : [application])));
  };

  return (
    <section className={['fs-root', styles.root, className].filter(Boolean).join(' ')} aria-labelledby={titleId} lang={i18n.resolvedLanguage ?? i18n.language} data-testid="admin-partner-queue">
      <Heading id={titleId} className={styles.heading}>
        {t('admin.partners.title')}
      </Heading>
      <div className={styles.inline}>
        <div className={styles.field}>
          <label className={styles.fieldLabel} htmlFor={filterId}>
            {t('admin.partners.filter')}
          </label>
          <select id={filterId} className={styles.select} value={filter} onChange={(event) => setFilter(event.currentTarget.value === 'all' ? 'all' : 'queue')}>
            <option value="queue">{t('admin.partners.queue')}</option>
            <option value="all">{t('admin.partners.all')}</option>
          </select>
        </div>
        <button type="button" className={styles.secondary} onClick={() => void load()}>
          {t('admin.refresh')}
        </button>
      </div>
      <div className={styles.stack}>
        <div role="status" aria-live="polite">
          {message?.kind === 'success' ? <p className={styles.success}>{message.text}</p> : null}
        </div>
        <div role="alert">{message?.kind === 'error' ? <p className={styles.error}>{message.text}</p> : null}</div>
      </div>
      {loadState === 'loading' && !list ? (
        <p role="status">{t('admin.loading')}</p>
      ) : loadState === 'error' ? (
        <p className={styles.error}>{t('errors.couldnt-get-info-from-server')}</p>
      ) : list && list.length === 0 ? (
        <p className={styles.muted}>{filter === 'queue' ? t('admin.partners.emptyQueue') : t('admin.partners.empty')}</p>
      ) : (
        <ul className={styles.list}>
          {(list ?? []).map((application) => (
            <li key={application.user.id}>
              <Application application={application} onDecided={decided} onFailed={(error) => setMessage({ kind: 'error', text: errorText(t, error) })} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Application({ application, onDecided, onFailed }: { application: PartnerApplication; onDecided: (next: PartnerApplication, text: string) => void; onFailed: (error: unknown) => void }) {
  const { t, i18n } = useTranslation();
  const fanstage = useFanstage();
  const api = useMemo(() => adminPartnersApi(fanstage.client), [fanstage]);
  const [reason, setReason] = useState('');
  const [reasonMissing, setReasonMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const { user, form, idCheck } = application;
  const who = user.displayName || user.username;
  const date = (ms: number | null) => (ms === null ? '—' : new Date(ms).toLocaleString(i18n.resolvedLanguage ?? i18n.language));

  const act = async (work: () => Promise<PartnerApplication>, text: (next: PartnerApplication) => string) => {
    setBusy(true);
    try {
      const next = await work();
      onDecided(next, text(next));
    } catch (error) {
      onFailed(error);
    } finally {
      setBusy(false);
    }
  };

  const decline = () => {
    if (reason.trim() === '') {
      setReasonMissing(true);
      document.getElementById(`${id}-reason`)?.focus();
      return;
    }
    void act(() => api.decline(user.id, reason.trim()), () => t('admin.partners.declined', { name: who }));
  };

  return (
    <article className={styles.item} aria-labelledby={`${id}-name`} data-testid="partner-application" data-user-id={user.id}>
      <div className={styles.itemHead}>
        <h3 id={`${id}-name`} className={styles.itemTitle}>
          {who} <span className={styles.muted}>@{user.username}</span>
        </h3>
        <span className={styles.tag}>{t(`admin.partners.state.${application.approvedState}`, { defaultValue: String(application.approvedState) })}</span>
      </div>
      <dl className={own.details}>
        <dt>{t('admin.partners.email')}</dt>
        <dd>{user.email ?? '—'}</dd>
        {form ? (
          <>
            <dt>{t('partner.form.name')}</dt>
            <dd>{form.name}</dd>
            <dt>{t('admin.partners.address')}</dt>
            <dd>
              {form.street}, {form.zip}, {form.country}
            </dd>
            <dt>{t('partner.form.iban')}</dt>
            <dd>{form.iban}</dd>
            <dt>{t('partner.form.companyId')}</dt>
            <dd>{form.companyId ?? '—'}</dd>
          </>
        ) : null}
        <dt>{t('admin.partners.referredCode')}</dt>
        <dd>{application.referredCode ?? '—'}</dd>
        <dt>{t('admin.partners.submitted')}</dt>
        <dd>{date(application.submittedAt)}</dd>
        <dt>{t('admin.partners.idCheck')}</dt>
        <dd>
          {idCheck ? t(`admin.partners.check.${idCheck.status}`) : t('admin.partners.check.none')}
          {idCheck?.reason ? ` — ${idCheck.reason}` : ''}
        </dd>
      </dl>
      {idCheck && idCheck.documents.length > 0 ? (
        <ul className={own.documents} aria-label={t('admin.partners.documents', { name: who })}>
          {idCheck.documents.map((document) => (
            <li key={document.id}>
              <figure>
                <a href={document.url} target="_blank" rel="noreferrer">
                  <img src={document.url} alt={t(`admin.partners.document.${document.kind}`, { name: who })} width={document.width} height={document.height} loading="lazy" />
                </a>
                <figcaption>{t(`admin.partners.kind.${document.kind}`)}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      ) : null}
      {application.decisions.length > 0 ? (
        <ul className={styles.facts} aria-label={t('admin.partners.decisions')}>
          {application.decisions.map((decision) => (
            <li key={decision.id}>
              {t(`admin.partners.action.${decision.action}`)} · {decision.adminUsername ?? '—'} · {date(decision.createdAt)}
              {decision.reason ? ` — ${decision.reason}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
      {decidable.has(application.approvedState) ? (
        <div className={own.decision}>
          <div className={styles.field}>
            <label className={styles.fieldLabel} htmlFor={`${id}-reason`}>
              {t('admin.partners.reason')}
            </label>
            <input
              id={`${id}-reason`}
              className={styles.input}
              value={reason}
              maxLength={500}
              aria-invalid={reasonMissing ? true : undefined}
              aria-describedby={reasonMissing ? `${id}-reason-error` : undefined}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setReasonMissing(false);
              }}
            />
            {reasonMissing ? (
              <span id={`${id}-reason-error`} className={styles.error}>
                {t('admin.partners.reasonNeeded')}
              </span>
            ) : null}
          </div>
          <div className={styles.actions}>
            <button type="button" className={styles.primary} disabled={busy} onClick={() => void act(() => api.approve(user.id), () => t('admin.partners.approved', { name: who }))}>
              {t('admin.partners.approve')}
            </button>
            <button type="button" className={styles.danger} disabled={busy} onClick={decline}>
              {t('admin.partners.decline')}
            </button>
          </div>
        </div>
      ) : null}
    </article>
  );
}
