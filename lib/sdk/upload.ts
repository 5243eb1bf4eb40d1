import { batch, signal, type ReadonlySignal } from '@preact/signals-core';
import type { Envelope, MediaPurpose, MediaView, UploadedBinary, UploadProblem } from '../contract';
import { API_VERSION, type FanstageClient } from './client';
import { mediaApi } from './api';
import { SdkError } from './errors';
import { SUPPORT_LEVEL } from './rules/constants';
import { asSdkError } from './stores/shared/errors';
import type { SessionStore } from './stores/session';

/** SPEC §9: pictures need at least this many pixels on their shorter side. */
export const MIN_MEDIA_SIDE = 400;
/** SPEC §5: videos over 35 minutes are refused. */
export const MAX_VIDEO_SECONDS = 2100;
export { SUPPORT_LEVEL } from './rules/constants';
export { MEDIA_ACCEPT, VOICE_ACCEPT } from './mediaAccept';

/** `voice` only where voice notes are asked for (a chat's voice note), never for posts. */
export type MediaKind = 'image' | 'video' | 'voice';

/**
 * The refusals the upload popup explains (SPEC §8), as in the contract's `UploadProblems`;
 * repeated here because importing a value from the contract would pull its schema library
 * into every widget bundle.
 */
const UPLOAD_PROBLEMS: readonly string[] = ['wrong_media_type', 'format', 'tooLong', 'lowRes'] satisfies readonly UploadProblem[];

/** What measuring a file found; `unplayable` is a video this browser cannot decode. */
export type Measured =
  | { kind: 'image'; width: number; height: number }
  | { kind: 'video'; duration: number; width?: number; height?: number }
  | { kind: 'voice'; duration: number }
  | { kind: 'unplayable' };

/** Reads a file's size or length; rejects when the file cannot be read at all. */
export type Measure = (file: Blob, kind: MediaKind) => Promise<Measured>;

export interface FileLike {
  readonly type: string;
  readonly name?: string;
}

/**
 * Image or video, from the type the browser reports; HEIC pictures and some videos come
 * with no type at all, so the name's extension decides for them. With `voice`, an audio file
 * is a voice note. Null for anything else.
 */
export function mediaKindOf(file: FileLike, options: { voice?: boolean } = {}): MediaKind | null {
  const type = file.type.toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return options.voice ? 'voice' : null;
  if (type && type !== 'application/octet-stream') return null;
  const extension = /\.([a-z0-9]+)$/i.exec(file.name ?? '')?.[1]?.toLowerCase();
  if (extension === 'heic' || extension === 'heif') return 'image';
  if (extension === 'mp4' || extension === 'm4v' || extension === 'mov') return 'video';
  if (options.voice && (extension === 'm4a' || extension === 'mp3' || extension === 'ogg' || extension === 'oga')) return 'voice';
  return null;
}

export interface CheckOptions {
  /** The uploader's level: support (100) may post small pictures. */
  level?: number;
  /** Phones skip the resolution rule (SPEC §5): their cameras' pictures are what they are. */
  mobile?: boolean;
  /** Audio files are taken as voice notes (a chat's voice note); otherwise they are the wrong type. */
  voice?: boolean;
}

/** The SPEC §5 rules on a measured file; null when it may be uploaded. */
export function checkMeasured(measured: Measured, options: CheckOptions = {}): UploadProblem | null {
  switch (measured.kind) {
    case 'image':
      if (options.level === SUPPORT_LEVEL || options.mobile) return null;
      return Math.min(measured.width, measured.height) < MIN_MEDIA_SIDE ? 'lowRes' : null;
    case 'video':
    case 'voice':
      return measured.duration > MAX_VIDEO_SECONDS ? 'tooLong' : null;
    case 'unplayable':
      // SPEC §4: accepted with the unsupported flag, the server measures it instead.
      return null;
  }
}

export interface CheckedFile {
  file: Blob & FileLike;
  kind: MediaKind;
  /** The browser could not play the video: size checks were skipped. */
  unsupported: boolean;
}

export type CheckResult = { ok: true; checked: CheckedFile } | { ok: false; problem: UploadProblem };

/**
 * Checks the first of the chosen files (SPEC §5: only the first is used) before anything is
 * sent: type, then size or length through `measure`. A file `measure` cannot read is a
 * format error.
 */
export async function checkFile(files: ArrayLike<Blob & FileLike> | readonly (Blob & FileLike)[], measure: Measure, options: CheckOptions = {}): Promise<CheckResult | null> {
  const file = files[0];
  if (!file) return null;
  const kind = mediaKindOf(file, { voice: options.voice === true });
  if (!kind) return { ok: false, problem: 'wrong_media_type' };
  let measured: Measured;
  try {
    measured = await measure(file, kind);
  } catch {
    return { ok: false, problem: 'format' };
  }
  const problem = checkMeasured(measured, options);
  if (problem) return { ok: false, problem };
  return { ok: true, checked: { file, kind, unsupported: measured.kind === 'unplayable' } };
}

