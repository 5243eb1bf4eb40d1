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

/** An approved partner's badge as the administrator reads it. */
function badgeState(application: PartnerApplication): 'shown' | 'hidden' | 'revoked' {
  return application.badgeVerifiedState !== 3 ? 'revoked' : application.hasBadge ? 'shown' : 'hidden';
}

/**
 * The administrators' queue of partner applications (docs/partners.md, Moderation): each
 * applicant's form, identity check and documents, earlier decisions, and approve or decline
 * with a reason; for an approved partner, revoking the verified badge (with a reason) or giving
 * it back. The server allows it to administrators (level 500) only.
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

  /** Declining and revoking a badge say why: without a reason the field is marked and nothing is sent. */
  const withReason = (then: (why: string) => void) => {
    if (reason.trim() === '') {
      setReasonMissing(true);
      document.getElementById(`${id}-reason`)?.focus();
      return;
    }
    then(reason.trim());
  };
  const decline = () => withReason((why) => void act(() => api.decline(user.id, why), () => t('admin.partners.declined', { name: who })));
  const partner = application.approvedState === 120 && application.isPartner;
  const revoked = badgeState(application) === 'revoked';

  const reasonField = (label: string, needed: string) => (
    <div className={styles.field}>
      <label className={styles.fieldLabel} htmlFor={`${id}-reason`}>
        {label}
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
          {needed}
        </span>
      ) : null}
    </div>
  );

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
        {partner ? (
          <>
            <dt>{t('admin.partners.badge')}</dt>
            <dd>{t(`admin.partners.badgeState.${badgeState(application)}`)}</dd>
          </>
        ) : null}
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
      {partner ? (
        <div className={own.decision}>
          {revoked ? null : reasonField(t('admin.partners.badgeReason'), t('admin.partners.badgeReasonNeeded'))}
          <div className={styles.actions}>
            {revoked ? (
              <button type="button" className={styles.secondary} disabled={busy} onClick={() => void act(() => api.restoreBadge(user.id), () => t('admin.partners.badgeRestored', { name: who }))}>
                {t('admin.partners.restoreBadge')}
              </button>
            ) : (
              <button
                type="button"
                className={styles.danger}
                disabled={busy}
                onClick={() =>
                  withReason(
                    (why) =>
                      void act(
                        async () => {
                          const next = await api.revokeBadge(user.id, why);
                          setReason('');
                          return next;
                        },
                        () => t('admin.partners.badgeRevoked', { name: who }),
                      ),
                  )
                }
              >
                {t('admin.partners.revokeBadge')}
              </button>
            )}
          </div>
        </div>
      ) : null}
      {decidable.has(application.approvedState) ? (
        <div className={own.decision}>
          {reasonField(t('admin.partners.reason'), t('admin.partners.reasonNeeded'))}
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
