/**
 * The WebRTC connection of a call, through simple-peer. It starts only with the server's
 * `callStart` (the first minute is held by then): the caller is simple-peer's initiator, the
 * callee answers. Signals travel as `rtcOffer` (descriptions) and `iceCandidate` (candidates)
 * bodies `{signal}`. ICE servers come from `GET /api/calls/{id}/ice-servers` when a peer is
 * made: the STUN servers and a TURN credential minted for this person and call, good for `ttl`
 * seconds (the settings' `iceServers`, STUN only, when that request fails). An ICE restart with
 * credentials older than half their ttl asks for new ones first. `candidateFilter` drops local
 * candidates a deployment (or a test) does not want.
 *
 * A network change (`online`) or a connection that stays `disconnected` restarts ICE on the
 * same peer; a peer that failed is replaced by a new one (the caller makes it; each signal
 * carries its peer generation `gen`, so nothing of an old peer reaches a new one). Without media
 * for `reconnectGraceMs` (30 s) the call is hung up with `disconnected`.
 */
import { batch, type Signal } from '@preact/signals-core';
import type { CallsApi } from '../../api-calls';
import type { SettingsStore } from '../settings';
import type { CallMedia } from './media';
import type { CallDirection, CallPeer, CallPeerConstructor, CallProblem, CallSignalData, CallStoreOptions, CallTimers } from './types';

/** One call as the connection sees it; a new object for every call. */
export interface CallLink {
  readonly callId: string;
  readonly direction: CallDirection;
  readonly timers: CallTimers;
  /** The generation of the current peer (a replaced peer's successor has the next). */
  gen: number;
  peer: CallPeer | null;
  /** Signals that came before the peer they are for. */
  pendingSignals: CallSignalData[];
  lostSince: number | null;
  disconnectedTimer: ReturnType<typeof setTimeout> | null;
  /** The ICE servers the server gave this call (TURN credentials minted for the viewer), when, and for how many seconds. */
  ice: { servers: RTCIceServer[]; at: number; ttl: number | null } | null;
}

export function newLink(callId: string, direction: CallDirection, timers: CallTimers): CallLink {
  return { callId, direction, timers, gen: 1, peer: null, pendingSignals: [], lostSince: null, disconnectedTimer: null, ice: null };
}

export interface CallConnectionDeps {
  options: CallStoreOptions;
  api: Pick<CallsApi, 'iceServers'>;
  settings: SettingsStore;
  media: CallMedia;
  problem: Signal<CallProblem | null>;
  now(): number;
  /** The link of the call on the page, or null. */
  active(): CallLink | null;
  /** Whether the call is in a phase where media flow (connecting or live). */
  inCall(): boolean;
  /** Sends a signal to the other side of the active call. */
  sendSignal(type: 'rtcOffer' | 'iceCandidate', signal: Record<string, unknown>): boolean;
  /** Media reached the other side. */
  connected(): void;
  /** The connection stayed lost too long. */
  giveUp(): void;
}

/** simple-peer's browser build, loaded with the first call: pages without calls never pay for it. */
async function loadSimplePeer(): Promise<CallPeerConstructor> {
  const module = (await import('simple-peer/simplepeer.min.js')) as { default?: CallPeerConstructor } & CallPeerConstructor;
  return module.default ?? module;
}

/** The candidate line of a simple-peer signal, when it is a candidate. */
function candidateLine(data: CallSignalData): string | null {
  return data.candidate?.candidate ?? null;
}

/** The SDP without the `a=candidate` lines `keep` refuses. */
function withoutCandidates(sdp: string, keep: (candidate: string) => boolean): string {
  return sdp
    .split(/\r\n/)
    .filter((line) => !line.startsWith('a=candidate:') || keep(line.slice(2)))
    .join('\r\n');
}

