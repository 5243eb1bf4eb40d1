// Runs in every page of the calls benchmark before the page's own scripts (an init script, built
// by bench/calls.ts). It does two things, the same for our site and for the bare pair:
// - only loopback ICE candidates reach the other side, as in tests/e2e/calls.spec.ts (no STUN
//   servers, one machine): it wraps the browser's RTCPeerConnection, not the page's code;
// - it notes when the person last clicked, and when the remote video presented its first decoded
//   frame (requestVideoFrameCallback), both as wall-clock milliseconds so that two browsers'
//   notes compare;
// - for the breakdown of that time it notes, also by the wall clock, when the camera was granted,
//   each websocket frame sent and received (its message type), each RTCPeerConnection made, its
//   ICE connection state changes and remote tracks, and when the remote stream reached the video.

export interface BenchNotes {
  /** The last trusted click (the accept button, when the bench reads it). */
  clickAt: number | null;
  /** The first frame of the remote video handed to the compositor after decoding. */
  firstFrameAt: number | null;
  /** That frame's size, which proves it was decoded. */
  firstFrameWidth: number;
  /** How the frame was seen. */
  via: 'requestVideoFrameCallback' | 'unsupported';
  /**
   * `[what, when]`: `camera`, `ws> type`, `ws< type`, `peer`, `ice:<state>`, `track`,
   * `remote video attached` (the first 400).
   */
  events: [string, number][];
}

declare global {
  interface Window {
    __benchCalls?: BenchNotes;
  }
}

/** Milliseconds since the epoch of a DOMHighResTimeStamp of this page. */
const wall = (stamp: number) => performance.timeOrigin + stamp;

const notes: BenchNotes = { clickAt: null, firstFrameAt: null, firstFrameWidth: 0, via: 'requestVideoFrameCallback', events: [] };
window.__benchCalls = notes;

function note(what: string): void {
  if (notes.events.length < 400) notes.events.push([what, wall(performance.now())]);
}

/** A frame's message type: our `callMessage`'s own type, or the frame's `type`. */
function typeOf(data: unknown): string {
  if (typeof data !== 'string') return 'binary';
  const type = /"callMessageType":"(\w+)"/.exec(data)?.[1] ?? /"type":"(\w+)"/.exec(data)?.[1] ?? 'text';
  // The bare pair sends every signal as `signal`: say which (an offer, an answer, a candidate).
  return type === 'signal' ? `signal ${/"type":"(offer|answer)"/.exec(data)?.[1] ?? (data.includes('"candidate"') ? 'candidate' : 'other')}` : type;
}

function timeline(): void {
  const media = navigator.mediaDevices;
  if (media?.getUserMedia) {
    const getUserMedia = media.getUserMedia.bind(media);
    media.getUserMedia = (constraints) =>
      getUserMedia(constraints).then((stream) => {
        note('camera');
        return stream;
      });
  }
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (this: WebSocket, data) {
    note(`ws> ${typeOf(data)}`);
    send.call(this, data);
  };
  const NativeSocket = window.WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (event) => note(`ws< ${typeOf(event.data)}`));
    }
  };
  // When the page hands the remote stream to its video element.
  const srcObject = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'srcObject');
  if (srcObject?.set && srcObject.get) {
    const { get, set } = srcObject;
    Object.defineProperty(HTMLMediaElement.prototype, 'srcObject', {
      configurable: true,
      enumerable: srcObject.enumerable ?? true,
      get(this: HTMLMediaElement) {
        return get.call(this) as unknown;
      },
      set(this: HTMLMediaElement, value: MediaProvider | null) {
        if (value !== null && this.matches(remoteVideo)) note('remote video attached');
        set.call(this, value);
      },
    });
  }
  const NativePeer = window.RTCPeerConnection;
  if (NativePeer) {
    window.RTCPeerConnection = class extends NativePeer {
      constructor(configuration?: RTCConfiguration) {
        super(configuration);
        note('peer');
        this.addEventListener('iceconnectionstatechange', () => note(`ice:${this.iceConnectionState}`));
        this.addEventListener('track', () => note('track'));
      }
    };
  }
}

function loopbackOnly(): void {
  const proto = window.RTCPeerConnection?.prototype;
  if (!proto) return;
  const native = Object.getOwnPropertyDescriptor(proto, 'onicecandidate');
  if (!native?.get || !native.set) return;
  const { get, set } = native;
  Object.defineProperty(proto, 'onicecandidate', {
    configurable: true,
    enumerable: native.enumerable ?? true,
    get(this: RTCPeerConnection) {
      return get.call(this) as unknown;
    },
    set(this: RTCPeerConnection, handler: ((event: RTCPeerConnectionIceEvent) => unknown) | null) {
      set.call(
        this,
        handler
          ? (event: RTCPeerConnectionIceEvent) => {
              if (event.candidate && !/ 127\.0\.0\.1 /.test(event.candidate.candidate)) return;
              handler(event);
            }
          : null,
      );
    },
  });
}

/** The remote video of our call window, or of the bare page. */
const remoteVideo = 'video[data-testid="call-remote-video"], video[data-bench-remote]';
const watched = new WeakSet<HTMLVideoElement>();

function watch(video: HTMLVideoElement): void {
  if (watched.has(video)) return;
  watched.add(video);
  if (typeof video.requestVideoFrameCallback !== 'function') {
    notes.via = 'unsupported';
    return;
  }
  const onFrame = (_now: number, frame: VideoFrameCallbackMetadata) => {
    if (notes.firstFrameAt === null && frame.width > 0) {
      notes.firstFrameAt = wall(frame.presentationTime);
      notes.firstFrameWidth = frame.width;
      return;
    }
    if (notes.firstFrameAt === null) video.requestVideoFrameCallback(onFrame);
  };
  video.requestVideoFrameCallback(onFrame);
}

function scan(): void {
  for (const video of document.querySelectorAll<HTMLVideoElement>(remoteVideo)) watch(video);
}

loopbackOnly();
timeline();
window.addEventListener(
  'click',
  (event) => {
    if (event.isTrusted) notes.clickAt = wall(event.timeStamp);
  },
  { capture: true },
);
new MutationObserver(scan).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-testid', 'data-bench-remote'] });
