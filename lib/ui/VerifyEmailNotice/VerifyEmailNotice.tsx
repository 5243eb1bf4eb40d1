import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { FormAlert, FormSuccess, formStyles } from '../shared/formParts';
import { useVerifyEmailNotice, type VerifyEmailNoticeState } from './useVerifyEmailNotice';
import styles from './VerifyEmailNotice.module.css';

interface ViewOptions {
  headingLevel?: 1 | 2 | 3;
  className?: string;
  lang?: string;
}

export type VerifyEmailNoticeViewProps = VerifyEmailNoticeState & ViewOptions;
export type VerifyEmailNoticeProps = ViewOptions;

/** "Verify your e-mail" with one resend of the link; renders nothing once the e-mail is verified. */
export function VerifyEmailNotice(view: VerifyEmailNoticeProps) {
  const state = useVerifyEmailNotice();
  const { i18n } = useTranslation();
  return <VerifyEmailNoticeView lang={i18n.resolvedLanguage ?? i18n.language} {...state} {...view} />;
}

export function VerifyEmailNoticeView(props: VerifyEmailNoticeViewProps) {
  const titleId = useId();
  if (props.verified) return null;
  const Heading = `h${props.headingLevel ?? 2}` as 'h2';
  return (
    <div className={['fs-root', formStyles.root, props.className].filter(Boolean).join(' ')} lang={props.lang}>
      <section className={`${formStyles.form} ${styles.notice}`} aria-labelledby={titleId} aria-busy={props.busy}>
        <Heading id={titleId} className={formStyles.title}>
          {props.title}
        </Heading>
        <p className={formStyles.text}>{props.text}</p>
        <FormAlert message={props.alert} />
        <FormSuccess message={props.sent} />
        <button type="button" className={formStyles.submit} onClick={props.onResend} disabled={props.resendDisabled}>
          {props.resendLabel}
        </button>
      </section>
    </div>
  );
}
