import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import '../theme/tokens.css';
import { MEDIA_ACCEPT, VOICE_ACCEPT } from '../../sdk';
import { Dialog } from '../dialog/Dialog';
import { GiftPicker } from '../GiftPicker/GiftPicker';
import { UploadError } from '../UploadError/UploadError';
import { VerifyEmailNotice } from '../VerifyEmailNotice/VerifyEmailNotice';
import { useChatComposer, type ChatComposerState, type UseChatComposerOptions } from './useChatComposer';
import styles from './ChatComposer.module.css';

export interface ChatComposerProps extends UseChatComposerOptions {
  className?: string;
}

/** The message box under a conversation: text (Enter sends, Shift+Enter a new line), a media, a voice note, a gift. */
export function ChatComposer({ className, ...options }: ChatComposerProps) {
  const state = useChatComposer(options);
  return <ChatComposerView {...state} {...(className ? { className } : {})} />;
}

export function ChatComposerView(props: ChatComposerState & { className?: string }) {
  const { t, i18n } = useTranslation();
  const fieldId = useId();
  const hintId = useId();
  const priceId = useId();
  const mediaInput = useRef<HTMLInputElement>(null);
  const voiceInput = useRef<HTMLInputElement>(null);
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const disabled = props.disabledText !== null;

  function pick(kind: 'media' | 'voice') {
    const input = kind === 'voice' ? voiceInput.current : mediaInput.current;
    if (!input) return;
    input.value = '';
    input.click();
  }

  return (
    <form
      className={['fs-root', styles.root, props.className].filter(Boolean).join(' ')}
      lang={lang}
      aria-label={t('chat.composer.label')}
      onSubmit={(event) => {
        event.preventDefault();
        props.send();
      }}
    >
      {props.disabledText ? <p className={styles.note}>{props.disabledText}</p> : null}
      {props.uploadText ? (
        <div className={styles.upload} role="status">
          <span>{props.uploadText}</span>
          <progress className={styles.progress} max={100} value={props.progress} aria-label={t('chat.composer.progress')} />
          <button type="button" className={styles.textButton} onClick={props.cancelUpload}>
            {t('chat.composer.cancelUpload')}
          </button>
        </div>
      ) : null}
      {props.alert ? (
        <p className={styles.alert} role="alert">
          {props.alert}
        </p>
      ) : null}
      <div className={styles.row}>
        <button type="button" className={styles.icon} disabled={disabled || props.uploading} onClick={() => pick('media')} aria-label={t('chat.composer.attach')} title={t('chat.composer.attach')}>
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M19 5H5a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2Zm0 12H5V7h14Zm-5.5-6.5-3 3.9-2-2.4L6 15h12Z" />
          </svg>
        </button>
        <button type="button" className={styles.icon} disabled={disabled || props.uploading} onClick={() => pick('voice')} aria-label={t('chat.composer.voice')} title={t('chat.composer.voice')}>
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M12 15a3 3 0 0 0 3-3V6a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3Zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.9V21h2v-2.1a7 7 0 0 0 6-6.9Z" />
          </svg>
        </button>
        {props.canGift ? (
          <button type="button" className={styles.icon} aria-haspopup="dialog" onClick={props.openGifts} aria-label={t('chat.composer.gift')} title={t('chat.composer.gift')}>
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path fill="currentColor" d="M20 7h-2.2A3 3 0 0 0 12 4.8 3 3 0 0 0 6.2 7H4a1 1 0 0 0-1 1v3a1 1 0 0 0 1 1h1v7a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-7h1a1 1 0 0 0 1-1V8a1 1 0 0 0-1-1Zm-5-1a1 1 0 1 1 0 2h-2a2 2 0 0 1 2-2Zm-6 0a2 2 0 0 1 2 2H9a1 1 0 1 1 0-2Zm-4 3h6v1H5Zm2 3h4v6H7Zm10 6h-4v-6h4Zm2-8h-6V9h6Z" />
            </svg>
          </button>
        ) : null}
        <label htmlFor={fieldId} className={styles.visuallyHidden}>
          {t('chat.composer.message')}
        </label>
        <textarea
          id={fieldId}
          className={styles.field}
          rows={1}
          value={props.text}
          placeholder={t('chat.composer.placeholder')}
          aria-describedby={hintId}
          disabled={disabled}
          onChange={(event) => props.onText(event.target.value)}
          onKeyDown={props.onKeyDown}
        />
        <button type="submit" className={styles.send} disabled={!props.canSend}>
          <svg className={styles.sendIcon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M3.4 20.4 21 12 3.4 3.6 3.4 10l12.6 2-12.6 2Z" />
          </svg>
          <span className={styles.sendLabel}>{t('chat.composer.send')}</span>
        </button>
      </div>
      <p id={hintId} className={styles.visuallyHidden}>
        {t('chat.composer.hint')}
      </p>
      {props.seller && !disabled ? (
        <p className={styles.price}>
          <label htmlFor={priceId}>{t('chat.composer.mediaPrice')}</label>{' '}
          <select id={priceId} value={props.mediaPrice} onChange={(event) => props.setMediaPrice(Number(event.target.value))}>
            {props.mediaPriceOptions.map((option) => (
              <option key={option.cents} value={option.cents}>
                {option.label}
              </option>
            ))}
          </select>
        </p>
      ) : null}
      <input ref={mediaInput} className={styles.visuallyHidden} type="file" accept={MEDIA_ACCEPT} tabIndex={-1} aria-hidden="true" onChange={(event) => props.attach(event.target.files, 'media')} />
      <input ref={voiceInput} className={styles.visuallyHidden} type="file" accept={VOICE_ACCEPT} tabIndex={-1} aria-hidden="true" onChange={(event) => props.attach(event.target.files, 'voice')} />
      {props.uploadProblem ? (
        <UploadError
          problem={props.uploadProblem}
          onChooseOther={() => {
            props.dismissProblem();
            pick(props.lastKind);
          }}
          onCancel={props.dismissProblem}
        />
      ) : null}
      {props.giftOpen ? (
        <Dialog title={t('chat.composer.giftTitle')} closeLabel={t('chat.close')} onClose={props.closeGifts} lang={lang}>
          {props.gifts === null ? (
            <p role="status">{props.giftsFailed ? t('errors.couldnt-get-info-from-server') : t('chat.loading')}</p>
          ) : (
            <>
              <GiftPicker gifts={props.gifts} selectedId={props.giftId} onSelect={props.selectGift} pictureOf={props.pictureOf} />
              <button type="button" className={styles.giftSend} onClick={props.sendGift} disabled={props.giftId === null}>
                {t('chat.composer.sendGift')}
              </button>
            </>
          )}
        </Dialog>
      ) : null}
      {props.verifying ? (
        <Dialog title={t('chat.verifyTitle')} closeLabel={t('chat.close')} onClose={props.closeVerify} lang={lang}>
          <VerifyEmailNotice headingLevel={3} />
        </Dialog>
      ) : null}
    </form>
  );
}
