import { useId, useRef, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { useMassMessages, type MassMessagesState } from './useMassMessages';
import styles from '../OfferSettings/creatorTools.module.css';

export interface MassMessagesProps {
  className?: string;
  headingLevel?: 2 | 3;
}

/** A creator's mass messages: the composer and the messages sent, with who got them and who unlocked. */
export function MassMessages({ className, headingLevel = 2 }: MassMessagesProps) {
  const { t, i18n } = useTranslation();
  const state = useMassMessages();
  const Heading = `h${headingLevel}` as const;

  if (!state.seller) {
    return (
      <div className={['fs-root', styles.root, className].filter(Boolean).join(' ')} lang={i18n.resolvedLanguage ?? i18n.language}>
        <p className={styles.muted} data-testid="mass-not-seller">
          {t('creatorTools.mass.sellersOnly')}
        </p>
      </div>
    );
  }

  return (
    <div className={['fs-root', styles.root, styles.twoColumns, className].filter(Boolean).join(' ')} lang={i18n.resolvedLanguage ?? i18n.language}>
      <Composer state={state} Heading={Heading} />
      <SentList state={state} Heading={Heading} />
    </div>
  );
}

function Composer({ state, Heading }: { state: MassMessagesState; Heading: 'h2' | 'h3' }) {
  const { t } = useTranslation();
  const titleId = useId();
  const textId = useId();
  const file = useRef<HTMLInputElement>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    void state.send();
  }

  return (
    <form className={styles.card} aria-labelledby={titleId} onSubmit={submit} noValidate>
      <Heading id={titleId} className={styles.heading}>
        {t('creatorTools.mass.compose')}
      </Heading>
      <fieldset className={styles.fieldset}>
        <legend>{t('creatorTools.mass.to')}</legend>
        {state.groups.map((name) => {
          const count = state.membersOf(name);
          return (
            <label key={name} className={styles.choice}>
              <input type="radio" name={`${titleId}-group`} value={name} checked={state.group === name} onChange={() => state.setGroup(name)} />
              {count === null ? t(`creatorTools.mass.groups.${name}`) : t('creatorTools.mass.groupCount', { group: t(`creatorTools.mass.groups.${name}`), count })}
            </label>
          );
        })}
      </fieldset>
      <label className={styles.field} htmlFor={textId}>
        <span className={styles.fieldLabel}>{t('creatorTools.mass.text')}</span>
      </label>
      <textarea id={textId} className={styles.textarea} value={state.text} maxLength={state.maxLength} onChange={(event) => state.setText(event.target.value)} />
      <div className={styles.inline}>
        <label className={styles.field}>
          <span className={styles.fieldLabel}>{t('creatorTools.mass.mediaPrice')}</span>
          <select className={styles.select} value={state.price} disabled={state.attachment !== null || state.uploading} onChange={(event) => state.setPrice(Number(event.target.value))}>
            {state.priceOptions.map((option) => (
              <option key={option.cents} value={option.cents}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <input
          ref={file}
          type="file"
          accept="image/*,video/*,.mp4,.m4v,.heic"
          hidden
          onChange={(event) => {
            state.attach(event.target.files);
            event.target.value = '';
          }}
          data-testid="mass-file"
        />
        <button type="button" className={styles.secondary} disabled={state.uploading || state.attachment !== null} onClick={() => file.current?.click()}>
          {t('creatorTools.mass.attach')}
        </button>
      </div>
      {state.uploading ? (
        <div className={styles.field}>
          <span>{t('chat.composer.uploading', { percent: state.progress })}</span>
          <progress className={styles.progress} max={100} value={state.progress} aria-label={t('chat.composer.progress')} />
        </div>
      ) : null}
      {state.attachment ? (
        <div className={styles.actions} data-testid="mass-attachment">
          <p className={styles.text}>{t('creatorTools.mass.attached', { name: state.attachment.name || t(`creatorTools.mass.mediaType.${state.attachment.mediaType === 'video' ? 'video' : 'image'}`), price: state.fanPrice(state.price) })}</p>
          <button type="button" className={styles.secondary} onClick={state.removeAttachment}>
            {t('creatorTools.mass.remove')}
          </button>
        </div>
      ) : null}
      {state.message ? (
        <p role={state.message.kind === 'success' ? 'status' : 'alert'} className={state.message.kind === 'success' ? styles.success : styles.error}>
          {state.message.text}
        </p>
      ) : null}
      <div className={styles.actions}>
        <button type="submit" className={styles.primary} disabled={state.sending || state.uploading} aria-busy={state.sending || undefined}>
          {t('creatorTools.mass.send')}
        </button>
      </div>
    </form>
  );
}

function SentList({ state, Heading }: { state: MassMessagesState; Heading: 'h2' | 'h3' }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const date = (ms: number) => new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
  const sent = state.sent ?? [];

  return (
    <section className={styles.card} aria-labelledby={titleId}>
      <Heading id={titleId} className={styles.heading}>
        {t('creatorTools.mass.sentTitle')}
      </Heading>
      {state.status === 'loading' && state.sent === null ? (
        <p role="status">{t('creatorTools.mass.loading')}</p>
      ) : state.status === 'error' && state.sent === null ? (
        <div className={styles.actions}>
          <p className={styles.error}>{t('errors.couldnt-get-info-from-server')}</p>
          <button type="button" className={styles.secondary} onClick={state.retry}>
            {t('creatorTools.retry')}
          </button>
        </div>
      ) : sent.length === 0 ? (
        <p className={styles.muted}>{t('creatorTools.mass.none')}</p>
      ) : (
        <ul className={styles.list} data-testid="mass-sent">
          {sent.map((message) => (
            <li key={message.id} className={styles.item} data-testid="mass-sent-item">
              <div className={styles.itemHead}>
                <span className={styles.tag}>{t(`creatorTools.mass.groups.${message.recGroup}`)}</span>
                <span className={styles.muted}>{date(message.sendDt)}</span>
              </div>
              {message.text ? <p className={styles.text}>{message.text}</p> : null}
              <p className={styles.facts}>
                {message.media ? (
                  <span>
                    {t('creatorTools.mass.withMedia', {
                      type: t(`creatorTools.mass.mediaType.${message.media.mediaType === 'video' ? 'video' : 'image'}`),
                      price: state.fanPrice(message.media.mediaPrice),
                    })}
                  </span>
                ) : null}
                <span>{t('creatorTools.mass.recipients', { count: message.recipientsCount })}</span>
                {message.media && message.media.mediaPrice > 0 ? <span>{t('creatorTools.mass.unlocks', { count: message.unlocksCount })}</span> : null}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
