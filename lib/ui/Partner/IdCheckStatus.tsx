import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IdentityCheck } from '../../contract';
import { isSdkError, partnerApi } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';
import '../theme/tokens.css';
import styles from '../OfferSettings/creatorTools.module.css';

export interface IdCheckStatusProps {
  className?: string;
  /** How often a running check is asked again, in ms (default 3 s). */
  pollMs?: number;
}

type Outcome = 'checking' | 'partner' | 'application-declined' | 'approved' | 'id-check-pending' | 'id-check-review' | 'id-check-declined' | 'id-check-not-started' | 'error';

/**
 * The result of the identity check when the person comes back from the provider (SPEC §2
 * /verify-request): asks `check-id-check`, again while it runs and whenever
 * `partnerStatusChanged` arrives, and says what happens next. A verified identity still waits
 * for the administrator, so the application's own state is read as well: the page changes when
 * she approves or declines, over the socket, while the person is looking at it.
 */
export function IdCheckStatus({ className, pollMs = 3_000 }: IdCheckStatusProps) {
  const { t, i18n } = useTranslation();
  const fanstage = useFanstage();
  const api = useMemo(() => partnerApi(fanstage.client), [fanstage]);
  const [outcome, setOutcome] = useState<Outcome>('checking');
  const [check, setCheck] = useState<IdentityCheck | null>(null);
  const live = useRef(true);

  const [declineReason, setDeclineReason] = useState<string | null>(null);

  const ask = useCallback(async () => {
    try {
      const [approved, application] = await Promise.all([api.checkIdCheck(), api.status()]);
      if (!live.current) return;
      setCheck(approved);
      setDeclineReason(application.declineReason);
      // 120: approved by the administrator; 7 with a reason: she sent the application back.
      setOutcome(application.approvedState === 120 ? 'partner' : application.approvedState === 7 && application.declineReason ? 'application-declined' : 'approved');
    } catch (error) {
      if (!live.current) return;
      if (isSdkError(error) && ['id-check-pending', 'id-check-review', 'id-check-declined', 'id-check-not-started'].includes(error.code)) {
        setOutcome(error.code as Outcome);
        setCheck((error.body as IdentityCheck | undefined) ?? null);
      } else setOutcome('error');
    }
  }, [api]);

  useEffect(() => {
    live.current = true;
    void ask();
    const off = fanstage.socket.on('eventMessage', (message) => {
      if (message.event === 'partnerStatusChanged') void ask();
    });
    return () => {
      live.current = false;
      off();
    };
  }, [ask, fanstage]);

  // A running check is asked again until the provider's verdict arrives.
  useEffect(() => {
    if (outcome !== 'id-check-pending' && outcome !== 'checking') return;
    const timer = setInterval(() => void ask(), pollMs);
    return () => clearInterval(timer);
  }, [ask, outcome, pollMs]);

  const text: Record<Outcome, string> = {
    checking: t('partner.result.checking'),
    partner: t('partner.result.partner'),
    'application-declined': t('partner.result.applicationDeclined', { reason: declineReason ?? t('partner.noReason') }),
    approved: t('partner.result.approved'),
    'id-check-pending': t('partner.result.pending'),
    'id-check-review': t('partner.result.review'),
    'id-check-declined': t('partner.result.declined', { reason: check?.reason ?? t('partner.noReason') }),
    'id-check-not-started': t('partner.result.notStarted'),
    error: t('errors.couldnt-get-info-from-server'),
  };
  return (
    <section className={['fs-root', styles.root, className].filter(Boolean).join(' ')} lang={i18n.resolvedLanguage ?? i18n.language} data-testid="id-check-status" data-outcome={outcome}>
      <div className={styles.card}>
        <p role="status" aria-live="polite" className={outcome === 'approved' || outcome === 'partner' ? styles.success : outcome === 'id-check-declined' || outcome === 'application-declined' || outcome === 'error' ? styles.error : styles.text}>
          {text[outcome]}
        </p>
        {outcome === 'error' ? (
          <div className={styles.actions}>
            <button type="button" className={styles.secondary} onClick={() => void ask()}>
              {t('partner.retry')}
            </button>
          </div>
        ) : null}
      </div>
    </section>
  );
}
