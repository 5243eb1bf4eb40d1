import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import {
  createFanstage,
  fanPriceCents,
  mediaProblemOf,
  callBlocker,
  newCallId,
  type CallMediaDevices,
  type CallPeerConstructor,
  type CallPeerOptions,
  type Fanstage,
  type WebSocketConstructor,
} from '../../lib/sdk';
import type { ClientMessage } from '../../lib/contract/realtime';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type AccountOptions, type TestAccount } from '../support/accounts';
import { RING_TIMEOUT_MS } from '../../server/src/features/calls/domain';
import { callRuntime } from '../../server/src/features/calls/runtime';
import { earningsOf, expectLedgerBalanced, fundWallet, walletOf } from '../support/money';

/**
 * The calls store between real people on the real server: rings, answers, refusals and hang-ups
 * travel over real websockets. Node has no camera and no WebRTC: the camera is a stand-in for
 * the browser's `navigator.mediaDevices` (tracks that can be switched off and stopped), and no
 * test here reaches the media stage, which the two-browser journey (tests/e2e/calls.spec.ts) covers.
 */

let server: TestServer;
let salt = 10_000;
const made: Fanstage[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  salt = server.app.fanstage.config.priceSalt;
}, 60_000);

afterEach(() => {
  for (const fanstage of made.splice(0)) {
    fanstage.calls.reset();
    fanstage.socket.disconnect();
    fanstage.session.dispose();
  }
});

afterAll(async () => {
  await server?.close();
});

interface FakeTrack {
  kind: 'audio' | 'video';
  enabled: boolean;
  stopped: boolean;
  stop(): void;
}

/** A browser's camera and microphone as the store sees them; `refuse` makes getUserMedia fail with that DOMException name. */
function camera(refuse?: string) {
  const tracks: FakeTrack[] = [];
  let asked = 0;
  const devices: CallMediaDevices = {
    getUserMedia() {
      asked += 1;
      if (refuse) return Promise.reject(Object.assign(new Error(refuse), { name: refuse }));
      const own: FakeTrack[] = (['audio', 'video'] as const).map((kind): FakeTrack => ({
        kind,
        enabled: true,
        stopped: false,
        stop() {
          this.stopped = true;
        },
      }));
      tracks.push(...own);
      const stream = {
        getTracks: () => own,
        getAudioTracks: () => own.filter((t) => t.kind === 'audio'),
        getVideoTracks: () => own.filter((t) => t.kind === 'video'),
      };
      return Promise.resolve(stream as unknown as MediaStream);
    },
  };
  return { devices, tracks, asked: () => asked };
}

/**
 * simple-peer's place, in Node where there is no WebRTC: the initiator makes an offer, the
 * answerer answers it, and each says it connected once it has the other's description. What
 * this shows is the signalling through the real server, not media.
 */