/** Measures in a browser: an image element for pictures, a video element for videos. */
export const browserMeasure: Measure = (file, kind) =>
  new Promise<Measured>((resolve, reject) => {
    if (typeof document === 'undefined' || typeof URL === 'undefined' || !URL.createObjectURL) {
      reject(new Error('no-browser'));
      return;
    }
    const url = URL.createObjectURL(file);
    const done = (result: Measured | Error) => {
      URL.revokeObjectURL(url);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    if (kind === 'image') {
      const image = new Image();
      image.onload = () => done({ kind: 'image', width: image.naturalWidth, height: image.naturalHeight });
      image.onerror = () => done(new Error('format'));
      image.src = url;
      return;
    }
    if (kind === 'voice') {
      const audio = document.createElement('audio');
      audio.preload = 'metadata';
      audio.onloadedmetadata = () => done({ kind: 'voice', duration: audio.duration });
      // A recording this browser cannot decode may still be fine elsewhere: the server decides.
      audio.onerror = () => done({ kind: 'unplayable' });
      audio.src = url;
      return;
    }
    const video = document.createElement('video');
    video.preload = 'metadata';
    video.muted = true;
    video.onloadedmetadata = () => done({ kind: 'video', duration: video.duration, width: video.videoWidth, height: video.videoHeight });
    // A video the browser cannot decode may still be fine (HEVC on some desktops): the server decides.
    video.onerror = () => done({ kind: 'unplayable' });
    video.src = url;
  });

export type UploadStatus = 'idle' | 'checking' | 'uploading' | 'processing' | 'done' | 'rejected' | 'verify-email' | 'error';

/** Sends the file's bytes, reporting percent done; the default uses XMLHttpRequest. */
export type SendBinary = (file: Blob, fileName: string, onProgress: (percent: number) => void, signal: AbortSignal) => Promise<UploadedBinary>;

export interface UploadOptions extends CheckOptions {
  /** Cents, a price step of the purpose (SPEC §9); 0 by default. */
  price?: number;
  purpose?: MediaPurpose;
  measure?: Measure;
  sendBinary?: SendBinary;
}

export interface Upload {
  readonly status: ReadonlySignal<UploadStatus>;
  /** 0–100 while the bytes travel. */
  readonly progress: ReadonlySignal<number>;
  /** Why the file was refused, by the checks or by the server (SPEC §8 popup causes). */
  readonly problem: ReadonlySignal<UploadProblem | null>;
  readonly error: ReadonlySignal<SdkError | null>;
  readonly media: ReadonlySignal<readonly MediaView[]>;
  /** The file being uploaded, for a preview. */
  readonly file: ReadonlySignal<(Blob & FileLike) | null>;
  readonly unsupported: ReadonlySignal<boolean>;
  /** Runs the whole flow of SPEC §4 on the chosen files; resolves with the final status. */
  start(files: ArrayLike<Blob & FileLike> | readonly (Blob & FileLike)[], options?: UploadOptions): Promise<UploadStatus>;
  cancel(): void;
  reset(): void;
}

/** What the binary endpoint answered, and the id of the request in the server's logs. */
interface Answer {
  httpStatus: number;
  envelope: Envelope<UploadedBinary> | null;
  requestId: string | null;
}

/**
 * The upload flow of SPEC §4 as signals, one object per flow (a post editor, a chat box):
 * cleared state → e-mail check → file checks → bytes with progress → media.
 */
export function createUploadStore(client: FanstageClient, session: SessionStore) {
  const media = mediaApi(client);

  /** XMLHttpRequest, because fetch reports no upload progress; headers and credentials as the client's. */
  const xhrSend: SendBinary = (file, fileName, onProgress, abort) => {
    const attempt = (token: string | null) =>
      new Promise<Answer>((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', client.url('/api/media/binary'));
        xhr.withCredentials = true;
        xhr.responseType = 'text';
        xhr.setRequestHeader('Apiversion', API_VERSION);
        xhr.setRequestHeader('Language', client.language.peek());
        if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
        xhr.upload.onprogress = (event) => {
          if (event.lengthComputable && event.total > 0) onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
        };
        xhr.onload = () => {
          let envelope: Envelope<UploadedBinary> | null;
          try {
            envelope = JSON.parse(xhr.responseText) as Envelope<UploadedBinary>;
          } catch {
            envelope = null;
          }
          resolve({ httpStatus: xhr.status, envelope, requestId: xhr.getResponseHeader('X-Request-Id') });
        };
        xhr.onerror = () => reject(new SdkError({ code: 'network', statusCode: 0, retryable: true }));
        xhr.onabort = () => reject(new SdkError({ code: 'aborted', statusCode: 0 }));
        abort.addEventListener('abort', () => xhr.abort(), { once: true });
        const form = new FormData();
        form.append('file', file, fileName);
        xhr.send(form);
      });
    const unwrap = ({ httpStatus, envelope, requestId }: Answer): UploadedBinary => {
      if (!envelope || typeof envelope.statusCode !== 'number') throw new SdkError({ code: 'server_not_responding', statusCode: 0, httpStatus, retryable: httpStatus >= 500, requestId });
      if (envelope.statusCode > 0 && envelope.body) return envelope.body;
      throw SdkError.fromEnvelope(envelope, httpStatus, requestId);
    };
    return attempt(session.accessToken.peek()).then(async (first) => {
      // Same rule as the client: one refresh and one more try after a 401.
      if (first.httpStatus === 401 && (await session.refresh())) return unwrap(await attempt(session.accessToken.peek()));
      return unwrap(first);
    });
  };

  const fetchSend: SendBinary = async (file, fileName, onProgress, abort) => {
    const result = await media.binary(file, fileName, abort);
    onProgress(100);
    return result;
  };

  function create(): Upload {
    const status = signal<UploadStatus>('idle');
    const progress = signal(0);
    const problem = signal<UploadProblem | null>(null);
    const error = signal<SdkError | null>(null);
    const created = signal<readonly MediaView[]>([]);
    const file = signal<(Blob & FileLike) | null>(null);
    const unsupported = signal(false);
    let controller: AbortController | null = null;
    let run = 0;

    function reset(): void {
      controller?.abort();
      controller = null;
      run += 1;
      batch(() => {
        status.value = 'idle';
        progress.value = 0;
        problem.value = null;
        error.value = null;
        created.value = [];
        file.value = null;
        unsupported.value = false;
      });
    }

    function fail(reason: unknown): UploadStatus {
      const sdkError = asSdkError(reason);
      if (sdkError.code === 'aborted') return status.peek();
      if (UPLOAD_PROBLEMS.includes(sdkError.code)) {
        batch(() => {
          problem.value = sdkError.code as UploadProblem;
          status.value = 'rejected';
        });
        return 'rejected';
      }
      if (sdkError.code === 'email-not-verified') {
        status.value = 'verify-email';
        return 'verify-email';
      }
      batch(() => {
        error.value = sdkError;
        status.value = 'error';
      });
      return 'error';
    }

    async function start(files: ArrayLike<Blob & FileLike> | readonly (Blob & FileLike)[], options: UploadOptions = {}): Promise<UploadStatus> {
      reset();
      const mine = run;
      const account = session.account.peek();
      if (!session.isLoggedIn.peek()) return fail(new SdkError({ code: 'unauthorized', statusCode: -1, httpStatus: 401 }));
      // SPEC §4: an unverified e-mail stops the flow before the file is even looked at.
      if (account && !account.emailVerified) {
        status.value = 'verify-email';
        return 'verify-email';
      }
      status.value = 'checking';
      const level = options.level ?? account?.level;
      const result = await checkFile(files, options.measure ?? browserMeasure, {
        ...(level !== undefined ? { level } : {}),
        ...(options.mobile ? { mobile: true } : {}),
        ...(options.voice ? { voice: true } : {}),
      });
      if (mine !== run) return status.peek();
      if (!result) {
        status.value = 'idle';
        return 'idle';
      }
      if (!result.ok) {
        batch(() => {
          problem.value = result.problem;
          status.value = 'rejected';
        });
        return 'rejected';
      }
      batch(() => {
        file.value = result.checked.file;
        unsupported.value = result.checked.unsupported;
        status.value = 'uploading';
      });
      controller = new AbortController();
      const send = options.sendBinary ?? (typeof XMLHttpRequest === 'undefined' ? fetchSend : xhrSend);
      try {
        const { fileName } = await send(result.checked.file, result.checked.file.name || result.checked.kind, (percent) => {
          if (mine === run) progress.value = percent;
        }, controller.signal);
        if (mine !== run) return status.peek();
        batch(() => {
          progress.value = 100;
          status.value = 'processing';
        });
        const list = await media.create({
          fileNames: [fileName],
          price: options.price ?? 0,
          purpose: options.purpose ?? 'post',
          mediaType: result.checked.kind,
          ...(result.checked.unsupported ? { unsupported: true } : {}),
        });
        if (mine !== run) return status.peek();
        const refused = list.find((m) => m.rejectReason);
        if (refused?.rejectReason && !list.some((m) => !m.rejectReason)) {
          batch(() => {
            created.value = list;
            problem.value = refused.rejectReason ?? 'format';
            status.value = 'rejected';
          });
          return 'rejected';
        }
        batch(() => {
          created.value = list.filter((m) => !m.rejectReason);
          status.value = 'done';
        });
        return 'done';
      } catch (reason) {
        if (mine !== run) return status.peek();
        return fail(reason);
      }
    }

    return {
      status,
      progress,
      problem,
      error,
      media: created,
      file,
      unsupported,
      start,
      cancel: reset,
      reset,
    };
  }

  return { create };
}

export type UploadStore = ReturnType<typeof createUploadStore>;
