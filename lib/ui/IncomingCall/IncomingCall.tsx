import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { useIncomingCall, type IncomingCallState, type UseIncomingCallOptions } from './useIncomingCall';
import { Dialog } from '../dialog/Dialog';
import styles from './IncomingCall.module.css';

export interface IncomingCallProps extends UseIncomingCallOptions {
  className?: string;
}

/**
 * The incoming-call screen (SPEC §2 overlays): shown over the page while someone rings the
 * viewer. Mount it once where the viewer is signed in; it renders nothing while nothing rings.
 */
export function IncomingCall({ className, ...options }: IncomingCallProps) {
  const state = useIncomingCall(options);
  return <IncomingCallView {...state} {...(className ? { className } : {})} />;
}

export function IncomingCallView(props: IncomingCallState & { className?: string }) {
  const { t } = useTranslation();
  if (props.hidden) return null;
  // Whatever the person was doing, the call is what needs an answer now: a modal alert, Accept
  // focused, Escape declines; focus returns to where it was when it goes.
  return (
    <Dialog
      key={props.callId}
      title={t('calls.incoming.title', { name: props.name })}
      description={props.price}
      icon={
        props.avatar ? (
          <img className={styles.avatar} src={props.avatar} alt="" width={96} height={96} />
        ) : (
          <span className={styles.avatar}>{props.initial}</span>
        )
      }
      alert
      size="small"
      closeButton={false}
      initialFocus="[data-testid='incoming-accept']"
      onClose={props.decline}
      className={[styles.panel, props.className].filter(Boolean).join(' ')}
      data-testid="incoming-call"
    >
      {props.alert ? (
        <p className={styles.alert} role="alert">
          {props.alert}
        </p>
      ) : null}
      <div className={styles.buttons}>
        <button type="button" className={styles.decline} onClick={props.decline}>
          {t('calls.incoming.decline')}
        </button>
        <button type="button" className={styles.accept} onClick={props.accept} aria-busy={props.busy || undefined} data-testid="incoming-accept">
          {t('calls.incoming.accept')}
        </button>
      </div>
    </Dialog>
  );
}
