import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isSdkError } from '../../lib/sdk';
import type { AdminAbuseReport, ModerationAction, ModerationResult } from '../../lib/contract/abuse';
import { useFanstage } from '../../lib/ui';
import styles from './Money.module.css';
import own from './Admin.module.css';
import { AdminSection, useAdminList, type AdminMessage } from './AdminSection';

/** The action that removes a report's thing, by its type; a profile is only banned or dismissed. */
const removal: Record<AdminAbuseReport['type'], { action: ModerationAction; label: string } | null> = {
  post: { action: 'hide-post', label: 'admin.abuse.hidePost' },
  comment: { action: 'delete-comment', label: 'admin.abuse.deleteComment' },
  message: { action: 'delete-message', label: 'admin.abuse.deleteMessage' },
  user: null,
};

/**
 * GET /api/admin/abuse and POST /api/admin/abuse/{id}/{action} (docs/moderation.md): the open
 * reports, newest first, each with what was reported as it was then, and the actions that
 * settle it. An action closes every report it settles, so the list is read again after it.
 */
export function AbuseReports() {
  const { t, i18n } = useTranslation();
  const { client } = useFanstage();
  const { list, setList, failed } = useAdminList<AdminAbuseReport>('/api/admin/abuse');
  const [busy, setBusy] = useState<number | null>(null);
  const [message, setMessage] = useState<AdminMessage | null>(null);

  const act = async (report: AdminAbuseReport, action: ModerationAction) => {
    setBusy(report.id);
    setMessage(null);
    try {
      const result = await client.post<ModerationResult>(`/api/admin/abuse/${report.id}/${action}`);
      const closed = new Set(result.closedReports);
      setList((previous) => (previous ?? []).filter((other) => !closed.has(other.id)));
      setMessage({ kind: 'success', text: t(`admin.abuse.done.${action}`, { author: report.author.username }) });
    } catch (error) {
      setMessage({ kind: 'error', text: `${t('admin.abuse.failed')} ${isSdkError(error) ? t(`errors.${error.code}`, { defaultValue: '' }) : ''}`.trim() });
    } finally {
      setBusy(null);
    }
  };

  const lang = i18n.resolvedLanguage ?? i18n.language;
  return (
    <AdminSection id="admin-abuse" title={t('admin.abuse.title')} testId="admin-abuse" message={message} failed={failed} list={list} emptyText={t('admin.abuse.empty')}>
      {(reports) =>
        reports.map((report) => {
          const remove = removal[report.type];
          const actions: { action: ModerationAction; label: string; className: string | undefined }[] = [
            ...(remove && report.present ? [{ action: remove.action, label: t(remove.label), className: styles.danger }] : []),
            ...(report.author.banned ? [] : [{ action: 'ban' as const, label: t('admin.abuse.ban'), className: styles.danger }]),
            { action: 'dismiss', label: t('admin.abuse.dismiss'), className: styles.secondary },
          ];
          return (
            <li key={report.id} className={styles.row} data-testid="abuse-report" data-report-id={report.id} data-type={report.type} data-target-id={report.targetId}>
              <span className={styles.rowMain}>
                <span>
                  {t(report.type === 'user' ? 'admin.abuse.profileLine' : 'admin.abuse.line', {
                    type: t(`abuse.types.${report.type}`),
                    author: report.author.username,
                    reporter: report.reporter.username,
                    date: new Date(report.ts).toLocaleString(lang),
                  })}
                </span>
                <span>{t('admin.abuse.reason', { reason: t(`abuse.reasons.${report.reason}`) })}</span>
                {report.text ? <q className={own.reportText}>{report.text}</q> : null}
                {report.snapshot.text ? <blockquote className={own.snapshot}>{report.snapshot.text}</blockquote> : null}
                {report.snapshot.mediaIds.length > 0 ? <span className={styles.muted}>{t('abuse.media', { count: report.snapshot.mediaIds.length })}</span> : null}
                {!report.present && remove ? <span className={styles.muted}>{t('admin.abuse.gone')}</span> : null}
                {report.author.banned ? <span className={styles.muted}>{t('admin.abuse.banned')}</span> : null}
              </span>
              <span className={own.actions}>
                {actions.map(({ action, label, className }) => (
                  <button key={action} type="button" className={className} disabled={busy !== null} aria-label={t('admin.abuse.actionOf', { action: label, id: report.id })} onClick={() => void act(report, action)}>
                    {label}
                  </button>
                ))}
              </span>
            </li>
          );
        })
      }
    </AdminSection>
  );
}
