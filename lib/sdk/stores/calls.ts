/**
 * Paid video calls (SPEC §2 /videocall/{id} and the incoming-call screen, §3 Call, §4 call
 * status, §7 `callMessage`, §9 ring timeout; docs/sdk.md "Calls"). A fan calls a creator; the
 * server rings, bills per minute begun and says when the call ends. This store is the client's
 * side: the state machine, the meter the server feeds, the camera and microphone, and WebRTC
 * through simple-peer, signalled over the websocket.
 *
 * API (stable):
 *
 *   const calls = fanstage.calls;             // createCallsStore(deps, options)
 *
 *   calls.current      ReadonlySignal<CallSession | null>  the call on this page (null: idle)
 *   calls.phase        ReadonlySignal<CallPhase>  'idle' | 'calling' (ringing the other side) |
 *                      'ringing' (someone rings the viewer) | 'connecting' (accepted, media being
 *                      set up) | 'live' | 'ended' (see `current.endReason` and `current.totals`)
 *   calls.incoming     ReadonlySignal<CallSession | null>  the call ringing the viewer, if any
 *   calls.meter        ReadonlySignal<CallMeter>  elapsed seconds, minutes begun, the fan's cost
 *                      so far, the creator's earnings, seconds the held money lasts, and whether
 *                      the server asks the fan for money (`askForMoney`)
 *   calls.problem      ReadonlySignal<CallProblem | null>  what to tell the person (camera refused,
 *                      no device, connection lost, offline ...): `calls.problem.<code>` in i18n
 *   calls.error        ReadonlySignal<string | null>  a refusal of the server, an `errors.*` key
 *   calls.localStream / remoteStream   ReadonlySignal<MediaStream | null>
 *   calls.microphoneOn / cameraOn      ReadonlySignal<boolean>  the viewer's own tracks
 *   calls.peerMedia    ReadonlySignal<{audio, video}>  the other side's (its `remoteStream` notices)
 *   calls.devices      ReadonlySignal<readonly CallDevice[]>  cameras and microphones, once allowed
 *   calls.lines        ReadonlySignal<readonly CallLine[]>  chat lines and gifts during the call
 *
 *   calls.supported()            whether this page can make calls (WebRTC and a camera API)
 *   calls.start(callee)          rings a creator (`CallCallee`: id, name, avatar, callPrice);
 *                                asks for the camera and microphone first → Promise<CallStartResult>
 *   calls.accept()               answers the ringing call (camera and microphone first)
 *   calls.decline()              refuses it
 *   calls.ring(callId)           rings here a call this page did not hear ring (a page opened
 *                                from a notification): 'ringing' once it does, else 'over',
 *                                'taken' (answered elsewhere), 'busy' (this page is in a call)
 *                                or 'not-found' → Promise<CallRingOutcome>
 *   calls.hangUp()               ends the call (cancels an outgoing ring)
 *   calls.dismiss()              forgets an ended call (back to idle)
 *   calls.setMicrophone(on) / setCamera(on)   mute and camera off (the other side is told)
 *   calls.useDevice(kind, deviceId)           switches camera or microphone during the call
 *   calls.say(text)              a chat line to the other side
 *   calls.sendGift(giftId)       a gift (a tip paid from the fan's credits), shown in the call
 *   calls.restartIce()           asks for new network paths (done by itself on a network change)
 *   calls.record(callId)         GET /api/calls/{id}: the server's record of a call
 *   calls.packages(userId)       GET /api/users/{id}/call-packages
 *   calls.reset()                hangs up and forgets everything (a logout does it)
 *
 * Rules:
 * - The server is the authority on the call and on money. The store never sends the billing
 *   messages; it only shows what the server says (`timeLeft`, `askForMoney`, `creditOK`,
 *   `callEarnings`) and ends when the server sends `callStop`. Between the server's messages the
 *   meter counts what a hang-up now would cost: every minute begun at the fan's price.
 * - WebRTC starts only with the server's `callStart` (the first minute is held by then): the
 *   caller is simple-peer's initiator, the callee answers. Signals travel as `rtcOffer`
 *   (descriptions) and `iceCandidate` (candidates) bodies `{signal}`. ICE servers come from
 *   `GET /api/calls/{id}/ice-servers` when a peer is made: the STUN servers and a TURN credential
 *   minted for this person and call, good for `ttl` seconds (the settings' `iceServers`, STUN
 *   only, when that request fails). An ICE restart with credentials older than half their ttl
 *   asks for new ones first. `candidateFilter` drops local candidates a deployment (or a test)
 *   does not want.
 * - A network change (`online`) or a connection that stays `disconnected` restarts ICE on the
 *   same peer; a peer that failed is replaced by a new one (the caller makes it; each signal
 *   carries its peer generation `gen`, so nothing of an old peer reaches a new one). Without media
 *   for `reconnectGraceMs` (30 s) the call is hung up with `disconnected`: nobody pays for a
 *   call that cannot be seen.
 * - A second call ringing while the viewer is in one is answered busy (57). A `callStart` for a
 *   call this page did not accept (another tab did) leaves this page idle; so does the server's
 *   `call-taken`, its refusal of an answer to a call another page or device answered first
 *   (`error` is then `call-taken`).
 * - Camera and microphone: `NotAllowedError` → `camera-denied`, `NotFoundError` → `no-device`,
 *   a device in use → `device-busy`, no `mediaDevices` (a page that is not a secure context, an
 *   iframe without `allow="camera; microphone"`) → `media-unsupported`.
 */
import { batch, computed, effect, signal, type ReadonlySignal } from '@preact/signals-core';
import type { Account, Call, CallEndReason, CallPackages, CallParty, CallStatusCode } from '../../contract';
import { CALL_RING_TIMEOUT_S, CallStatus, type CallMessageBodies } from '../../contract/calls';
import type { CallMessageType, ServerMessageOf } from '../../contract/realtime';
import type { FanstageClient } from '../client';
import { callsApi } from '../api-calls';
import type { FanstageSocket } from '../socket';
import { SdkError } from '../errors';
import { goesOn } from '../spendConfirm';
import type { SettingsStore } from './settings';
import { fanPriceCents } from '../rules/price';
// The button's rules live apart, so a profile shows its Call button without this store's code.
export { callBlocker, canUseWebRtc, takesCalls, type CallBlocker } from '../rules/calls';
import type { CallBlocker } from '../rules/calls';

export type CallPhase = 'idle' | 'calling' | 'ringing' | 'connecting' | 'live' | 'ended';
export type CallDirection = 'outgoing' | 'incoming';

/**
 * What to tell the person, translated as `calls.problem.<code>`: the camera or microphone was
 * refused, there is none, it is used by another program, the page cannot use them at all, the
 * connection to the other side is lost (being restored), the realtime connection is down, or
 * this browser has no WebRTC.
 */
