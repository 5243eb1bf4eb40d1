import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { createFanstage, type CallMediaDevices, type CallPeerConstructor, type CallPeerOptions, type Fanstage, type WebSocketConstructor } from '../../lib/sdk';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type AccountOptions, type TestAccount } from '../support/accounts';
import { fundWallet } from '../support/money';

/**
 * The calls store takes its ICE servers from the server, per call: the STUN servers and a TURN
 * credential minted for the person, which coturn (with the secret this test gave the server)
 * would accept — and asks for new ones when an ICE restart finds them past half their life.
 * Real server and sockets; the peers are stand-ins (Node has no WebRTC), as in calls-store.test.ts.
 */

const SECRET = `turn-secret-${randomBytes(12).toString('hex')}`;
const TTL = 60;
const STUN = 'stun:stun.fanstage.example:3478';
const TURN = 'turn:turn.fanstage.example:3478';

let server: TestServer;
const made: Fanstage[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: false, env: { ICE_SERVERS: JSON.stringify([{ urls: STUN }]), TURN_URLS: TURN, TURN_SECRET: SECRET, TURN_TTL: String(TTL) } });
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

function camera(): CallMediaDevices {
  return {
    getUserMedia() {
      const tracks = (['audio', 'video'] as const).map((kind) => ({ kind, enabled: true, stop() {} }));
      const stream = { getTracks: () => tracks, getAudioTracks: () => tracks.filter((t) => t.kind === 'audio'), getVideoTracks: () => tracks.filter((t) => t.kind === 'video') };
      return Promise.resolve(stream as unknown as MediaStream);
    },
  };
}

/** simple-peer's place: offer, answer, connect; `_pc` records the configurations set on it. */
function standInPeers() {
  const made: StandInPeer[] = [];
  class StandInPeer {
    destroyed = false;
    offerOptions: RTCOfferOptions = {};
    negotiated = 0;
    readonly configurations: RTCConfiguration[] = [];
    readonly _pc = {
      getConfiguration: () => this.configurations.at(-1) ?? this.options.config,
      setConfiguration: (configuration: RTCConfiguration) => void this.configurations.push(configuration),
    };
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
      if (this.options.initiator && data.renegotiate === true) this.negotiate();
      if (!this.options.initiator && data.type === 'offer') setTimeout(() => (this.emit('signal', { type: 'answer', sdp: 'v=0 answer' }), this.emit('connect')), 0);
      if (this.options.initiator && data.type === 'answer') setTimeout(() => this.emit('connect'), 0);
    }
    destroy() {
      this.destroyed = true;
    }
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
  peers: ReturnType<typeof standInPeers>['made'];
}

/** The store's clock: moved by the test, so credentials age without waiting. */
let storeOffset = 0;

async function person(options: AccountOptions = {}, network: EventTarget | null = null): Promise<Person> {
  const account = await createAccount(server.app, options);
  const peers = standInPeers();
  const fanstage = createFanstage({
    baseUrl: server.baseUrl,
    socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor, reconnectMs: 50 },
    calls: { mediaDevices: camera(), networkEvents: network, Peer: peers.Peer, now: () => Date.now() + storeOffset },
  });
  made.push(fanstage);
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  fanstage.socket.connect();
  await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'), { timeout: 5000 });
  return { account, fanstage, peers: peers.made };
}

const wait = { timeout: 5000 };

/** The TURN entry of a peer's ICE servers, checked as coturn checks it: whose it is and until when. */
function turnOf(servers: RTCIceServer[] | undefined): { userId: number; expires: number } {
  const turn = (servers ?? []).find((s) => s.username !== undefined);
  expect(turn).toMatchObject({ urls: [TURN] });
  const username = String(turn?.username);
  expect(createHmac('sha1', SECRET).update(username).digest('base64')).toBe(turn?.credential);
  const [expires, userId] = username.split(':').map(Number);
  return { userId: userId!, expires: expires! };
}

