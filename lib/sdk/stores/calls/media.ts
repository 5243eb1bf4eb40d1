/**
 * The camera and microphone of a call, and the other side's stream: asked for once per call,
 * switched on and off, swapped for another device, stopped when the call is torn down.
 *
 * Camera and microphone failures: `NotAllowedError` → `camera-denied`, `NotFoundError` →
 * `no-device`, a device in use → `device-busy`, no `mediaDevices` (a page that is not a secure
 * context, an iframe without `allow="camera; microphone"`) → `media-unsupported`.
 */
import { batch, signal, type ReadonlySignal, type Signal } from '@preact/signals-core';
import type { CallDevice, CallMediaDevices, CallProblem, CallStoreOptions } from './types';

/** The problem a `getUserMedia` failure means (SPEC: camera and microphone refusals each get a message). */
export function mediaProblemOf(error: unknown): CallProblem {
  const name = (error as { name?: unknown } | null)?.name;
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'camera-denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'no-device';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'device-busy';
    default:
      return 'media-unsupported';
  }
}

export const defaultConstraints: MediaStreamConstraints = { audio: true, video: { width: { ideal: 1280 }, height: { ideal: 720 } } };

export function createCallMedia(options: CallStoreOptions, problem: Signal<CallProblem | null>) {
  const constraints = options.constraints ?? defaultConstraints;
  const localStream = signal<MediaStream | null>(null);
  const remoteStream = signal<MediaStream | null>(null);
  const microphoneOn = signal(true);
  const cameraOn = signal(true);
  const peerMedia = signal<{ audio: boolean; video: boolean }>({ audio: true, video: true });
  const devices = signal<readonly CallDevice[]>([]);
  /** The camera and microphone as the peer got them; `localStream` shows them (a new object when a track changes). */
  let own: MediaStream | null = null;

  function mediaDevices(): CallMediaDevices | null {
    if (options.mediaDevices !== undefined) return options.mediaDevices;
    return globalThis.navigator?.mediaDevices ?? null;
  }

  /** WebRTC and a camera API are there (a page that is not a secure context has no `mediaDevices`). */
  function supported(): boolean {
    const media = mediaDevices();
    const rtc = options.Peer !== undefined || typeof globalThis.RTCPeerConnection === 'function';
    return rtc && !!media && typeof media.getUserMedia === 'function';
  }

  /** Camera and microphone, while `stillWanted()`; on failure the problem is set and null returned. */
  async function acquire(stillWanted: () => boolean): Promise<MediaStream | null> {
    if (own) return own;
    const media = mediaDevices();
    if (!media || typeof media.getUserMedia !== 'function') {
      problem.value = 'media-unsupported';
      return null;
    }
    try {
      const stream = await media.getUserMedia(constraints);
      if (!stillWanted()) {
        // The call ended while the person was asked: the camera goes off again.
        for (const track of stream.getTracks()) track.stop();
        return null;
      }
      own = stream;
      batch(() => {
        localStream.value = stream;
        microphoneOn.value = stream.getAudioTracks().some((t) => t.enabled);
        cameraOn.value = stream.getVideoTracks().some((t) => t.enabled);
        if (problem.peek() !== null && problem.peek() !== 'offline') problem.value = null;
      });
      void refreshDevices();
      return stream;
    } catch (cause) {
      problem.value = mediaProblemOf(cause);
      return null;
    }
  }

  async function refreshDevices(): Promise<void> {
    const media = mediaDevices();
    if (!media?.enumerateDevices) return;
    try {
      const list = await media.enumerateDevices();
      devices.value = list
        .filter((d): d is MediaDeviceInfo & { kind: 'audioinput' | 'videoinput' } => d.kind === 'audioinput' || d.kind === 'videoinput')
        .map((d, index) => ({ kind: d.kind, deviceId: d.deviceId, label: d.label || `${d.kind === 'videoinput' ? 'Camera' : 'Microphone'} ${index + 1}` }));
    } catch {
      // Not worth a message: the call goes on with the devices it has.
    }
  }

  /** Both sides' media off and forgotten (the call is torn down). */
  function stop(): void {
    const stream = own;
    own = null;
    if (stream) for (const track of stream.getTracks()) track.stop();
    batch(() => {
      localStream.value = null;
      remoteStream.value = null;
      microphoneOn.value = true;
      cameraOn.value = true;
      peerMedia.value = { audio: true, video: true };
    });
  }

  /** Mutes the microphone or turns the camera off (or on again). */
  function setTrack(kind: 'audio' | 'video', on: boolean): void {
    const stream = own;
    if (stream) for (const track of kind === 'audio' ? stream.getAudioTracks() : stream.getVideoTracks()) track.enabled = on;
    batch(() => {
      if (kind === 'audio') microphoneOn.value = on;
      else cameraOn.value = on;
    });
  }

  /** Switches to another camera or microphone; `replaceTrack` hands the new track to the peer. */
  async function useDevice(kind: 'audioinput' | 'videoinput', deviceId: string, replaceTrack: (old: MediaStreamTrack, next: MediaStreamTrack, stream: MediaStream) => void): Promise<boolean> {
    const stream = own;
    const media = mediaDevices();
    if (!stream || !media) return false;
    const trackKind = kind === 'audioinput' ? 'audio' : 'video';
    const base = constraints[trackKind];
    try {
      const fresh = await media.getUserMedia({ [trackKind]: { ...(typeof base === 'object' ? base : {}), deviceId: { exact: deviceId } } });
      const next = trackKind === 'audio' ? fresh.getAudioTracks()[0] : fresh.getVideoTracks()[0];
      if (!next || own !== stream) {
        for (const t of fresh.getTracks()) t.stop();
        return false;
      }
      const old = trackKind === 'audio' ? stream.getAudioTracks()[0] : stream.getVideoTracks()[0];
      next.enabled = trackKind === 'audio' ? microphoneOn.peek() : cameraOn.peek();
      if (old) {
        replaceTrack(old, next, stream);
        stream.removeTrack(old);
        old.stop();
      }
      stream.addTrack(next);
      // A new object, so what shows the stream sees the change.
      localStream.value = typeof MediaStream === 'function' ? new MediaStream(stream.getTracks()) : stream;
      return true;
    } catch (cause) {
      problem.value = mediaProblemOf(cause);
      return false;
    }
  }

  return {
    localStream: localStream as ReadonlySignal<MediaStream | null>,
    remoteStream,
    microphoneOn: microphoneOn as ReadonlySignal<boolean>,
    cameraOn: cameraOn as ReadonlySignal<boolean>,
    peerMedia,
    devices,
    /** The camera and microphone the peer sends, or null. */
    own: () => own,
    supported,
    acquire,
    stop,
    setTrack,
    useDevice,
  };
}

export type CallMedia = ReturnType<typeof createCallMedia>;
