import { useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MEDIA_ACCEPT, mediaUrl } from '../../sdk';
import '../theme/tokens.css';
import styles from './PostEditor.module.css';
import { PriceSelector } from '../PriceSelector';
import { UploadError } from '../UploadError';
import { usePostEditor, type UsePostEditorOptions } from './usePostEditor';
import { useFanstage } from '../FanstageProvider/context';

export interface PostEditorProps extends UsePostEditorOptions {
  /** Offers a schedule date (default true). */
  allowSchedule?: boolean;
  onCancel?: () => void;
  headingLevel?: 1 | 2;
  className?: string;
}

/**
 * New post and edit post: caption, a photo or video picked or dropped with upload progress,
 * the post-media price (SPEC §9 steps), an optional publish date, and SPEC §8 upload errors.
 */
export function PostEditor({ allowSchedule = true, onCancel, headingLevel = 2, className, ...options }: PostEditorProps) {
  const state = usePostEditor(options);
  const { t, i18n } = useTranslation();
  const { settings } = useFanstage();
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const titleId = useId();
  const textId = useId();
  const dateId = useId();
  const messageId = useId();
  const Heading = `h${headingLevel}` as 'h2';
  const cdn = settings.settings.value?.mediaCDN;
  const { upload } = state;

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    state.choose(event.dataTransfer?.files);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    state.save();
  }

  return (
    <div className={['fs-root', styles.root, className].filter(Boolean).join(' ')} lang={i18n.resolvedLanguage ?? i18n.language}>
      <form className={styles.form} onSubmit={onSubmit} aria-labelledby={titleId} aria-describedby={state.message ? messageId : undefined} aria-busy={state.saving}>
        <Heading id={titleId} className={styles.title}>
          {state.editing ? t('posts.editor.titleEdit') : t('posts.editor.titleNew')}
        </Heading>

        <label htmlFor={textId} className={styles.label}>
          {t('posts.editor.text')}
        </label>
        <textarea id={textId} className={styles.textarea} rows={4} maxLength={5000} value={state.text} placeholder={t('posts.editor.textPlaceholder')} onChange={(event) => state.setText(event.target.value)} />

        {state.editing ? (
          state.post && state.post.media.length > 0 ? (
            <div className={styles.media}>
              <div className={styles.thumbs}>
                {state.post.media.map((m) =>
                  cdn ? <img key={m.mediaId} className={styles.thumb} src={mediaUrl(cdn, m, { variant: m.mediaPrice > 0 && !m.mediaUnlockHash ? 'blur' : 320, ...(m.mediaUnlockHash ? { key: m.mediaUnlockHash } : {}) })} alt="" /> : null,
                )}
              </div>
              <p className={styles.hint}>{t('posts.editor.mediaLocked')}</p>
            </div>
          ) : null
        ) : (
          <div
            className={styles.drop}
            data-dragging={dragging || undefined}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            {upload.preview && upload.status !== 'rejected' ? (
              <div className={styles.preview}>
                {upload.kind === 'video' ? <video src={upload.preview} muted playsInline className={styles.previewMedia} /> : <img src={upload.preview} alt="" className={styles.previewMedia} />}
                <button type="button" className={styles.remove} onClick={state.removeMedia}>
                  {t('posts.editor.remove')}
                </button>
              </div>
            ) : (
              <>
                <button type="button" className={styles.choose} onClick={() => fileInput.current?.click()}>
                  {t('posts.editor.choose')}
                </button>
                <span className={styles.hint}>{t('posts.editor.drop')}</span>
              </>
            )}
            <input
              ref={fileInput}
              className={styles.visuallyHidden}
              type="file"
              accept={MEDIA_ACCEPT}
              tabIndex={-1}
              aria-label={t('posts.editor.media')}
              onChange={(event) => {
                state.choose(event.target.files);
                event.target.value = '';
              }}
            />
            {upload.status === 'uploading' || upload.status === 'checking' ? (
              <div className={styles.progressRow}>
                <progress className={styles.progress} max={100} value={upload.progress} aria-label={t('upload.progress')} />
                <span role="status">{t('upload.uploading', { percent: upload.progress })}</span>
              </div>
            ) : upload.status === 'processing' ? (
              // Every byte is up: the bar stays full while the server prepares the file.
              <div className={styles.progressRow}>
                <progress className={styles.progress} max={100} value={100} aria-label={t('upload.progress')} />
                <span role="status">{t('upload.processing')}</span>
              </div>
            ) : upload.status === 'done' ? (
              <p role="status" className={styles.hint}>
                {t('upload.ready')}
                {upload.unsupported ? ` ${t('upload.unsupported')}` : ''}
              </p>
            ) : null}
          </div>
        )}

        {/* A fan's posts are free: he is told so before he picks anything, not after he tried a price. */}
        {state.isSeller ? (
          state.hasMedia ? <PriceSelector kind="postMedia" value={state.price} onChange={state.setPrice} /> : null
        ) : (
          <p className={styles.hint} data-testid="post-editor-free">
            {t('posts.editor.freeForFans')}
          </p>
        )}

        {allowSchedule && !state.editing ? (
          <div className={styles.schedule}>
            <label className={styles.check}>
              <input type="checkbox" checked={state.scheduled} onChange={(event) => state.setScheduled(event.target.checked)} />
              {t('posts.editor.schedule')}
            </label>
            {state.scheduled ? (
              <>
                <label htmlFor={dateId} className={styles.label}>
                  {t('posts.editor.scheduleAt')}
                </label>
                <input
                  id={dateId}
                  className={styles.date}
                  type="datetime-local"
                  value={state.startAt}
                  aria-invalid={state.scheduleInvalid}
                  onChange={(event) => state.setStartAt(event.target.value)}
                />
                {state.scheduleInvalid ? <p className={styles.error}>{t('posts.editor.scheduleInPast')}</p> : null}
              </>
            ) : null}
          </div>
        ) : null}

        {state.message ? (
          <p id={messageId} className={styles[state.message.kind]} role={state.message.kind === 'error' ? 'alert' : 'status'}>
            {state.message.text}
          </p>
        ) : null}

        <div className={styles.buttons}>
          {onCancel ? (
            <button type="button" className={styles.secondary} onClick={onCancel}>
              {t('posts.cancel')}
            </button>
          ) : null}
          <button type="submit" className={styles.primary} disabled={!state.canSave || state.saving}>
            {state.saving ? t('posts.editor.saving') : state.editing ? t('posts.editor.save') : state.scheduled ? t('posts.editor.schedulePublish') : t('posts.editor.publish')}
          </button>
        </div>
      </form>

      {upload.status === 'rejected' && upload.problem ? (
        <UploadError
          problem={upload.problem}
          onChooseOther={() => {
            state.dismissProblem();
            fileInput.current?.click();
          }}
          onCancel={state.dismissProblem}
        />
      ) : null}
    </div>
  );
}