describe('the calls store’s ICE servers', { timeout: 30_000 }, () => {
  it('are the server’s for each call and each side: STUN and a TURN credential of one’s own, renewed on an ICE restart past half their life', async () => {
    const network = new EventTarget();
    const lucy = await person({ seller: true });
    lucy.fanstage.session.setAccount(await lucy.fanstage.account.updateMe({ callPrice: 128 }));
    const marek = await person({}, network);
    await fundWallet(server.app, marek.account.id, 100_000);

    await liveCall(marek.fanstage, lucy);
    await vi.waitFor(() => expect(lucy.fanstage.calls.phase.value).toBe('live'), wait);

    const his = marek.peers[0]!;
    const hers = lucy.peers[0]!;
    expect(his.options.config.iceServers?.[0]).toEqual({ urls: STUN });
    expect(hers.options.config.iceServers?.[0]).toEqual({ urls: STUN });
    const first = turnOf(his.options.config.iceServers);
    expect(first.userId).toBe(marek.account.id);
    expect(turnOf(hers.options.config.iceServers).userId).toBe(lucy.account.id);
    const serverNow = Math.floor(server.app.fanstage.clock.now().getTime() / 1000);
    expect(first.expires).toBeGreaterThan(serverNow);
    expect(first.expires).toBeLessThanOrEqual(serverNow + TTL);

    // Fresh credentials: a network change restarts ICE at once with them.
    network.dispatchEvent(new Event('online'));
    expect(his.negotiated).toBe(1);
    expect(his.configurations).toEqual([]);

    // Past half their life, the restart asks for new ones first and sets them on the peer.
    storeOffset += (TTL / 2 + 1) * 1000;
    server.app.fanstage.clock.advance((TTL / 2 + 1) * 1000);
    network.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(his.negotiated).toBe(2), wait);
    expect(his.configurations).toHaveLength(1);
    const renewed = turnOf(his.configurations[0]!.iceServers);
    expect(renewed.userId).toBe(marek.account.id);
    expect(renewed.expires).toBeGreaterThan(first.expires);
    expect(his.offerOptions).toEqual({ iceRestart: true });
  });

  it('fall back to the settings’ list (STUN only) when the server cannot be asked', async () => {
    const lucy = await person({ seller: true });
    lucy.fanstage.session.setAccount(await lucy.fanstage.account.updateMe({ callPrice: 128 }));
    const marek = await pagePerson({}, (url) => (url.includes('/ice-servers') ? Promise.reject(new TypeError('network down')) : undefined));
    await liveCall(marek.fanstage, lucy);
    expect(marek.asked.filter((url) => url.includes('/ice-servers')).length).toBeGreaterThan(0);
    expect(marek.peers[0]?.options.config.iceServers).toEqual([{ urls: STUN }]);
  });

  it('follow options.iceServers when a page gives them, and ask the server nothing', async () => {
    const own: RTCIceServer[] = [{ urls: 'stun:own.example:3478' }];
    const lucy = await person({ seller: true });
    lucy.fanstage.session.setAccount(await lucy.fanstage.account.updateMe({ callPrice: 128 }));
    const marek = await pagePerson({ iceServers: own });
    await liveCall(marek.fanstage, lucy);
    expect(marek.peers[0]?.options.config.iceServers).toEqual(own);
    // The page's requests were seen, and none asked for ICE servers.
    expect(marek.asked.some((url) => url.includes('/api/users/me'))).toBe(true);
    expect(marek.asked.filter((url) => url.includes('/ice-servers'))).toEqual([]);
  });
});

/** A fan whose page's requests are listed (and may fail, as a network would, when `fail` says so). */
async function pagePerson(calls: { iceServers?: RTCIceServer[] }, fail: (url: string) => Promise<Response> | undefined = () => undefined) {
  const peers = standInPeers();
  const account = await createAccount(server.app);
  await fundWallet(server.app, account.id, 10_000);
  const asked: string[] = [];
  const fanstage = createFanstage({
    baseUrl: server.baseUrl,
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      asked.push(url);
      return fail(url) ?? fetch(input, init);
    },
    socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor, reconnectMs: 50 },
    calls: { mediaDevices: camera(), networkEvents: null, Peer: peers.Peer, ...calls },
  });
  made.push(fanstage);
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  fanstage.socket.connect();
  await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'), wait);
  return { account, fanstage, peers: peers.made, asked };
}

/** `fan` calls `star`, who answers: live on both sides. */
async function liveCall(fan: Fanstage, star: Person): Promise<void> {
  await fan.calls.start({ id: star.account.id, username: star.account.username, callPrice: 128 });
  await vi.waitFor(() => expect(star.fanstage.calls.phase.value).toBe('ringing'), wait);
  expect(await star.fanstage.calls.accept()).toBe(true);
  await vi.waitFor(() => expect(fan.calls.phase.value).toBe('live'), wait);
}