function standInPeers() {
  const made: StandInPeer[] = [];
  class StandInPeer {
    readonly received: Record<string, unknown>[] = [];
    destroyed = false;
    private readonly handlers = new Map<string, ((...args: unknown[]) => void)[]>();
    constructor(readonly options: CallPeerOptions) {
      made.push(this);
      if (options.initiator) setTimeout(() => this.emit('signal', { type: 'offer', sdp: 'v=0 offer' }), 0);
    }

    on(event: string, listener: (...args: unknown[]) => void) {
      this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener]);
      return this;
    }

    emit(event: string, ...args: unknown[]) {
      for (const listener of this.handlers.get(event) ?? []) listener(...args);
    }

    signal(data: Record<string, unknown>) {
      this.received.push(data);
      if (this.options.initiator && data.renegotiate === true) this.negotiate();
      if (!this.options.initiator && data.type === 'offer') {
        setTimeout(() => {
          this.emit('signal', { type: 'answer', sdp: 'v=0 answer' });
          this.emit('signal', { type: 'candidate', candidate: { candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host', sdpMid: '0' } });
          this.emit('connect');
        }, 0);
      }
      if (this.options.initiator && data.type === 'answer') setTimeout(() => this.emit('connect'), 0);
    }

    destroy() {
      this.destroyed = true;
    }

    /** simple-peer's renegotiation: the initiator offers again, the answerer asks it to. */
    offerOptions: RTCOfferOptions = {};
    negotiated = 0;
    negotiate() {
      this.negotiated += 1;
      if (this.options.initiator) setTimeout(() => this.emit('signal', { type: 'offer', sdp: `v=0 offer ${this.negotiated}` }), 0);
      else setTimeout(() => this.emit('signal', { type: 'renegotiate', renegotiate: true }), 0);
    }
  }
  return { Peer: StandInPeer as unknown as CallPeerConstructor, made };
}

interface Person {
  account: TestAccount;
  fanstage: Fanstage;
  frames: ClientMessage[];
  cam: ReturnType<typeof camera>;
  peers: ReturnType<typeof standInPeers>['made'];
}

async function person(options: AccountOptions = {}, refuse?: string, network: EventTarget | null = null): Promise<Person> {
  const account = await createAccount(server.app, options);
  const frames: ClientMessage[] = [];
  class Tracked extends NodeWebSocket {
    override send(data: string): void {
      frames.push(JSON.parse(data) as ClientMessage);
      super.send(data);
    }
  }
  const cam = camera(refuse);
  const peers = standInPeers();
  const fanstage = createFanstage({
    baseUrl: server.baseUrl,
    socket: { WebSocketImpl: Tracked as unknown as WebSocketConstructor, reconnectMs: 50 },
    calls: { mediaDevices: cam.devices, networkEvents: network, Peer: peers.Peer, reconnectGraceMs: 10_000 },
  });
  made.push(fanstage);
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  fanstage.socket.connect();
  await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'), { timeout: 5000 });
  return { account, fanstage, frames, cam, peers: peers.made };
}

/** A creator who takes calls at `cents` a minute (a call-minute step), set as she would set it. */
async function creator(cents = 128): Promise<Person> {
  const seller = await person({ seller: true });
  const account = await seller.fanstage.account.updateMe({ callPrice: cents });
  seller.fanstage.session.setAccount(account);
  return seller;
}

/** A fan with credits for a few minutes. */
async function fan(refuse?: string): Promise<Person> {
  const someone = await person({}, refuse);
  await fundWallet(server.app, someone.account.id, 10_000);
  return someone;
}

function callee(of: Person, callPrice = 128) {
  return { id: of.account.id, username: of.account.username, displayName: 'Lucy', callPrice };
}

/** Moves the server's clock and waits for its billing clocks to do what is due. */
async function elapse(ms: number): Promise<void> {
  server.app.fanstage.clock.advance(ms);
  await callRuntime(server.app.fanstage, server.app.log).clock.tick();
}

/** A call from `fan` that `star` answered, live on both sides (stand-in peers). */
async function liveCall(fanSide: Person, star: Person): Promise<string> {
  const started = await fanSide.fanstage.calls.start(callee(star));
  await vi.waitFor(() => expect(star.fanstage.calls.phase.value).toBe('ringing'), wait);
  expect(await star.fanstage.calls.accept()).toBe(true);
  await vi.waitFor(() => expect(fanSide.fanstage.calls.phase.value).toBe('live'), wait);
  await vi.waitFor(() => expect(star.fanstage.calls.phase.value).toBe('live'), wait);
  return started.ok ? started.callId : '';
}

const callFrames = (who: Person) => who.frames.filter((f): f is Extract<ClientMessage, { type: 'callMessage' }> => f.type === 'callMessage');
const wait = { timeout: 5000 };

describe('the calls store on the real server', { timeout: 30_000 }, () => {
  it('rings the creator with the caller and the price; her decline ends the fan’s call as declined', async () => {
    const lucy = await creator(128);
    const marek = await fan();

    const started = await marek.fanstage.calls.start(callee(lucy));
    expect(started.ok).toBe(true);
    const callId = started.ok ? started.callId : '';
    expect(callId).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(marek.fanstage.calls.phase.value).toBe('calling');
    expect(marek.fanstage.calls.current.value).toMatchObject({ direction: 'outgoing', agreedPrice: fanPriceCents(128, salt), earningsPrice: 128, peer: { id: lucy.account.id } });
    // The camera was asked before anything rang.
    expect(marek.cam.asked()).toBe(1);
    expect(callFrames(marek).map((f) => f.callMessageType)).toEqual(['preOffer']);
    expect(callFrames(marek)[0]).toMatchObject({ callId, receiverId: lucy.account.id });

    await vi.waitFor(() => expect(lucy.fanstage.calls.incoming.value).not.toBeNull(), wait);
    expect(lucy.fanstage.calls.incoming.value).toMatchObject({ callId, direction: 'incoming', phase: 'ringing', earningsPrice: 128, agreedPrice: fanPriceCents(128, salt), peer: { id: marek.account.id } });
    // Nothing is asked of her camera until she answers.
    expect(lucy.cam.asked()).toBe(0);

    lucy.fanstage.calls.decline();
    expect(lucy.fanstage.calls.phase.value).toBe('idle');
    await vi.waitFor(() => expect(marek.fanstage.calls.phase.value).toBe('ended'), wait);
    expect(marek.fanstage.calls.current.value).toMatchObject({ endReason: 'declined', status: 54, totals: { minutes: 0, cost: 0 } });
    // The camera is off again once the call is over.
    expect(marek.cam.tracks.every((t) => t.stopped)).toBe(true);
    expect(marek.fanstage.calls.localStream.value).toBeNull();

    marek.fanstage.calls.dismiss();
    expect(marek.fanstage.calls.phase.value).toBe('idle');
  });

  it('stops ringing on the creator’s side when the fan hangs up first: a cancelled ring leaves nothing behind', async () => {
    const lucy = await creator(64);
    const marek = await fan();
    await marek.fanstage.calls.start(callee(lucy, 64));
    await vi.waitFor(() => expect(lucy.fanstage.calls.phase.value).toBe('ringing'), wait);

    marek.fanstage.calls.hangUp();
    expect(marek.fanstage.calls.current.value).toMatchObject({ phase: 'ended', endReason: 'cancelled' });
    expect(callFrames(marek).map((f) => f.callMessageType)).toEqual(['preOffer', 'callStop']);
    await vi.waitFor(() => expect(lucy.fanstage.calls.phase.value).toBe('idle'), wait);
  });

  it('answers a second caller busy while the creator’s phone rings, and keeps the first call', async () => {
    const lucy = await creator(128);
    const first = await fan();
    const second = await fan();
    const one = await first.fanstage.calls.start(callee(lucy));
    await vi.waitFor(() => expect(lucy.fanstage.calls.phase.value).toBe('ringing'), wait);

    await second.fanstage.calls.start(callee(lucy));
    await vi.waitFor(() => expect(second.fanstage.calls.phase.value).toBe('ended'), wait);
    expect(second.fanstage.calls.current.value).toMatchObject({ endReason: 'busy', status: 57 });
    expect(lucy.fanstage.calls.current.value?.callId).toBe(one.ok ? one.callId : null);
    expect(lucy.fanstage.calls.phase.value).toBe('ringing');
  });

  it('does not ring anyone when the camera is refused, and says why', async () => {
    const lucy = await creator(128);
    const refused = await fan('NotAllowedError');
    const result = await refused.fanstage.calls.start(callee(lucy));
    expect(result).toEqual({ ok: false, problem: 'camera-denied' });
    expect(refused.fanstage.calls.problem.value).toBe('camera-denied');
    expect(refused.fanstage.calls.current.value).toMatchObject({ phase: 'ended', endReason: 'failed' });
    expect(callFrames(refused)).toEqual([]);

    const noCamera = await fan('NotFoundError');
    expect(await noCamera.fanstage.calls.start(callee(lucy))).toEqual({ ok: false, problem: 'no-device' });
    expect(callFrames(noCamera)).toEqual([]);
    // Nothing rang on her side.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lucy.fanstage.calls.phase.value).toBe('idle');
  });

  it('keeps ringing when the creator’s camera is refused as she answers, so she can allow it or decline', async () => {
    const lucy = await person({ seller: true }, 'NotAllowedError');
    const account = await lucy.fanstage.account.updateMe({ callPrice: 128 });
    lucy.fanstage.session.setAccount(account);
    const marek = await fan();
    await marek.fanstage.calls.start(callee(lucy));
    await vi.waitFor(() => expect(lucy.fanstage.calls.phase.value).toBe('ringing'), wait);

    expect(await lucy.fanstage.calls.accept()).toBe(false);
    expect(lucy.fanstage.calls.problem.value).toBe('camera-denied');
    expect(lucy.fanstage.calls.phase.value).toBe('ringing');
    expect(callFrames(lucy).map((f) => f.callMessageType)).toEqual([]);
  });

  it('goes live with the server’s callStart: the offer and answer travel through the server, the meter follows it, and a hang-up pays the minute begun once', async () => {
    const lucy = await creator(128);
    const marek = await fan();
    const fanPays = fanPriceCents(128, salt);
    const walletBefore = await walletOf(server.app, marek.account.id);
    const earningsBefore = await earningsOf(server.app, lucy.account.id);

    const started = await marek.fanstage.calls.start(callee(lucy));
    const callId = started.ok ? started.callId : '';
    await vi.waitFor(() => expect(lucy.fanstage.calls.phase.value).toBe('ringing'), wait);
    expect(await lucy.fanstage.calls.accept()).toBe(true);

    // The server held the first minute and started the call on both sides; media follow.
    await vi.waitFor(() => expect(marek.fanstage.calls.phase.value).toBe('live'), wait);
    await vi.waitFor(() => expect(lucy.fanstage.calls.phase.value).toBe('live'), wait);
    expect(marek.peers).toHaveLength(1);
    expect(marek.peers[0]?.options).toMatchObject({ initiator: true, trickle: true, config: { iceServers: [] } });
    expect(lucy.peers[0]?.options.initiator).toBe(false);
    // The answerer got the caller's offer as simple-peer made it (the generation stays outside).
    expect(lucy.peers[0]?.received[0]).toEqual({ type: 'offer', sdp: 'v=0 offer' });
    expect(marek.peers[0]?.received.map((d) => d.type)).toEqual(['answer', 'candidate']);
    expect(callFrames(marek).map((f) => f.callMessageType)).toEqual(['preOffer', 'rtcOffer']);
    expect(callFrames(lucy).map((f) => f.callMessageType)).toEqual(['preAnswer', 'rtcOffer', 'iceCandidate']);

    // The meter: the fan's minute begun at her price and the seconds the held minute lasts; the creator's earnings.
    expect(marek.fanstage.calls.meter.value).toMatchObject({ minutes: 1, cost: fanPays, lowCredit: false });
    await vi.waitFor(() => expect(marek.fanstage.calls.meter.value.secondsLeft).toBeGreaterThan(50), wait);
    expect(lucy.fanstage.calls.meter.value).toMatchObject({ minutes: 1, earnings: 128 });
    expect(await walletOf(server.app, marek.account.id)).toBe(walletBefore - fanPays);

    // A chat line during the call reaches her; so does his camera going off.
    expect(marek.fanstage.calls.say('  Hi Lucy  ')).toBe(true);
    marek.fanstage.calls.setCamera(false);
    await vi.waitFor(() => expect(lucy.fanstage.calls.lines.value).toMatchObject([{ mine: false, text: 'Hi Lucy' }]), wait);
    await vi.waitFor(() => expect(lucy.fanstage.calls.peerMedia.value).toEqual({ audio: true, video: false }), wait);
    expect(marek.cam.tracks.find((t) => t.kind === 'video')?.enabled).toBe(false);

    marek.fanstage.calls.hangUp();
    await vi.waitFor(() => expect(marek.fanstage.calls.current.value).toMatchObject({ callId, phase: 'ended', endReason: 'hangup', totals: { minutes: 1, cost: fanPays } }), wait);
    await vi.waitFor(() => expect(lucy.fanstage.calls.current.value).toMatchObject({ phase: 'ended', endReason: 'hangup', totals: { minutes: 1, earnings: 128 } }), wait);
    expect(marek.peers[0]?.destroyed).toBe(true);
    expect(lucy.peers[0]?.destroyed).toBe(true);
    await vi.waitFor(async () => expect(await earningsOf(server.app, lucy.account.id)).toBe(earningsBefore + 128), wait);
    expect(await walletOf(server.app, marek.account.id)).toBe(walletBefore - fanPays);
    expect(await marek.fanstage.calls.record(callId)).toMatchObject({ state: 'ended', minutes: 1, cost: fanPays, callIsIncoming: false });
    await expectLedgerBalanced(server.app);
  });

  it('ends an unanswered ring as missed when the server’s ring timeout passes; the creator gets a missed call', async () => {
    const lucy = await creator(128);
    const marek = await fan();
    const walletBefore = await walletOf(server.app, marek.account.id);
    await marek.fanstage.calls.start(callee(lucy));
    await vi.waitFor(() => expect(lucy.fanstage.calls.phase.value).toBe('ringing'), wait);

    await elapse(RING_TIMEOUT_MS);
    await vi.waitFor(() => expect(marek.fanstage.calls.current.value).toMatchObject({ phase: 'ended', endReason: 'missed', status: 55 }), wait);
    await vi.waitFor(() => expect(lucy.fanstage.calls.phase.value).toBe('idle'), wait);
    const missed = await lucy.fanstage.client.get<{ notifications: { type: string; fromUser: { id: number } | null }[] }>('/api/2/notifications', { types: 'missedCall' });
    expect(missed.notifications).toMatchObject([{ type: 'missedCall', fromUser: { id: marek.account.id } }]);
    expect(await walletOf(server.app, marek.account.id)).toBe(walletBefore);
  });

  it('warns the fan when the next minute cannot be held, and goes on after a top-up', async () => {
    const lucy = await creator(128);
    const marek = await person();
    const fanPays = fanPriceCents(128, salt);
    await fundWallet(server.app, marek.account.id, fanPays);
    await liveCall(marek, lucy);
    expect(marek.fanstage.calls.meter.value.lowCredit).toBe(false);

    await elapse(30_000);
    await vi.waitFor(() => expect(marek.fanstage.calls.meter.value).toMatchObject({ lowCredit: true, pricePerMinute: fanPays }), wait);
    expect(marek.fanstage.calls.meter.value.secondsLeft).toBeLessThanOrEqual(30);
    // Only the fan is asked.
    expect(lucy.fanstage.calls.meter.value.lowCredit).toBe(false);

    await fundWallet(server.app, marek.account.id, 1000);
    await elapse(5_000);
    await vi.waitFor(() => expect(marek.fanstage.calls.meter.value.lowCredit).toBe(false), wait);
    expect(marek.fanstage.calls.phase.value).toBe('live');
    marek.fanstage.calls.hangUp();
    await vi.waitFor(() => expect(marek.fanstage.calls.current.value?.totals).toMatchObject({ minutes: 1, cost: fanPays }), wait);
  });

  it('is ended by the server with couldNotBePaid when the fan does not top up, and nothing more is charged', async () => {
    const lucy = await creator(128);
    const marek = await person();
    const fanPays = fanPriceCents(128, salt);
    await fundWallet(server.app, marek.account.id, fanPays + 10);
    await liveCall(marek, lucy);
    await elapse(30_000);
    await vi.waitFor(() => expect(marek.fanstage.calls.meter.value.lowCredit).toBe(true), wait);
    await elapse(30_000);
    await vi.waitFor(() => expect(marek.fanstage.calls.current.value).toMatchObject({ phase: 'ended', endReason: 'couldNotBePaid', status: 53, totals: { minutes: 1, cost: fanPays } }), wait);
    await vi.waitFor(() => expect(lucy.fanstage.calls.current.value).toMatchObject({ phase: 'ended', endReason: 'couldNotBePaid', totals: { earnings: 128 } }), wait);
    expect(await walletOf(server.app, marek.account.id)).toBe(10);
    await expectLedgerBalanced(server.app);
  });

  it('restarts ICE on a network change, and replaces a peer that failed without mixing up the old one’s signals', async () => {
    const network = new EventTarget();
    const lucy = await creator(128);
    const marek = await person({}, undefined, network);
    await fundWallet(server.app, marek.account.id, 10_000);
    await liveCall(marek, lucy);
    const first = marek.peers[0]!;

    // The fan's laptop changes networks: the same peer offers again with an ICE restart.
    network.dispatchEvent(new Event('online'));
    expect(first.offerOptions).toEqual({ iceRestart: true });
    expect(first.negotiated).toBe(1);
    await vi.waitFor(() => expect(lucy.peers[0]?.received.at(-1)).toEqual({ type: 'offer', sdp: 'v=0 offer 1' }), wait);

    // Her side asks for a restart too: the fan's peer restarts ICE for it.
    lucy.fanstage.calls.restartIce();
    await vi.waitFor(() => expect(first.negotiated).toBe(2), wait);

    // Her peer fails for good (simple-peer closes it): she says the connection is lost, the fan's
    // side makes a new peer, and the call goes on with it.
    lucy.peers[0]!.emit('close');
    expect(lucy.fanstage.calls.problem.value).toBe('connection-lost');
    await vi.waitFor(() => expect(marek.peers).toHaveLength(2), wait);
    expect(first.destroyed).toBe(true);
    await vi.waitFor(() => expect(lucy.peers).toHaveLength(2), wait);
    expect(lucy.peers[1]?.received[0]).toEqual({ type: 'offer', sdp: 'v=0 offer' });
    await vi.waitFor(() => expect(lucy.fanstage.calls.problem.value).toBeNull(), wait);
    expect(lucy.fanstage.calls.phase.value).toBe('live');
    expect(marek.fanstage.calls.phase.value).toBe('live');
    // Every signal names its peer's generation: the new peer's offer is the second one's.
    expect(callFrames(marek).filter((f) => f.callMessageType === 'rtcOffer').map((f) => (f.callMessageBody as { signal: { gen: number } }).signal.gen)).toEqual([1, 1, 1, 2]);
  });

  it('does not believe billing messages or a call start from the other person, only from the server', async () => {
    const lucy = await creator(128);
    const marek = await fan();
    const started = await marek.fanstage.calls.start(callee(lucy));
    const callId = started.ok ? started.callId : '';
    await vi.waitFor(() => expect(lucy.fanstage.calls.phase.value).toBe('ringing'), wait);

    // What a tampered page of hers could send: the fan's store must not move on any of it.
    for (const [callMessageType, callMessageBody] of [
      ['askForMoney', { seconds: 5, pricePerMinute: 1 }],
      ['timeLeft', { seconds: 1, minutes: 9, cost: 99_999 }],
      ['callStart', { started: Date.now() }],
    ] as const) {
      lucy.fanstage.socket.send({ type: 'callMessage', callId, callMessageType, receiverId: marek.account.id, callMessageBody });
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(marek.fanstage.calls.phase.value).toBe('calling');
    expect(marek.fanstage.calls.meter.value).toMatchObject({ lowCredit: false, cost: 0, minutes: 0, secondsLeft: null });
    expect(marek.fanstage.calls.current.value?.startedAt).toBeNull();
  });

  it('refuses a second call while one is open, and a call to oneself', async () => {
    const lucy = await creator(128);
    const marek = await fan();
    await marek.fanstage.calls.start(callee(lucy));
    expect(await marek.fanstage.calls.start(callee(lucy))).toEqual({ ok: false, problem: 'in-call' });
    const self = await fan();
    expect(await self.fanstage.calls.start(callee(self))).toEqual({ ok: false, problem: 'self' });
  });
});

describe('call rules', () => {
  it('name each refusal of the camera and microphone', () => {
    expect(mediaProblemOf({ name: 'NotAllowedError' })).toBe('camera-denied');
    expect(mediaProblemOf({ name: 'NotFoundError' })).toBe('no-device');
    expect(mediaProblemOf({ name: 'NotReadableError' })).toBe('device-busy');
    expect(mediaProblemOf(new TypeError('insecure'))).toBe('media-unsupported');
  });

  it('make call ids of 22 url-safe random characters', () => {
    const ids = new Set(Array.from({ length: 50 }, () => newCallId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
  });

  it('say why a viewer cannot call', () => {
    const lucy = { id: 2, isSeller: true, level: 0, callPrice: 128, blockedStatus: 0 };
    const viewer = { account: { id: 1, emailVerified: true }, inCall: false, credits: 10_000, salt: 10_000 };
    expect(callBlocker(lucy, viewer)).toBeNull();
    expect(callBlocker(lucy, { ...viewer, account: null })).toBe('logged-out');
    expect(callBlocker(lucy, { ...viewer, account: { id: 2, emailVerified: true } })).toBe('self');
    expect(callBlocker({ ...lucy, isSeller: false }, viewer)).toBe('not-seller');
    expect(callBlocker({ ...lucy, isSeller: false, level: 100 }, viewer)).toBeNull();
    expect(callBlocker({ ...lucy, blockedStatus: 2 }, viewer)).toBe('blocked');
    expect(callBlocker(lucy, { ...viewer, account: { id: 1, emailVerified: false } })).toBe('email-unverified');
    expect(callBlocker(lucy, { ...viewer, inCall: true })).toBe('in-call');
    expect(callBlocker(lucy, { ...viewer, credits: 127 })).toBe('no-credit');
    expect(callBlocker(lucy, { ...viewer, credits: 128 })).toBeNull();
    expect(callBlocker(lucy, { ...viewer, webrtc: false })).toBe('unsupported');
  });
});