export function createCallConnection(deps: CallConnectionDeps) {
  const { options, api, settings, media, problem, now, active } = deps;
  const reconnectGraceMs = options.reconnectGraceMs ?? 30_000;
  const iceRestartAfterMs = options.iceRestartAfterMs ?? 3_000;
  let PeerClass: CallPeerConstructor | null = options.Peer ?? null;

  /** The settings' list (STUN only): what a call uses when the server cannot give it its own. */
  function settingsIceServers(): RTCIceServer[] {
    return [...(settings.settings.peek()?.iceServers ?? [])];
  }

  /**
   * Whether the call's ICE servers should be asked for again: none yet (the last request
   * failed), or TURN credentials past half their life — a restart or a new peer then allocates
   * relays with credentials that have time left, and coturn refuses expired ones.
   */
  function iceStale(s: CallLink): boolean {
    if (options.iceServers) return false;
    const ice = s.ice;
    return ice === null || (ice.ttl !== null && now() - ice.at > (ice.ttl * 1000) / 2);
  }

  /** The ICE servers for a new peer of the call, asked of the server when there are none fresh. */
  async function iceServersFor(s: CallLink): Promise<RTCIceServer[]> {
    if (options.iceServers) return options.iceServers;
    if (iceStale(s)) {
      try {
        const answer = await api.iceServers(s.callId);
        if (active() === s) s.ice = { servers: answer.iceServers, at: now(), ttl: answer.ttl };
      } catch {
        // The server could not say (offline a moment, an older server): the settings' list, and
        // the next peer or restart asks again.
        await settings.load().catch(() => undefined);
      }
    }
    return s.ice ? [...s.ice.servers] : settingsIceServers();
  }

  /** New credentials on the peer before an ICE restart, when the old ones are past half their life. */
  async function renewIce(s: CallLink, peer: CallPeer): Promise<void> {
    const servers = await iceServersFor(s);
    if (active() !== s || s.peer !== peer) return;
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
  async function makePeer(s: CallLink, gen: number): Promise<CallPeer | null> {
    const Peer = await peerClass();
    const stream = media.own();
    if (!Peer || active() !== s || !stream) return null;
    // The server gives each call its ICE servers (TURN credentials minted for this person).
    const iceServers = await iceServersFor(s);
    if (active() !== s) return null;
    let peer: CallPeer;
    try {
      peer = new Peer({ initiator: s.direction === 'outgoing', stream, trickle: true, config: { iceServers } });
    } catch {
      problem.value = 'webrtc-unsupported';
      return null;
    }
    s.peer = peer;
    s.gen = gen;
    const mine = () => active() === s && s.peer === peer;
    peer.on('signal', (signal) => {
      if (!mine()) return;
      // simple-peer signals objects: a description, a candidate or a renegotiation.
      const data = signal as CallSignalData;
      const line = candidateLine(data);
      const filter = options.candidateFilter;
      if (line !== null && filter && !filter(line)) return;
      // Candidates gathered before the description was made sit in its SDP: filtered alike.
      const sdp = data.sdp !== undefined && filter ? { sdp: withoutCandidates(data.sdp, filter) } : {};
      deps.sendSignal(line !== null ? 'iceCandidate' : 'rtcOffer', { ...data, ...sdp, gen });
    });
    peer.on('stream', (remote) => {
      if (!mine()) return;
      media.remoteStream.value = remote;
      connected(s);
    });
    peer.on('connect', () => {
      if (mine()) connected(s);
    });
    peer.on('iceStateChange', (ice) => {
      if (!mine()) return;
      if (ice === 'disconnected') {
        lost(s);
        if (s.disconnectedTimer === null) {
          s.disconnectedTimer = setTimeout(() => {
            s.disconnectedTimer = null;
            if (mine()) restartIce();
          }, iceRestartAfterMs);
        }
      } else if (ice === 'connected' || ice === 'completed') {
        connected(s);
      }
    });
    const gone = () => {
      if (!mine()) return;
      s.peer = null;
      peerFailed(s);
    };
    peer.on('close', gone);
    peer.on('error', gone);
    const queued = s.pendingSignals.splice(0);
    for (const data of queued) deliver(s, data);
    return peer;
  }

  function clearDisconnected(s: CallLink): void {
    if (s.disconnectedTimer !== null) clearTimeout(s.disconnectedTimer);
    s.disconnectedTimer = null;
  }

  function connected(s: CallLink): void {
    clearDisconnected(s);
    s.lostSince = null;
    batch(() => {
      if (problem.peek() === 'connection-lost') problem.value = null;
      deps.connected();
    });
  }

  /** The media path to the other side is down: say so, and hang up if it stays down. */
  function lost(s: CallLink): void {
    if (s.lostSince !== null) return;
    s.lostSince = now();
    problem.value = 'connection-lost';
    const since = s.lostSince;
    s.timers.add(() => {
      if (s.lostSince === since) deps.giveUp();
    }, reconnectGraceMs);
  }

  /** simple-peer closes a peer whose ICE failed: the caller builds a new one, the callee asks for it. */
  function peerFailed(s: CallLink): void {
    clearDisconnected(s);
    if (!deps.inCall()) return;
    lost(s);
    media.remoteStream.value = null;
    s.timers.add(() => {
      if (s.peer) return;
      if (s.direction === 'outgoing') void makePeer(s, s.gen + 1);
      else deps.sendSignal('rtcOffer', { restart: true, gen: s.gen });
    }, 1000);
  }

  function deliver(s: CallLink, data: CallSignalData, iceRenewed = false): void {
    const gen = data.gen ?? 0;
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
            if (active() === s && s.peer === peer) deliver(s, data, true);
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

  function restartIce(): void {
    const s = active();
    const peer = s?.peer;
    if (!s || !peer || peer.destroyed) return;
    if (iceStale(s)) {
      // Credentials past half their life: new ones first, then the restart allocates with them.
      void renewIce(s, peer).then(() => {
        if (active() === s && s.peer === peer && !peer.destroyed) restartPeer(s, peer);
      });
      return;
    }
    restartPeer(s, peer);
  }

  function restartPeer(s: CallLink, peer: CallPeer): void {
    try {
      if (s.direction === 'outgoing') peer.offerOptions = { ...(peer.offerOptions ?? {}), iceRestart: true };
      // The callee's negotiate() asks the caller, who restarts (see deliver).
      peer.negotiate?.();
    } catch {
      // A peer on its way out: its replacement comes by itself.
    }
  }

  // A network change: new paths to the other side.
  const onOnline = () => {
    if (deps.inCall()) restartIce();
  };
  const network = options.networkEvents === undefined ? (typeof window === 'undefined' ? null : window) : options.networkEvents;
  network?.addEventListener('online', onOnline);

  return {
    /** Loads simple-peer ahead of need (while a call rings). */
    preload: (): void => void peerClass(),
    /** Fetches the call's ICE servers ahead of need. */
    prefetchIce: (s: CallLink): void => void iceServersFor(s),
    /** The caller's first peer, once the server started the call. */
    start(s: CallLink): void {
      if (s.direction === 'outgoing' && !s.peer) void makePeer(s, s.gen);
    },
    /** A signal of the other side's for this call. */
    signal(s: CallLink, data: CallSignalData): void {
      if (deps.inCall()) deliver(s, data);
    },
    replaceTrack(old: MediaStreamTrack, next: MediaStreamTrack, stream: MediaStream): void {
      active()?.peer?.replaceTrack?.(old, next, stream);
    },
    restartIce,
    /** Closes the peer of a call being torn down. */
    close(s: CallLink): void {
      clearDisconnected(s);
      const peer = s.peer;
      s.peer = null;
      try {
        peer?.destroy();
      } catch {
        // Already gone.
      }
    },
    /** Stops listening to the network. */
    dispose(): void {
      network?.removeEventListener('online', onOnline);
    },
  };
}

export type CallConnection = ReturnType<typeof createCallConnection>;
