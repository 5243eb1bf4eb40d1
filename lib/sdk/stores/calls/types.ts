/** The calls store's public types (what `fanstage.calls` gives and takes) and its dependencies. */
import type { ReadonlySignal } from '@preact/signals-core';
import type { Account, CallEndReason, CallParty, CallStatusCode } from '../../../contract';
import type { FanstageClient } from '../../client';
import type { FanstageSocket } from '../../socket';
import type { SettingsStore } from '../settings';
import type { CallBlocker } from '../../rules/calls';

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


/**
 * simple-peer's signal data as the store passes it between the two sides: a description (`sdp`),
 * a candidate, a renegotiation, or the store's own `restart`, with its peer generation `gen`.
 */
export interface CallSignalData {
  [key: string]: unknown;
  gen?: number;
  restart?: boolean;
  renegotiate?: boolean;
  sdp?: string;
  candidate?: { candidate?: string };
}

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

/** A call's own timers: cleared together when the call is torn down. */
export interface CallTimers {
  /** Runs `fn` after `ms` unless the call was torn down first. */
  add(fn: () => void, ms: number): void;
  clear(): void;
}
