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
 *   calls.error        ReadonlySignal<SdkError | null>  a refusal of the server; its `code` is an
 *                      `errors.*` key (`call-taken`, `spend-cancelled`, `blocked` ...)
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
 *   calls.dispose()              resets and stops listening to the socket and the network (a
 *                                Fanstage object that is thrown away; `fanstage.dispose()` does it)
 *
 * Rules:
 * - The server is the authority on the call and on money. The store never sends the billing
 *   messages; it only shows what the server says and ends when the server sends `callStop`.
 * - A second call ringing while the viewer is in one is answered busy (57). A `callStart` for a
 *   call this page did not accept (another tab did) leaves this page idle; so does the server's
 *   `call-taken`, its refusal of an answer to a call another page or device answered first
 *   (`error.code` is then `call-taken`).
 *
 * The parts, one file each: `machine.ts` (the phases: a pure reducer over typed actions),
 * `meter.ts` (the meter: pure, plus its ticking clock), `media.ts` (camera, microphone and
 * devices), `connection.ts` (simple-peer, ICE, reconnection), `signalling.ts` (the socket's
 * messages, their bodies read by the contract's types), `dialling.ts` (the caller's side: the ring and its refusals),
 * `ringing.ts` (the callee's side: rings and answers), `core.ts` (what the parts share) and
 * `types.ts`. This file holds the call on the page, the server's word on it, and the actions
 * during the call.
 */
import { batch, computed, effect, signal, type ReadonlySignal } from '@preact/signals-core';
import type { Call, CallEndReason, CallPackages, CallStatusCode } from '../../../contract';
import type { CallMessageBodies } from '../../../contract/calls';
import type { CallMessageType } from '../../../contract/realtime';
import { callsApi } from '../../api-calls';
import type { SdkError } from '../../errors';
import { callReducer, reasonOfStop, refusalOf, type CallAction } from './machine';
import { createMeter } from './meter';
import { createCallMedia } from './media';
import { createCallConnection } from './connection';
import { createCallSignalling, type CallEvent } from './signalling';
import { newCallScope, socketOpen, type CallCore, type CallScope } from './core';
import { createDialling } from './dialling';
import { createRinging } from './ringing';
import type { CallDevice, CallLine, CallMeter, CallPhase, CallProblem, CallSession, CallStoreOptions, CallsDeps, CallTotals } from './types';

// The button's rules live apart, so a profile shows its Call button without this store's code.
export { callBlocker, canUseWebRtc, takesCalls, type CallBlocker } from '../../rules/calls';
export { mediaProblemOf } from './media';
export { newCallId } from './core';
export type * from './types';

export function createCallsStore(deps: CallsDeps, options: CallStoreOptions = {}) {
  const { socket, session, settings } = deps;
  const api = callsApi(deps.client);
  const now = options.now ?? (() => Date.now());

  const current = signal<CallSession | null>(null);
  const problem = signal<CallProblem | null>(null);
  const error = signal<SdkError | null>(null);
  const lines = signal<readonly CallLine[]>([]);
  const meter = createMeter(current, now);
  const media = createCallMedia(options, problem);
  let state: CallScope | null = null;

  const phase = computed<CallPhase>(() => current.value?.phase ?? 'idle');
  const incoming = computed(() => (current.value?.phase === 'ringing' ? current.value : null));
  const inCall = () => current.peek()?.phase === 'live' || current.peek()?.phase === 'connecting';

  /** Every change of the call goes through the machine. */
  function dispatch(action: CallAction): void {
    current.value = callReducer(current.peek(), action);
  }

  function newScope(callId: string, direction: CallScope['direction'], peerId: number, ownedHere: boolean): CallScope {
    const scope: CallScope = newCallScope(callId, direction, peerId, ownedHere, () => state === scope);
    return scope;
  }

  const signalling = createCallSignalling(socket, {
    loggedIn: () => session.userId.peek() !== null,
    now,
    offer: (callId, senderId, offer) => ringing.offered(callId, senderId, offer),
    event: onEvent,
    refused: (refusal) => dialling.refused(refusal),
    // The salt and the ICE servers are needed the moment a call rings: fetched with the connection.
    hello: () => void settings.load().catch(() => undefined),
  });

  function send<T extends CallMessageType>(
    type: T,
    body: T extends keyof CallMessageBodies ? CallMessageBodies[T] : never,
    to: { callId: string; peerId: number } | null = state,
    confirmation?: string,
  ): boolean {
    return to !== null && signalling.send(type, body, to, confirmation);
  }

  const connection = createCallConnection({
    options,
    api,
    settings,
    media,
    problem,
    now,
    active: () => state,
    inCall,
    sendSignal: (type, data) => send(type, { signal: data }),
    connected: () => dispatch({ type: 'connected' }),
    giveUp: () => hangUp('disconnected'),
  });

  /** The call's timers, peer, meter and media, all stopped. */
  function teardown(): void {
    const s = state;
    if (s) {
      s.timers.clear();
      connection.close(s);
    }
    meter.stop();
    media.stop();
  }

  /** The call is over: what the server said, or what this page knows. */
  function end(reason: CallEndReason, fields: { status?: CallStatusCode | null; totals?: CallTotals | null } = {}): void {
    const call = current.peek();
    if (!call || call.phase === 'ended') return;
    const m = meter.meter.peek();
    const estimate: CallTotals = call.startedAt === null ? { minutes: 0, cost: 0, earnings: 0 } : { minutes: m.minutes, cost: m.cost, earnings: call.direction === 'incoming' ? m.earnings : 0 };
    teardown();
    batch(() => {
      dispatch({ type: 'ended', reason, status: fields.status, totals: fields.totals, estimate });
      if (problem.peek() === 'connection-lost') problem.value = null;
    });
    // The session ended here; a later `callStop` of the server may still bring its totals.
  }

  /** The call is gone from this page (answered elsewhere): idle, with `taken` as the error when said. */
  function drop(taken?: SdkError): void {
    teardown();
    state = null;
    batch(() => {
      dispatch({ type: 'cleared' });
      if (taken) error.value = taken;
    });
  }

  function dismiss(): void {
    const call = current.peek();
    if (call && call.phase !== 'ended') return;
    teardown();
    state = null;
    batch(() => {
      dispatch({ type: 'cleared' });
      problem.value = null;
      error.value = null;
      lines.value = [];
    });
  }

  const core: CallCore = {
    client: deps.client,
    api,
    socket,
    session,
    settings,
    media,
    connection,
    current,
    problem,
    error,
    now,
    ringGraceMs: options.ringGraceMs ?? 15_000,
    state: () => state,
    newScope,
    begin(s, action, offline) {
      state = s;
      batch(() => {
        problem.value = offline ? 'offline' : null;
        error.value = null;
        lines.value = [];
        media.peerMedia.value = { audio: true, video: true };
        dispatch(action);
      });
    },
    dispatch,
    teardown,
    end,
    dismiss,
    send,
    socketOpen: (timeoutMs) => socketOpen(socket, session, timeoutMs),
  };
  const ringing = createRinging(core);
  const dialling = createDialling(core, drop);

  // ---------------------------------------------------------------- the server's word on the call

  function addLine(s: CallScope, mine: boolean, text: string | null, giftId: number | null): void {
    s.lineSerial += 1;
    lines.value = [...lines.peek(), { id: s.lineSerial, mine, text, giftId, at: now() }];
  }

  function onEvent(callId: string, senderId: number, event: CallEvent): void {
    const s = state;
    const call = current.peek();
    if (!s || !call || s.callId !== callId) return;
    // Only the other party or the server (0) speaks in this call.
    if (senderId !== 0 && senderId !== s.peerId && senderId !== session.userId.peek()) return;
    switch (event.type) {
      case 'preAnswer': {
        if (s.direction !== 'outgoing' || call.phase !== 'calling') return;
        if (event.accept) return dispatch({ type: 'answered' });
        const refusal = refusalOf(event.status);
        return end(refusal.reason, { status: refusal.status });
      }
      case 'callStart':
        // Another tab of the viewer's answered: this one stops ringing.
        if (call.phase === 'ringing' && !s.ownedHere) return drop();
        if (call.phase !== 'calling' && call.phase !== 'connecting') return;
        dispatch({ type: 'started', at: now() });
        meter.start();
        return connection.start(s);
      case 'callStop':
        return onCallStop(call, event);
      case 'signal':
        return connection.signal(s, event.signal);
      case 'meter':
        return meter.dispatch(event.action);
      case 'chatMessage':
        if (senderId === s.peerId) addLine(s, false, event.text, null);
        return;
      case 'giftMessage':
        if (senderId === s.peerId) addLine(s, false, null, event.giftId);
        return;
      case 'remoteStream':
        if (senderId === s.peerId) media.peerMedia.value = { audio: event.audio, video: event.video };
        return;
    }
  }

  function onCallStop(call: CallSession, event: Extract<CallEvent, { type: 'callStop' }>): void {
    const status = event.status as CallStatusCode | null;
    if (call.phase === 'ended') {
      // The server's totals for a call this page ended first.
      if (event.totals) dispatch({ type: 'settled', totals: event.totals, status });
      return;
    }
    end(reasonOfStop(call, event.reason, event.status), { ...(status !== null ? { status } : {}), ...(event.totals ? { totals: event.totals } : {}) });
    // A ring that stopped before it was answered leaves nothing to look at.
    if (call.phase === 'ringing') dismiss();
  }

  // ---------------------------------------------------------------- actions during the call

  function hangUp(reason: CallEndReason = 'hangup'): void {
    const call = current.peek();
    if (!call || call.phase === 'ended') return;
    if (call.phase === 'ringing') return ringing.decline();
    const cancelled = call.phase === 'calling';
    send('callStop', { reason: cancelled ? 'cancelled' : reason });
    end(cancelled ? 'cancelled' : reason);
  }

  function setTrackState(kind: 'audio' | 'video', on: boolean): void {
    media.setTrack(kind, on);
    if (state && current.peek()?.phase !== 'ended') send('remoteStream', { audio: media.microphoneOn.peek(), video: media.cameraOn.peek() });
  }

  function say(text: string): boolean {
    const s = state;
    const clean = text.trim();
    if (!s || !inCall() || !clean) return false;
    if (!send('chatMessage', { text: clean })) return false;
    addLine(s, true, clean, null);
    return true;
  }

  async function sendGift(giftId: number): Promise<void> {
    const s = state;
    if (!s || !inCall()) throw new Error('not in a call');
    if (!deps.tip) throw new Error('gifts need the wallet');
    // Paid first (a tip, with its key); then the other side is shown it.
    await deps.tip(s.peerId, giftId);
    if (state !== s) return;
    send('giftMessage', { giftId });
    addLine(s, true, null, giftId);
  }

  function reset(): void {
    const call = current.peek();
    if (call && call.phase !== 'ended') hangUp();
    dismiss();
    media.devices.value = [];
  }

  // While the realtime connection is down the other side cannot be told anything.
  const stopWatching = effect(() => {
    const open = socket.connectedState.value === 'open';
    const call = current.value;
    if (!call || call.phase === 'ended' || call.phase === 'idle') return;
    if (!open && problem.peek() === null) problem.value = 'offline';
    if (open && problem.peek() === 'offline') problem.value = null;
  });

  return {
    current: current as ReadonlySignal<CallSession | null>,
    phase: phase as ReadonlySignal<CallPhase>,
    incoming: incoming as ReadonlySignal<CallSession | null>,
    meter: meter.meter as ReadonlySignal<CallMeter>,
    problem: problem as ReadonlySignal<CallProblem | null>,
    error: error as ReadonlySignal<SdkError | null>,
    localStream: media.localStream,
    remoteStream: media.remoteStream as ReadonlySignal<MediaStream | null>,
    microphoneOn: media.microphoneOn,
    cameraOn: media.cameraOn,
    peerMedia: media.peerMedia as ReadonlySignal<{ audio: boolean; video: boolean }>,
    devices: media.devices as ReadonlySignal<readonly CallDevice[]>,
    lines: lines as ReadonlySignal<readonly CallLine[]>,
    supported: media.supported,
    start: dialling.start,
    accept: ringing.accept,
    decline: ringing.decline,
    ring: ringing.ring,
    hangUp: () => hangUp(),
    dismiss,
    setMicrophone: (on: boolean) => setTrackState('audio', on),
    setCamera: (on: boolean) => setTrackState('video', on),
    useDevice: (kind: 'audioinput' | 'videoinput', deviceId: string) => media.useDevice(kind, deviceId, connection.replaceTrack),
    say,
    sendGift,
    restartIce: connection.restartIce,
    record: (callId: string, abort?: AbortSignal): Promise<Call> => api.call(callId, abort),
    packages: (userId: number, abort?: AbortSignal): Promise<CallPackages> => api.packages(userId, abort),
    reset,
    /** Hangs up, forgets everything, and stops listening to the socket and the network. */
    dispose(): void {
      reset();
      stopWatching();
      signalling.dispose();
      connection.dispose();
    },
  };
}

export type CallsStore = ReturnType<typeof createCallsStore>;
