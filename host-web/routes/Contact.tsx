import { useId, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { ContactTopics, contactLimits, type ContactBody, type ContactTopic } from '../../lib/contract/contact';
import { FormAlert, FormShell, FormSuccess, SubmitButton, TextField, errorMessage, focusFirstInvalid, formStyles, validateEmail } from '../../lib/ui/shared/formParts';
import { usePageTitle, useSite } from '../site';
import { useTourSettings } from './tourSettings';
import styles from './Contact.module.css';

/**
 * `/contact` (SPEC §2, §7): a message to support. Signed in it goes through `POST /api/contact`
 * and is answered at the account's address; a visitor's goes through `POST /papi/contact` with
 * the address to answer to. The server writes it to the support address's outbox.
 */
export default function Contact() {
  const { t } = useTranslation();
  const { fanstage, loggedIn } = useSite();
  const { settings } = useTourSettings();
  usePageTitle(t('contact.title'));
  const alertId = useId();
  const topicId = useId();
  const messageId = useId();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [topic, setTopic] = useState<ContactTopic | ''>('');
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);

  const errors = {
    name: name.trim() === '' ? t('auth.required') : null,
    email: loggedIn ? null : validateEmail(t, email),
    topic: topic === '' ? t('contact.chooseTopic') : null,
    subject: subject.trim() === '' ? t('auth.required') : null,
    message: message.trim().length < contactLimits.messageMin ? t('contact.messageTooShort', { min: contactLimits.messageMin }) : null,
  };
  const shown = (error: string | null) => (submitted ? error : null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setSubmitted(true);
    setSent(false);
    if (Object.values(errors).some((error) => error !== null) || topic === '') {
      focusFirstInvalid(event.currentTarget);
      return;
    }
    const body: ContactBody = { name: name.trim(), topic, subject: subject.trim(), message: message.trim(), ...(loggedIn ? {} : { email: email.trim() }) };
    setBusy(true);
    setFailure(null);
    fanstage.client
      .post<undefined>(loggedIn ? '/api/contact' : '/papi/contact', body)
      .then(() => {
        setSent(true);
        setSubmitted(false);
        setSubject('');
        setMessage('');
        setTopic('');
      })
      .catch((error: unknown) => setFailure(error))
      .finally(() => setBusy(false));
  }

  const supportEmail = settings?.operator?.email;
  return (
    <div className={styles.page} data-testid="contact-page">
      <FormShell
        title={t('contact.title')}
        headingLevel={1}
        text={loggedIn ? t('contact.leadSignedIn') : t('contact.lead')}
        onSubmit={onSubmit}
        busy={busy}
        className={styles.form}
        describedBy={failure ? alertId : undefined}
      >
        <TextField type="text" label={t('contact.name')} autoComplete="name" value={name} onChange={setName} error={shown(errors.name)} />
        {loggedIn ? null : <TextField type="email" label={t('auth.email')} autoComplete="email" value={email} onChange={setEmail} error={shown(errors.email)} hint={t('contact.emailHint')} />}
        <div className={formStyles.field}>
          <label className={formStyles.label} htmlFor={topicId}>
            {t('contact.topic')}
          </label>
          <div className={formStyles.control}>
            <select
              id={topicId}
              className={formStyles.input}
              value={topic}
              onChange={(event) => setTopic(event.target.value as ContactTopic | '')}
              required
              aria-invalid={shown(errors.topic) ? true : undefined}
              aria-describedby={shown(errors.topic) ? `${topicId}-error` : undefined}
            >
              <option value="">{t('contact.chooseTopic')}</option>
              {ContactTopics.map((value) => (
                <option key={value} value={value}>
                  {t(`contact.topics.${value}`)}
                </option>
              ))}
            </select>
          </div>
          {shown(errors.topic) ? (
            <p id={`${topicId}-error`} className={formStyles.fieldError}>
              {errors.topic}
            </p>
          ) : null}
        </div>
        <TextField type="text" label={t('contact.subject')} autoComplete="off" value={subject.slice(0, contactLimits.subject)} onChange={(value) => setSubject(value.slice(0, contactLimits.subject))} error={shown(errors.subject)} />
        <div className={formStyles.field}>
          <label className={formStyles.label} htmlFor={messageId}>
            {t('contact.message')}
          </label>
          <textarea
            id={messageId}
            className={`${formStyles.input} ${styles.message}`}
            value={message}
            maxLength={contactLimits.message}
            rows={7}
            required
            onChange={(event) => setMessage(event.target.value)}
            aria-invalid={shown(errors.message) ? true : undefined}
            aria-describedby={`${messageId}-count${shown(errors.message) ? ` ${messageId}-error` : ''}`}
          />
          {shown(errors.message) ? (
            <p id={`${messageId}-error`} className={formStyles.fieldError}>
              {errors.message}
            </p>
          ) : null}
          <p id={`${messageId}-count`} className={formStyles.hint}>
            {t('contact.count', { length: message.length, max: contactLimits.message })}
          </p>
        </div>
        <FormAlert id={alertId} message={failure ? errorMessage(t, failure) : null} />
        <FormSuccess message={sent ? t('contact.sent') : null} />
        <SubmitButton label={t('contact.submit')} busyLabel={t('contact.busy')} busy={busy} />
      </FormShell>
      <aside className={styles.aside} aria-label={t('contact.otherWays')}>
        {supportEmail ? (
          <p>
            {t('contact.byMail')} <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
          </p>
        ) : null}
        {settings?.operator ? (
          <p className={styles.operator}>
            {settings.operator.name}
            {settings.operator.address ? `, ${settings.operator.address}` : ''}
          </p>
        ) : null}
        <p>
          <Link href="/tour-faq">{t('contact.faq')}</Link>
        </p>
      </aside>
    </div>
  );
}