export type CallProblem = 'camera-denied' | 'no-device' | 'device-busy' | 'media-unsupported' | 'connection-lost' | 'offline' | 'webrtc-unsupported';

export interface CallTotals {
  /** Minutes begun and billed. */
  minutes: number;
  /** Credits the fan paid. */
  cost: number;
  /** Cents the creator earned. */
  earnings: number;
}

export interface CallSession {
  readonly callId: string;
  readonly direction: CallDirection;
  /** The other person. */
  readonly peer: CallParty;
  /** Credits a minute the fan pays. */
  readonly agreedPrice: number;
  /** Cents a minute the creator earns. */
  readonly earningsPrice: number;
  readonly phase: CallPhase;
  /** When the call became live (this page's clock), or null. */
  readonly startedAt: number | null;
  readonly endReason: CallEndReason | null;
  /** SPEC §5 status code of the end, when the server gave one. */
  readonly status: CallStatusCode | null;
  /** The end's totals: the server's when it sent them, else what the meter counted. */
  readonly totals: CallTotals | null;
}

export interface CallMeter {
  /** Seconds since the call became live. */
  elapsedSeconds: number;
  /** Minutes begun. */
  minutes: number;
  /** The fan's credits for the minutes begun (what a hang-up now costs). */
  cost: number;
  /** The creator's cents for the minutes begun. */
  earnings: number;
  /** Seconds the money held for the call lasts (the fan's side), when the server said. */
  secondsLeft: number | null;
  /** The server could not hold the next minute: top up within `secondsLeft`. */
  lowCredit: boolean;
  /** Credits a minute. */
  pricePerMinute: number;
}

export interface CallDevice {
  kind: 'audioinput' | 'videoinput';
  deviceId: string;
  label: string;
}

export interface CallLine {
  /** Unique within the call. */
  id: number;
  mine: boolean;
  text: string | null;
  giftId: number | null;
  at: number;
}

/** Whom to call: a creator's profile has every field. */
export interface CallCallee {
  id: number;
  username: string;
  displayName?: string;
  /** An avatar address, when the page has one. */
  avatarUrl?: string | null;
  /** The creator's price, cents a minute. */
  callPrice: number;
}

/** What `ring(callId)` came to: the call rings here now, or why it does not. */
export type CallRingOutcome = 'ringing' | 'over' | 'taken' | 'busy' | 'not-found';

export type CallStartResult = { ok: true; callId: string } | { ok: false; problem: CallStartProblem };

/** Why a call cannot start (see `callBlocker`), or what stopped it before it rang. */
export type CallStartProblem = CallBlocker | CallProblem | 'in-call';


/** The part of simple-peer the store uses (its Peer is an event emitter with these). */
export interface CallPeer {
  signal(data: unknown): void;
  destroy(error?: Error): void;
  on(event: 'signal', listener: (data: unknown) => void): unknown;
  on(event: 'stream', listener: (stream: MediaStream) => void): unknown;
  on(event: 'connect' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error & { code?: string }) => void): unknown;
  on(event: 'iceStateChange', listener: (iceConnectionState: string, iceGatheringState: string) => void): unknown;
  negotiate?(): void;
  replaceTrack?(oldTrack: MediaStreamTrack, newTrack: MediaStreamTrack, stream: MediaStream): void;
  offerOptions?: RTCOfferOptions;
  readonly destroyed?: boolean;
  /** simple-peer's RTCPeerConnection: new TURN credentials are set on it before an ICE restart. */
  readonly _pc?: { setConfiguration?(configuration: RTCConfiguration): void; getConfiguration?(): RTCConfiguration };
}

export interface CallPeerOptions {
  initiator: boolean;
  stream?: MediaStream;
  trickle: boolean;
  config: RTCConfiguration;
  offerOptions?: RTCOfferOptions;
}

export type CallPeerConstructor = new (options: CallPeerOptions) => CallPeer;

/** What the store needs of the browser's `navigator.mediaDevices`. */
export interface CallMediaDevices {
  getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStream>;
  enumerateDevices?(): Promise<MediaDeviceInfo[]>;
}

export interface CallStoreOptions {
  /** The WebRTC peer class; default simple-peer, loaded when the first call starts. */
  Peer?: CallPeerConstructor;
  /** The camera and microphone; default `navigator.mediaDevices`. */
  mediaDevices?: CallMediaDevices | null;
  /**
   * ICE servers for every call; default those the server gives each call
   * (`GET /api/calls/{id}/ice-servers`, with TURN credentials of the viewer's own), or the
   * settings' `iceServers` when it cannot.
   */
  iceServers?: RTCIceServer[];
  /**
   * Which local ICE candidates to send (the candidate line, `candidate:… 127.0.0.1 …`); default
   * all. Tests keep their traffic on loopback with it.
   */
  candidateFilter?: (candidate: string) => boolean;
  /** What the camera and microphone are asked for; default camera ideal 1280×720 (SPEC §9) and a microphone. */
  constraints?: MediaStreamConstraints;
  /** How long an outgoing ring waits beyond the server's ring timeout before it gives up; default 15 s. */
  ringGraceMs?: number;
  /** How long a call may go without a connection to the other side before it is hung up; default 30 s. */
  reconnectGraceMs?: number;
  /** How long ICE may stay `disconnected` before it is restarted; default 3 s. */
  iceRestartAfterMs?: number;
  /** Where `online` comes from; default `window`. */
  networkEvents?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null;
  /** Clock, for tests. */
  now?: () => number;
}

/** What the calls store needs of the rest of the SDK. */
export interface CallsDeps {
  client: FanstageClient;
  socket: FanstageSocket;
  session: {
    readonly userId: ReadonlySignal<number | null>;
    readonly account: ReadonlySignal<Account | null>;
    readonly isLoggedIn: ReadonlySignal<boolean>;
    /** The account of a session restored a moment ago may still be on its way. */
    loadAccount?(): Promise<unknown>;
  };
  settings: SettingsStore;
  /** Pays a gift to a person (the wallet's tip). */
  tip?: (userId: number, giftId: number) => Promise<unknown>;
}

/** The calls' message types only the server sends; never sent by a client. */
const serverOnly: ReadonlySet<CallMessageType> = new Set<CallMessageType>(['creditOK', 'askForMoney', 'callEarnings', 'timeLeft', 'callStart']);

/** SPEC §5 status → why the call ended. */
const reasonOfStatus: Partial<Record<number, CallEndReason>> = {
  [CallStatus.noCredit]: 'noCredit',
  [CallStatus.couldNotBePaid]: 'couldNotBePaid',
  [CallStatus.declined]: 'declined',
  [CallStatus.notAnswering]: 'missed',
  [CallStatus.busy]: 'busy',
  [CallStatus.ended]: 'hangup',
};

