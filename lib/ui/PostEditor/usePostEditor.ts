import { useEffect, useMemo, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { isSdkError, mediaApi, type CreatedPost, type FileLike, type Measure, type Post, type SendBinary } from '../../sdk';
import { useFanstage } from '../FanstageProvider/context';

export interface UsePostEditorOptions {
  /** Edits this post; a new post without it. */
  postId?: number;
  /** Files chosen before the editor opened (the add-post button, a drop on the timeline). */
  initialFiles?: readonly (Blob & FileLike)[];
  onDone?: (post: Post | CreatedPost) => void;
  onVerifyEmail?: () => void;
  /** Measures pictures and videos before upload; the browser's by default. */
  measure?: Measure;
  /** Sends the bytes; XMLHttpRequest with progress by default. */
  sendBinary?: SendBinary;
  /** A phone app: the resolution rule does not apply (SPEC §5). */
  mobile?: boolean;
}

export type EditorMessage = { kind: 'success' | 'warning' | 'error'; text: string } | null;

/** A local date-time input's value for a moment, in the viewer's time zone. */
export function toLocalInput(ms: number): string {
  const date = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return date.toISOString().slice(0, 16);
}

/** The new-post and edit-post form (SPEC §2 /new-post, /update-post): upload, price, schedule, save. */
export function usePostEditor(options: UsePostEditorOptions) {
  useSignals();
  const fanstage = useFanstage();
  const { t } = useTranslation();
  const { postId } = options;
  const upload = useMemo(() => fanstage.uploads.create(), [fanstage]);
  const media = useMemo(() => mediaApi(fanstage.client), [fanstage]);
  const existing = useMemo(() => (postId !== undefined ? fanstage.posts.get(postId) : null), [fanstage, postId]);
  const post = existing?.post.value ?? null;
  const account = fanstage.session.account.value;
  const loggedIn = fanstage.session.isLoggedIn.value;

  const [text, setText] = useState('');
  const [price, setPrice] = useState(0);
  const [scheduled, setScheduled] = useState(false);
  const [startAt, setStartAt] = useState(() => toLocalInput(Date.now() + 60 * 60_000));
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<EditorMessage>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const loadedFor = useRef<number | null>(null);

  useEffect(() => {
    if (fanstage.session.isLoggedIn.peek() && !fanstage.session.account.peek()) fanstage.session.loadAccount().catch(() => undefined);
  }, [fanstage]);

  // Edit mode starts from the post as it is.
  useEffect(() => {
    if (!post || loadedFor.current === post.id) return;
    loadedFor.current = post.id;
    setText(post.text);
    setPrice(post.media.find((m) => m.mediaIsOwner)?.mediaPrice ?? post.media[0]?.mediaPrice ?? 0);
  }, [post]);

  const status = upload.status.value;
  const file = upload.file.value;

  useEffect(() => {
    if (!file || typeof URL === 'undefined' || !URL.createObjectURL) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  useEffect(() => {
    if (status === 'verify-email') {
      setMessage({ kind: 'warning', text: t('upload.verifyEmail') });
      optionsRef.current.onVerifyEmail?.();
    } else if (status === 'error') {
      setMessage({ kind: 'error', text: t('upload.failed') });
    }
  }, [status, t]);

  function choose(files: ArrayLike<Blob & FileLike> | null | undefined) {
    if (!files || files.length === 0 || postId !== undefined) return;
    setMessage(null);
    void upload.start(files, {
      price: 0,
      purpose: 'post',
      ...(optionsRef.current.measure ? { measure: optionsRef.current.measure } : {}),
      ...(optionsRef.current.sendBinary ? { sendBinary: optionsRef.current.sendBinary } : {}),
      ...(optionsRef.current.mobile ? { mobile: true } : {}),
    });
  }

  useEffect(() => {
    if (options.initialFiles?.length) choose(options.initialFiles);
    // Only the files the editor opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const editing = postId !== undefined;
  const uploadedIds = upload.media.value.map((m) => m.mediaId);
  const busyUploading = status === 'checking' || status === 'uploading' || status === 'processing';
  const originalPrice = post?.media.find((m) => m.mediaIsOwner)?.mediaPrice ?? post?.media[0]?.mediaPrice ?? 0;
  const textChanged = editing && post !== null && text !== post.text;
  const priceChanged = editing && post !== null && post.media.length > 0 && price !== originalPrice;
  const hasMedia = editing ? (post?.media.length ?? 0) > 0 : uploadedIds.length > 0;
  const startDate = scheduled ? new Date(startAt).getTime() : null;
  const scheduleInvalid = scheduled && (startDate === null || !Number.isFinite(startDate) || startDate <= Date.now());
  const canSave = editing ? textChanged || priceChanged : !busyUploading && (text.trim().length > 0 || uploadedIds.length > 0) && !scheduleInvalid;

  async function save() {
    if (!canSave || saving) return;
    setSaving(true);
    setMessage(null);
    try {
      if (editing && post) {
        if (priceChanged) {
          for (const m of post.media.filter((item) => item.mediaIsOwner || post.isMy)) await media.update(m.mediaId, { price });
        }
        const updated = textChanged ? await fanstage.posts.update(post.id, text) : post;
        if (priceChanged) await fanstage.posts.load(post.id);
        setMessage({ kind: 'success', text: t('posts.editor.updated') });
        optionsRef.current.onDone?.(fanstage.posts.peek(post.id) ?? updated);
        return;
      }
      const created = await fanstage.posts.create({
        text: text.trim(),
        ...(uploadedIds.length ? { mediaIds: uploadedIds, price } : {}),
        ...(startDate !== null ? { startDate } : {}),
      });
      // SPEC §8 new_post_success_not_seller: the post went out without its price.
      if (created.notASeller) setMessage({ kind: 'warning', text: t('errors.new_post_success_not_seller') });
      else setMessage({ kind: 'success', text: t(startDate !== null ? 'posts.editor.scheduled' : 'posts.editor.created') });
      setText('');
      setPrice(0);
      setScheduled(false);
      upload.reset();
      optionsRef.current.onDone?.(created);
    } catch (error) {
      if (isSdkError(error) && (error.code === 'email-not-verified' || error.code === 'verify-email')) optionsRef.current.onVerifyEmail?.();
      const generic = t('posts.actionFailed');
      setMessage({ kind: 'error', text: isSdkError(error) ? t(`errors.${error.code}`, { defaultValue: generic }) : generic });
    } finally {
      setSaving(false);
    }
  }

  return {
    editing,
    loggedIn,
    post,
    postStatus: existing?.status.value ?? null,
    text,
    setText,
    price,
    setPrice,
    canPrice: hasMedia && (account?.isSeller ?? false),
    isSeller: account?.isSeller ?? false,
    hasMedia,
    scheduled,
    setScheduled,
    startAt,
    setStartAt,
    scheduleInvalid,
    upload: {
      status,
      progress: upload.progress.value,
      problem: upload.problem.value,
      unsupported: upload.unsupported.value,
      kind: file ? (file.type.startsWith('video') ? 'video' : 'image') : null,
      preview,
    },
    choose,
    removeMedia: () => upload.reset(),
    dismissProblem: () => upload.reset(),
    canSave,
    saving,
    save: () => void save(),
    message,
  };
}

export type PostEditorState = ReturnType<typeof usePostEditor>;