/** Why the call ended → SPEC §5 status. */
const statusOfReason: Record<CallEndReason, CallStatusCode> = {
  hangup: CallStatus.ended,
  declined: CallStatus.declined,
  cancelled: CallStatus.ended,
  missed: CallStatus.notAnswering,
  busy: CallStatus.busy,
  noCredit: CallStatus.noCredit,
  couldNotBePaid: CallStatus.couldNotBePaid,
  disconnected: CallStatus.ended,
  failed: CallStatus.ended,
};

/** A call id: 22 random base64url characters (132 bits), as the server expects. */
export function newCallId(): string {
  const bytes = new Uint8Array(18);
  const c = globalThis.crypto;
  if (c && typeof c.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

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

/** simple-peer's browser build, loaded with the first call: pages without calls never pay for it. */
async function loadSimplePeer(): Promise<CallPeerConstructor> {
  const module = (await import('simple-peer/simplepeer.min.js')) as { default?: CallPeerConstructor } & CallPeerConstructor;
  return module.default ?? module;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The candidate line of a simple-peer signal, when it is a candidate. */
function candidateLine(data: Record<string, unknown>): string | null {
  const candidate = data.candidate;
  if (isObject(candidate) && typeof candidate.candidate === 'string') return candidate.candidate;
  return null;
}

/** The SDP without the `a=candidate` lines `keep` refuses. */
function withoutCandidates(sdp: string, keep: (candidate: string) => boolean): string {
  return sdp
    .split(/\r\n/)
    .filter((line) => !line.startsWith('a=candidate:') || keep(line.slice(2)))
    .join('\r\n');
}

interface Internal {
  callId: string;
  direction: CallDirection;
  peerId: number;
  /** The page answered (or placed) this call. */
  ownedHere: boolean;
  gen: number;
  peer: CallPeer | null;
  pendingSignals: Record<string, unknown>[];
  timers: Set<ReturnType<typeof setTimeout>>;
  lostSince: number | null;
  disconnectedTimer: ReturnType<typeof setTimeout> | null;
  lineSerial: number;
  /** The server's meter: minutes and cost (fan) or earnings (creator), and when timeLeft came. */
  serverMinutes: number;
  serverCost: number;
  serverEarnings: number;
  secondsLeft: number | null;
  secondsLeftAt: number;
  /** The ICE servers the server gave this call (TURN credentials minted for the viewer), when, and for how many seconds. */
  ice: { servers: RTCIceServer[]; at: number; ttl: number | null } | null;
}

export function createCallsStore(deps: CallsDeps, options: CallStoreOptions = {}) {
  const { socket, session, settings } = deps;
  const api = callsApi(deps.client);
  const now = options.now ?? (() => Date.now());
  const ringGraceMs = options.ringGraceMs ?? 15_000;
  const reconnectGraceMs = options.reconnectGraceMs ?? 30_000;
  const iceRestartAfterMs = options.iceRestartAfterMs ?? 3_000;
  const constraints: MediaStreamConstraints = options.constraints ?? { audio: true, video: { width: { ideal: 1280 }, height: { ideal: 720 } } };

  const current = signal<CallSession | null>(null);
  const problem = signal<CallProblem | null>(null);
  const error = signal<string | null>(null);
  const localStream = signal<MediaStream | null>(null);
  const remoteStream = signal<MediaStream | null>(null);
  const microphoneOn = signal(true);
  const cameraOn = signal(true);
  const peerMedia = signal<{ audio: boolean; video: boolean }>({ audio: true, video: true });
  const devices = signal<readonly CallDevice[]>([]);
  const lines = signal<readonly CallLine[]>([]);
  const clock = signal(now());
  /** Bumped on every server meter message, so `meter` recomputes. */
  const meterTick = signal(0);
  const lowCredit = signal(false);
  let pricePerMinuteAsked: number | null = null;

  let state: Internal | null = null;
  /** The camera and microphone as the peer got them; `localStream` shows them (a new object when a track changes). */
  let ownStream: MediaStream | null = null;
  let ticker: ReturnType<typeof setInterval> | null = null;
  let PeerClass: CallPeerConstructor | null = options.Peer ?? null;

  const phase = computed<CallPhase>(() => current.value?.phase ?? 'idle');
  const incoming = computed(() => (current.value?.phase === 'ringing' ? current.value : null));

  const meter = computed<CallMeter>(() => {
    const call = current.value;
    void meterTick.value;
    const at = clock.value;
    const s = state;
    if (!call) return { elapsedSeconds: 0, minutes: 0, cost: 0, earnings: 0, secondsLeft: null, lowCredit: false, pricePerMinute: 0 };
    const elapsedSeconds = call.startedAt === null ? 0 : Math.max(0, Math.floor((at - call.startedAt) / 1000));
    // A fan pays for every minute begun: the meter says what hanging up now costs.
    const begun = call.startedAt === null ? 0 : Math.floor(elapsedSeconds / 60) + 1;
    const minutes = Math.max(begun, s?.serverMinutes ?? 0);
    // The ticking clock may be up to a second behind the message that set the seconds.
    const secondsLeft = s && s.secondsLeft !== null ? Math.max(0, s.secondsLeft - Math.floor(Math.max(0, at - s.secondsLeftAt) / 1000)) : null;
    if (call.totals) {
      return { elapsedSeconds, minutes: call.totals.minutes, cost: call.totals.cost, earnings: call.totals.earnings, secondsLeft: null, lowCredit: false, pricePerMinute: call.agreedPrice };
    }
    return {
      elapsedSeconds,
      minutes,
      cost: Math.max(minutes * call.agreedPrice, s?.serverCost ?? 0),
      earnings: Math.max(minutes * call.earningsPrice, s?.serverEarnings ?? 0),
      secondsLeft,
      lowCredit: lowCredit.value,
      pricePerMinute: pricePerMinuteAsked ?? call.agreedPrice,
    };
  });

  function update(patch: Partial<CallSession>): void {
    const call = current.peek();
    if (call) current.value = { ...call, ...patch };
  }

  function addTimer(fn: () => void, ms: number): void {
    const s = state;
    if (!s) return;
    const timer = setTimeout(() => {
      s.timers.delete(timer);
      if (state === s) fn();
    }, ms);
    s.timers.add(timer);
  }

  function startTicker(): void {
    if (ticker !== null) return;
    clock.value = now();
    ticker = setInterval(() => {
      clock.value = now();
    }, 1000);
  }

  function stopTicker(): void {
    if (ticker !== null) clearInterval(ticker);
    ticker = null;
  }

  function send<T extends CallMessageType>(type: T, body: T extends keyof CallMessageBodies ? CallMessageBodies[T] : never, to?: { callId: string; peerId: number }): boolean {
    const target = to ?? (state ? { callId: state.callId, peerId: state.peerId } : null);
    if (!target || serverOnly.has(type)) return false;
    return socket.send({ type: 'callMessage', callId: target.callId, callMessageType: type, receiverId: target.peerId, callMessageBody: body });
  }

  function mediaDevices(): CallMediaDevices | null {
    if (options.mediaDevices !== undefined) return options.mediaDevices;
    return globalThis.navigator?.mediaDevices ?? null;
  }

  /** Camera and microphone; on failure the problem is set and null returned. */
  async function acquireMedia(s: Internal): Promise<MediaStream | null> {
    if (ownStream) return ownStream;
    const media = mediaDevices();
    if (!media || typeof media.getUserMedia !== 'function') {
      problem.value = 'media-unsupported';
      return null;
    }
    try {
      const stream = await media.getUserMedia(constraints);
      if (state !== s) {
        // The call ended while the person was asked: the camera goes off again.
        for (const track of stream.getTracks()) track.stop();
        return null;
      }
      ownStream = stream;
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

  function stopMedia(): void {
    const stream = ownStream;
    ownStream = null;
    if (stream) for (const track of stream.getTracks()) track.stop();
    batch(() => {
      localStream.value = null;
      remoteStream.value = null;
      microphoneOn.value = true;
      cameraOn.value = true;
      peerMedia.value = { audio: true, video: true };
    });
  }

  /** WebRTC and a camera API are there (a page that is not a secure context has no `mediaDevices`). */
  function supported(): boolean {
    const media = mediaDevices();
    const rtc = options.Peer !== undefined || typeof globalThis.RTCPeerConnection === 'function';
    return rtc && !!media && typeof media.getUserMedia === 'function';
  }

  /** The settings' list (STUN only): what a call uses when the server cannot give it its own. */
  function settingsIceServers(): RTCIceServer[] {
    return [...(settings.settings.peek()?.iceServers ?? [])];
  }

  /**
   * Whether the call's ICE servers should be asked for again: none yet (the last request
   * failed), or TURN credentials past half their life — a restart or a new peer then allocates
   * relays with credentials that have time left, and coturn refuses expired ones.
   */
  function iceStale(s: Internal): boolean {
    if (options.iceServers) return false;
    const ice = s.ice;
    return ice === null || (ice.ttl !== null && now() - ice.at > (ice.ttl * 1000) / 2);
  }

  /** The ICE servers for a new peer of the call, asked of the server when there are none fresh. */
  async function iceServersFor(s: Internal): Promise<RTCIceServer[]> {
    if (options.iceServers) return options.iceServers;
    if (iceStale(s)) {
      try {
        const answer = await api.iceServers(s.callId);
        if (state === s) s.ice = { servers: answer.iceServers, at: now(), ttl: answer.ttl };
      } catch {
        // The server could not say (offline a moment, an older server): the settings' list, and
        // the next peer or restart asks again.
        await settings.load().catch(() => undefined);
      }
    }
    return s.ice ? [...s.ice.servers] : settingsIceServers();
  }

  /** New credentials on the peer before an ICE restart, when the old ones are past half their life. */
  async function renewIce(s: Internal, peer: CallPeer): Promise<void> {
    const servers = await iceServersFor(s);
    if (state !== s || s.peer !== peer) return;
    try {
      const pc = peer._pc;
      pc?.setConfiguration?.({ ...(pc.getConfiguration?.() ?? {}), iceServers: servers });
    } catch {
      // A browser that refuses the change keeps the old servers; the restart goes on with them.
    }
  }

  async function peerClass(): Promise<CallPeerConstructor | null> {
    if (PeerClass) return PeerClass;
    try {
      PeerClass = await loadSimplePeer();
      return PeerClass;
    } catch {
      problem.value = 'webrtc-unsupported';
      return null;
    }
  }

  /** Builds the peer of generation `gen` (the caller's initiator, or the callee's answerer). */
  async function makePeer(s: Internal, gen: number): Promise<CallPeer | null> {
    const Peer = await peerClass();
    const stream = ownStream;
    if (!Peer || state !== s || !stream) return null;
    // The server gives each call its ICE servers (TURN credentials minted for this person).
    const iceServers = await iceServersFor(s);
    if (state !== s) return null;
    let peer: CallPeer;
    try {
      peer = new Peer({ initiator: s.direction === 'outgoing', stream, trickle: true, config: { iceServers } });
    } catch {
      problem.value = 'webrtc-unsupported';
      return null;
    }
    s.peer = peer;
    s.gen = gen;
    peer.on('signal', (data) => {
      if (state !== s || s.peer !== peer || !isObject(data)) return;
      const line = candidateLine(data);
      const filter = options.candidateFilter;
      if (line !== null && filter && !filter(line)) return;
      const type: CallMessageType = line !== null ? 'iceCandidate' : 'rtcOffer';
      // Candidates gathered before the description was made sit in its SDP: filtered alike.
      const sdp = typeof data.sdp === 'string' && filter ? { sdp: withoutCandidates(data.sdp, filter) } : {};
      send(type, { signal: { ...data, ...sdp, gen } });
    });
    peer.on('stream', (stream) => {
      if (state !== s || s.peer !== peer) return;
      remoteStream.value = stream;
      connected(s);
    });
    peer.on('connect', () => {
      if (state === s && s.peer === peer) connected(s);
    });
    peer.on('iceStateChange', (ice) => {
      if (state !== s || s.peer !== peer) return;
      if (ice === 'disconnected') {
        lost(s);
        if (s.disconnectedTimer === null) {
          s.disconnectedTimer = setTimeout(() => {
            s.disconnectedTimer = null;
            if (state === s && s.peer === peer) restartIce();
          }, iceRestartAfterMs);
        }
      } else if (ice === 'connected' || ice === 'completed') {
        connected(s);
      }
    });
    const gone = () => {
      if (state !== s || s.peer !== peer) return;
      s.peer = null;
      peerFailed(s);
    };
    peer.on('close', gone);
    peer.on('error', gone);
    const queued = s.pendingSignals.splice(0);
    for (const data of queued) deliverSignal(s, data);
    return peer;
  }

  function clearDisconnected(s: Internal): void {
    if (s.disconnectedTimer !== null) clearTimeout(s.disconnectedTimer);
    s.disconnectedTimer = null;
  }

  function connected(s: Internal): void {
    clearDisconnected(s);
    s.lostSince = null;
    batch(() => {
      if (problem.peek() === 'connection-lost') problem.value = null;
      if (current.peek()?.phase === 'connecting') update({ phase: 'live' });
    });
  }

  /** The media path to the other side is down: say so, and hang up if it stays down. */
  function lost(s: Internal): void {
    if (s.lostSince !== null) return;
    s.lostSince = now();
    problem.value = 'connection-lost';
    const since = s.lostSince;
    addTimer(() => {
      if (s.lostSince === since) hangUp('disconnected');
    }, reconnectGraceMs);
  }

  /** simple-peer closes a peer whose ICE failed: the caller builds a new one, the callee asks for it. */
  function peerFailed(s: Internal): void {
    clearDisconnected(s);
    const call = current.peek();
    if (!call || (call.phase !== 'live' && call.phase !== 'connecting')) return;
    lost(s);
    remoteStream.value = null;
    addTimer(() => {
      if (s.peer) return;
      if (s.direction === 'outgoing') void makePeer(s, s.gen + 1);
      else send('rtcOffer', { signal: { restart: true, gen: s.gen } });
    }, 1000);
  }

  function deliverSignal(s: Internal, data: Record<string, unknown>, iceRenewed = false): void {
    const gen = num(data.gen) ?? 0;
    const { gen: _gen, ...signalData } = data;
    void _gen;
    if (signalData.restart === true) {
      // The callee's peer died: the caller starts over with a new one.
      if (s.direction === 'outgoing' && gen >= s.gen) {
        const old = s.peer;
        s.peer = null;
        old?.destroy();
        void makePeer(s, s.gen + 1);
      }
      return;
    }
    if (s.direction === 'incoming') {
      // A description of a newer peer of the caller's: the old one is gone for good.
      if (gen > s.gen && s.peer) {
        const old = s.peer;
        s.peer = null;
        old.destroy();
      }
      if (!s.peer) {
        if (gen < s.gen) return;
        s.pendingSignals.push(data);
        if (s.pendingSignals.length === 1) void makePeer(s, gen);
        return;
      }
    } else {
      if (!s.peer) {
        s.pendingSignals.push(data);
        return;
      }
      if (gen !== s.gen) return;
      // The callee asks for a renegotiation after a network change: make it an ICE restart,
      // with fresh TURN credentials when the old ones are past half their life.
      if (signalData.renegotiate === true) {
        if (!iceRenewed && iceStale(s)) {
          const peer = s.peer;
          void renewIce(s, peer).then(() => {
            if (state === s && s.peer === peer) deliverSignal(s, data, true);
          });
          return;
        }
        s.peer.offerOptions = { ...(s.peer.offerOptions ?? {}), iceRestart: true };
      }
    }
    if (gen !== s.gen) return;
    try {
      s.peer?.signal(signalData);
    } catch {
      // A signal the peer cannot take (it is being replaced): the next one will do.
    }
  }

  function onSignal(s: Internal, body: unknown): void {
    if (!isObject(body) || !isObject(body.signal)) return;
    const call = current.peek();
    if (!call || (call.phase !== 'connecting' && call.phase !== 'live')) return;
    deliverSignal(s, body.signal);
  }

  function newState(callId: string, direction: CallDirection, peerId: number, ownedHere: boolean): Internal {
    return {
      callId,
      direction,
      peerId,
      ownedHere,
      gen: 1,
      peer: null,
      pendingSignals: [],
      timers: new Set(),
      lostSince: null,
      disconnectedTimer: null,
      lineSerial: 0,
      serverMinutes: 0,
      serverCost: 0,
      serverEarnings: 0,
      secondsLeft: null,
      secondsLeftAt: 0,
      ice: null,
    };
  }

  function teardown(): void {
    const s = state;
    if (s) {
      for (const timer of s.timers) clearTimeout(timer);
      s.timers.clear();
      clearDisconnected(s);
      const peer = s.peer;
      s.peer = null;
      try {
        peer?.destroy();
      } catch {
        // Already gone.
      }
    }
    stopTicker();
    stopMedia();
    lowCredit.value = false;
    pricePerMinuteAsked = null;
  }

  /** The call is over: what the server said, or what this page knows. */
  function end(reason: CallEndReason, fields: { status?: CallStatusCode | null; totals?: CallTotals | null } = {}): void {
    const call = current.peek();
    if (!call || call.phase === 'ended') return;
    const m = meter.peek();
    const estimate: CallTotals | null = call.startedAt === null ? { minutes: 0, cost: 0, earnings: 0 } : { minutes: m.minutes, cost: m.cost, earnings: call.direction === 'incoming' ? m.earnings : 0 };
    teardown();
    batch(() => {
      current.value = {
        ...call,
        phase: 'ended',
        endReason: reason,
        status: fields.status ?? statusOfReason[reason],
        totals: fields.totals ?? estimate,
      };
      if (problem.peek() === 'connection-lost') problem.value = null;
    });
    // The session ended here; a later `callStop` of the server may still bring its totals.
  }

  function lineOf(s: Internal, mine: boolean, text: string | null, giftId: number | null): CallLine {
    s.lineSerial += 1;
    return { id: s.lineSerial, mine, text, giftId, at: now() };
  }

  function partyFromBody(body: Record<string, unknown>, senderId: number): CallParty {
    const caller = body.caller;
    if (isObject(caller) && typeof caller.id === 'number') {
      return {
        id: caller.id,
        username: typeof caller.username === 'string' ? caller.username : String(caller.id),
        displayName: typeof caller.displayName === 'string' ? caller.displayName : '',
        avatarUrl: typeof caller.avatarUrl === 'string' ? caller.avatarUrl : null,
      };
    }
    return { id: senderId, username: String(senderId), displayName: '', avatarUrl: null };
  }

  // ---------------------------------------------------------------- server messages

  function onMessage(message: ServerMessageOf<'callMessage'>): void {
    const { callId, callMessageType: type, senderId } = message;
    const body = isObject(message.callMessageBody) ? message.callMessageBody : {};
    const me = session.userId.peek();
    if (me === null) return;

    if (type === 'preOffer') return onPreOffer(callId, senderId, body);

    const s = state;
    const call = current.peek();
    if (!s || !call || s.callId !== callId) return;
    // Only the other party or the server (0) speaks in this call.
    if (senderId !== 0 && senderId !== s.peerId && senderId !== me) return;
    // The call's start and its money are the server's word alone (senderId 0).
    if (serverOnly.has(type) && senderId !== 0) return;

    switch (type) {
      case 'preAnswer':
        return onPreAnswer(s, call, body);
      case 'callStart':
        return onCallStart(s, call, body);
      case 'callStop':
        return onCallStop(s, call, body);
      case 'rtcOffer':
      case 'iceCandidate':
        return onSignal(s, body);
      case 'timeLeft': {
        const seconds = num(body.seconds);
        if (seconds !== null) {
          s.secondsLeft = seconds;
          s.secondsLeftAt = now();
        }
        s.serverMinutes = Math.max(s.serverMinutes, num(body.minutes) ?? 0);
        s.serverCost = Math.max(s.serverCost, num(body.cost) ?? 0);
        meterTick.value += 1;
        return;
      }
      case 'askForMoney': {
        const seconds = num(body.seconds);
        if (seconds !== null) {
          s.secondsLeft = seconds;
          s.secondsLeftAt = now();
        }
        pricePerMinuteAsked = num(body.pricePerMinute);
        batch(() => {
          lowCredit.value = true;
          meterTick.value += 1;
        });
        return;
      }
      case 'creditOK': {
        const seconds = num(body.seconds);
        if (seconds !== null) {
          s.secondsLeft = seconds;
          s.secondsLeftAt = now();
        }
        batch(() => {
          lowCredit.value = false;
          meterTick.value += 1;
        });
        return;
      }
      case 'callEarnings':
        s.serverEarnings = Math.max(s.serverEarnings, num(body.earnings) ?? 0);
        s.serverMinutes = Math.max(s.serverMinutes, num(body.minutes) ?? 0);
        meterTick.value += 1;
        return;
      case 'chatMessage':
        if (typeof body.text === 'string' && body.text.trim() && senderId === s.peerId) lines.value = [...lines.peek(), lineOf(s, false, body.text, null)];
        return;
      case 'giftMessage': {
        const giftId = num(body.giftId);
        if (giftId !== null && senderId === s.peerId) lines.value = [...lines.peek(), lineOf(s, false, null, giftId)];
        return;
      }
      case 'remoteStream':
        if (senderId === s.peerId) peerMedia.value = { audio: body.audio !== false, video: body.video !== false };
        return;
      default:
        return;
    }
  }

  function onPreOffer(callId: string, senderId: number, body: Record<string, unknown>): void {
    const call = current.peek();
    if (call && call.callId === callId) return;
    // Echo of the viewer's own ring on another tab: nothing rings there.
    if (senderId === session.userId.peek()) return;
    const busy = call !== null && call.phase !== 'ended';
    if (busy) {
      send('preAnswer', { accept: false, status: CallStatus.busy }, { callId, peerId: senderId });
      return;
    }
    if (call) teardown();
    const party = partyFromBody(body, senderId);
    if (party.id <= 0 || party.id === session.userId.peek()) return;
    const salt = settings.settings.peek()?.salt ?? null;
    const ownPrice = session.account.peek()?.callPrice ?? 0;
    const earningsPrice = num(body.earningsPrice) ?? ownPrice;
    const agreedPrice = num(body.agreedPrice) ?? (salt !== null ? fanPriceCents(earningsPrice, salt) : earningsPrice);
    state = newState(callId, 'incoming', party.id, false);
    batch(() => {
      problem.value = socket.connectedState.peek() === 'open' ? null : 'offline';
      error.value = null;
      lines.value = [];
      peerMedia.value = { audio: true, video: true };
      current.value = {
        callId,
        direction: 'incoming',
        peer: party,
        agreedPrice,
        earningsPrice,
        phase: 'ringing',
        startedAt: null,
        endReason: null,
        status: null,
        totals: null,
      };
    });
    if (num(body.agreedPrice) === null && salt === null) {
      // Settings not loaded yet: the fan's price follows as soon as the salt is known.
      void settings.load().then(
        (loaded) => {
          const ringing = current.peek();
          if (ringing?.callId === callId && ringing.phase !== 'ended') update({ agreedPrice: fanPriceCents(earningsPrice, loaded.salt) });
        },
        () => undefined,
      );
    }
    // While it rings, what the answer will need is fetched: simple-peer and this call's ICE
    // servers, so accepting goes straight to the connection.
    void peerClass();
    const ringing = state;
    void iceServersFor(ringing);
    // The server rings for 120 s; nobody answering here, the ring stops a little after.
    addTimer(() => {
      if (current.peek()?.phase === 'ringing') {
        end('missed');
        dismiss();
      }
    }, CALL_RING_TIMEOUT_S * 1000 + ringGraceMs);
  }

  function onPreAnswer(s: Internal, call: CallSession, body: Record<string, unknown>): void {
    if (s.direction !== 'outgoing' || call.phase !== 'calling') return;
    if (body.accept === true) {
      update({ phase: 'connecting' });
      return;
    }
    const status = num(body.status);
    end(reasonOfStatus[status ?? CallStatus.declined] ?? 'declined', { status: (status ?? CallStatus.declined) as CallStatusCode });
  }

  function onCallStart(s: Internal, call: CallSession, body: Record<string, unknown>): void {
    if (call.phase === 'ringing' && !s.ownedHere) {
      // Another tab of the viewer's answered: this one stops ringing.
      teardown();
      state = null;
      current.value = null;
      return;
    }
    if (call.phase !== 'calling' && call.phase !== 'connecting') return;
    void body;
    batch(() => {
      update({ phase: 'connecting', startedAt: now() });
    });
    startTicker();
    if (s.direction === 'outgoing' && !s.peer) void makePeer(s, s.gen);
  }

  function onCallStop(s: Internal, call: CallSession, body: Record<string, unknown>): void {
    const status = num(body.status);
    const given = typeof body.reason === 'string' ? (body.reason as CallEndReason) : null;
    let reason: CallEndReason = given ?? reasonOfStatus[status ?? CallStatus.ended] ?? 'hangup';
    // The caller hung up before anyone answered: for the callee that is a cancelled ring.
    if (call.phase === 'ringing' && reason === 'hangup') reason = 'cancelled';
    const minutes = num(body.minutes);
    const totals: CallTotals | null =
      minutes !== null ? { minutes, cost: num(body.cost) ?? 0, earnings: num(body.earnings) ?? 0 } : null;
    if (call.phase === 'ended') {
      // The server's totals for a call this page ended first.
      if (totals) current.value = { ...call, totals, ...(status !== null ? { status: status as CallStatusCode } : {}) };
      return;
    }
    const wasRinging = call.phase === 'ringing';
    end(reason, { ...(status !== null ? { status: status as CallStatusCode } : {}), ...(totals ? { totals } : {}) });
    // A ring that stopped before it was answered leaves nothing to look at.
    if (wasRinging) dismiss();
    void s;
  }

  // ---------------------------------------------------------------- actions

  async function start(callee: CallCallee): Promise<CallStartResult> {
    const call = current.peek();
    if (call && call.phase !== 'ended') return { ok: false, problem: 'in-call' };
    if (!session.account.peek() && session.isLoggedIn.peek()) await session.loadAccount?.().catch(() => undefined);
    const me = session.account.peek();
    if (!me) return { ok: false, problem: 'logged-out' };
    if (current.peek() && current.peek()?.phase !== 'ended') return { ok: false, problem: 'in-call' };
    if (me.id === callee.id) return { ok: false, problem: 'self' };
    if (call) dismiss();
    const salt = (await settings.load().catch(() => null))?.salt ?? null;
    if (current.peek()) return { ok: false, problem: 'in-call' };
    const callId = newCallId();
    const s = newState(callId, 'outgoing', callee.id, true);
    state = s;
    batch(() => {
      problem.value = null;
      error.value = null;
      lines.value = [];
      peerMedia.value = { audio: true, video: true };
      current.value = {
        callId,
        direction: 'outgoing',
        peer: { id: callee.id, username: callee.username, displayName: callee.displayName ?? '', avatarUrl: callee.avatarUrl ?? null },
        agreedPrice: salt !== null ? fanPriceCents(callee.callPrice, salt) : callee.callPrice,
        earningsPrice: callee.callPrice,
        phase: 'calling',
        startedAt: null,
        endReason: null,
        status: null,
        totals: null,
      };
    });
    // The camera and microphone first: nobody should ring for a call that cannot be seen.
    const stream = await acquireMedia(s);
    if (state !== s) return { ok: false, problem: 'in-call' };
    if (!stream) {
      const cause = problem.peek() ?? 'media-unsupported';
      end('failed');
      return { ok: false, problem: cause };
    }
    // A page that just signed in may still be connecting: the ring waits for the connection.
    if (!(await socketOpen(5000)) || state !== s) {
      if (state === s) {
        end('failed');
        problem.value = 'offline';
      }
      return { ok: false, problem: 'offline' };
    }
    if (!send('preOffer', {})) {
      end('failed');
      problem.value = 'offline';
      return { ok: false, problem: 'offline' };
    }
    // simple-peer loads while the other side rings, not after she accepts.
    void peerClass();
    // The server ends an unanswered ring after 120 s; if its word never comes, stop anyway.
    addTimer(() => {
      if (current.peek()?.phase === 'calling') {
        send('callStop', { reason: 'missed' });
        end('missed');
      }
    }, CALL_RING_TIMEOUT_S * 1000 + ringGraceMs);
    return { ok: true, callId };
  }

  /** Resolves whether the realtime connection is open, connecting it when nobody has yet. */
  function socketOpen(timeoutMs: number): Promise<boolean> {
    if (socket.connectedState.peek() === 'open') return Promise.resolve(true);
    const now = socket.connectedState.peek();
    if ((now === 'idle' || now === 'closed') && session.isLoggedIn.peek()) socket.connect();
    return new Promise((resolve) => {
      let dispose: (() => void) | null = null;
      let done = false;
      const finish = (open: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        // Disposed after this run of the effect has finished.
        queueMicrotask(() => dispose?.());
        resolve(open);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      dispose = effect(() => {
        if (socket.connectedState.value === 'open') finish(true);
      });
    });
  }

  async function accept(): Promise<boolean> {
    const s = state;
    const call = current.peek();
    if (!s || !call || call.phase !== 'ringing') return false;
    s.ownedHere = true;
    const stream = await acquireMedia(s);
    if (state !== s || current.peek()?.phase !== 'ringing') {
      return false;
    }
    if (!stream) {
      // Still ringing: the creator may allow the camera and answer, or decline.
      s.ownedHere = false;
      return false;
    }
    // A page just opened to answer (from a notification) may still be connecting.
    if (!(await socketOpen(5000)) || state !== s || current.peek()?.phase !== 'ringing') {
      s.ownedHere = false;
      if (state === s) problem.value = 'offline';
      return false;
    }
    if (!send('preAnswer', { accept: true })) {
      s.ownedHere = false;
      problem.value = 'offline';
      return false;
    }
    update({ phase: 'connecting' });
    return true;
  }

  function decline(): void {
    const call = current.peek();
    if (!call || call.phase !== 'ringing') return;
    send('preAnswer', { accept: false, status: CallStatus.declined });
    end('declined');
    dismiss();
  }

  /**
   * A page that was not open when the call rang (opened from the ring's notification) learns of
   * it from the server's record and rings as if its `preOffer` had come: Accept and Decline
   * then work as for any ring, and the server still decides — a call over or answered elsewhere
   * meanwhile is refused there.
   */
  async function ring(callId: string): Promise<CallRingOutcome> {
    const known = current.peek();
    if (known?.callId === callId) return known.phase === 'ringing' ? 'ringing' : known.phase === 'ended' ? 'over' : 'taken';
    let record: Call;
    try {
      record = await api.call(callId);
    } catch {
      return 'not-found';
    }
    const latest = current.peek();
    if (latest?.callId === callId) return latest.phase === 'ringing' ? 'ringing' : latest.phase === 'ended' ? 'over' : 'taken';
    if (!record.callIsIncoming) return 'not-found';
    if (record.state === 'live') return 'taken';
    if (record.state !== 'ringing') return 'over';
    if (latest && latest.phase !== 'ended') return 'busy';
    onPreOffer(callId, record.caller.id, { caller: record.caller, agreedPrice: record.agreedPrice, earningsPrice: record.earningsPrice });
    return current.peek()?.callId === callId ? 'ringing' : 'over';
  }

  function hangUp(reason: CallEndReason = 'hangup'): void {
    const call = current.peek();
    if (!call || call.phase === 'ended') return;
    if (call.phase === 'ringing') return decline();
    const cancelled = call.phase === 'calling';
    send('callStop', { reason: cancelled ? 'cancelled' : reason });
    end(cancelled ? 'cancelled' : reason);
  }

  function dismiss(): void {
    const call = current.peek();
    if (call && call.phase !== 'ended') return;
    teardown();
    state = null;
    batch(() => {
      current.value = null;
      problem.value = null;
      error.value = null;
      lines.value = [];
    });
  }

  function setTrackState(kind: 'audio' | 'video', on: boolean): void {
    const stream = ownStream;
    if (stream) for (const track of kind === 'audio' ? stream.getAudioTracks() : stream.getVideoTracks()) track.enabled = on;
    batch(() => {
      if (kind === 'audio') microphoneOn.value = on;
      else cameraOn.value = on;
    });
    if (state && current.peek()?.phase !== 'ended') send('remoteStream', { audio: microphoneOn.peek(), video: cameraOn.peek() });
  }

  async function useDevice(kind: 'audioinput' | 'videoinput', deviceId: string): Promise<boolean> {
    const stream = ownStream;
    const media = mediaDevices();
    if (!stream || !media) return false;
    const trackKind = kind === 'audioinput' ? 'audio' : 'video';
    const base = constraints[trackKind];
    try {
      const fresh = await media.getUserMedia({ [trackKind]: { ...(typeof base === 'object' ? base : {}), deviceId: { exact: deviceId } } });
      const next = trackKind === 'audio' ? fresh.getAudioTracks()[0] : fresh.getVideoTracks()[0];
      if (!next || ownStream !== stream) {
        for (const t of fresh.getTracks()) t.stop();
        return false;
      }
      const old = trackKind === 'audio' ? stream.getAudioTracks()[0] : stream.getVideoTracks()[0];
      next.enabled = trackKind === 'audio' ? microphoneOn.peek() : cameraOn.peek();
      if (old) {
        state?.peer?.replaceTrack?.(old, next, stream);
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

  function say(text: string): boolean {
    const s = state;
    const call = current.peek();
    const clean = text.trim();
    if (!s || !call || (call.phase !== 'live' && call.phase !== 'connecting') || !clean) return false;
    if (!send('chatMessage', { text: clean })) return false;
    lines.value = [...lines.peek(), lineOf(s, true, clean, null)];
    return true;
  }

  async function sendGift(giftId: number): Promise<void> {
    const s = state;
    const call = current.peek();
    if (!s || !call || (call.phase !== 'live' && call.phase !== 'connecting')) throw new Error('not in a call');
    if (!deps.tip) throw new Error('gifts need the wallet');
    // Paid first (a tip, with its key); then the other side is shown it.
    await deps.tip(s.peerId, giftId);
    if (state !== s) return;
    send('giftMessage', { giftId });
    lines.value = [...lines.peek(), lineOf(s, true, null, giftId)];
  }

  function restartIce(): void {
    const s = state;
    const peer = s?.peer;
    if (!s || !peer || peer.destroyed) return;
    if (iceStale(s)) {
      // Credentials past half their life: new ones first, then the restart allocates with them.
      void renewIce(s, peer).then(() => {
        if (state === s && s.peer === peer && !peer.destroyed) restartPeer(s, peer);
      });
      return;
    }
    restartPeer(s, peer);
  }

  function restartPeer(s: Internal, peer: CallPeer): void {
    try {
      if (s.direction === 'outgoing') peer.offerOptions = { ...(peer.offerOptions ?? {}), iceRestart: true };
      // The callee's negotiate() asks the caller, who restarts (see deliverSignal).
      peer.negotiate?.();
    } catch {
      // A peer on its way out: its replacement comes by itself.
    }
  }

  function reset(): void {
    const call = current.peek();
    if (call && call.phase !== 'ended') hangUp();
    dismiss();
    devices.value = [];
  }

  // ---------------------------------------------------------------- wiring

  socket.on('callMessage', onMessage);
  // The salt and the ICE servers are needed the moment a call rings: fetched with the connection.
  socket.on('hello', () => void settings.load().catch(() => undefined));
  socket.on('error', (message) => {
    if (message.ref !== 'callMessage') return;
    const call = current.peek();
    // A paid call from a partner site: the fan accepts the price per minute in the platform's
    // popup, and the ring goes again with his confirmation (docs/spending.md).
    if (call && call.phase === 'calling' && message.statusText === 'confirmation-required' && message.body && message.msgId === call.callId) {
      const asked = deps.client.confirmSpend(message.body);
      if (asked !== null) {
        const s = state;
        asked.then(
          (answer) => {
            if (state !== s || current.peek()?.phase !== 'calling') return;
            if (!goesOn(answer) || !s) {
              error.value = 'spend-cancelled';
              end('failed');
              return;
            }
            socket.send({ type: 'callMessage', callId: s.callId, callMessageType: 'preOffer', receiverId: s.peerId, callMessageBody: {}, confirmation: answer.id });
          },
          (cause: unknown) => {
            if (state !== s) return;
            error.value = cause instanceof SdkError ? cause.code : 'spend-cancelled';
            end('failed');
          },
        );
        return;
      }
    }
    // Answered on another page or device first: this one stops, and sends nothing more.
    if (call && call.direction === 'incoming' && message.statusText === 'call-taken' && message.msgId === call.callId) {
      teardown();
      state = null;
      batch(() => {
        current.value = null;
        error.value = 'call-taken';
      });
      return;
    }
    // A ring the server refused (blocked, unverified e-mail, not a creator ...).
    if (call && call.phase === 'calling') {
      error.value = message.statusText;
      end('failed');
    }
  });
  // While the realtime connection is down the other side cannot be told anything.
  effect(() => {
    const open = socket.connectedState.value === 'open';
    const call = current.value;
    if (!call || call.phase === 'ended' || call.phase === 'idle') return;
    if (!open && problem.peek() === null) problem.value = 'offline';
    if (open && problem.peek() === 'offline') problem.value = null;
  });
  const network = options.networkEvents === undefined ? (typeof window === 'undefined' ? null : window) : options.networkEvents;
  network?.addEventListener('online', () => {
    if (current.peek()?.phase === 'live' || current.peek()?.phase === 'connecting') restartIce();
  });

  return {
    current: current as ReadonlySignal<CallSession | null>,
    phase: phase as ReadonlySignal<CallPhase>,
    incoming: incoming as ReadonlySignal<CallSession | null>,
    meter: meter as ReadonlySignal<CallMeter>,
    problem: problem as ReadonlySignal<CallProblem | null>,
    error: error as ReadonlySignal<string | null>,
    localStream: localStream as ReadonlySignal<MediaStream | null>,
    remoteStream: remoteStream as ReadonlySignal<MediaStream | null>,
    microphoneOn: microphoneOn as ReadonlySignal<boolean>,
    cameraOn: cameraOn as ReadonlySignal<boolean>,
    peerMedia: peerMedia as ReadonlySignal<{ audio: boolean; video: boolean }>,
    devices: devices as ReadonlySignal<readonly CallDevice[]>,
    lines: lines as ReadonlySignal<readonly CallLine[]>,
    supported,
    start,
    accept,
    decline,
    ring,
    hangUp: () => hangUp(),
    dismiss,
    setMicrophone: (on: boolean) => setTrackState('audio', on),
    setCamera: (on: boolean) => setTrackState('video', on),
    useDevice,
    say,
    sendGift,
    restartIce,
    record: (callId: string, abort?: AbortSignal): Promise<Call> => api.call(callId, abort),
    packages: (userId: number, abort?: AbortSignal): Promise<CallPackages> => api.packages(userId, abort),
    reset,
  };
}

export type CallsStore = ReturnType<typeof createCallsStore>;
