// The bare call of the calls benchmark: two pages, a caller and a callee, with simple-peer's
// browser build (the one the SDK loads) and nothing else — no accounts, no billing, no UI
// framework; each page shows the other's video and its own camera small, as our call window
// does — signalling through bench/calls/bare-server.ts's `ws` relay. The steps are ours:
// the caller takes the camera and rings; the callee's accept takes the camera, makes the
// answering peer and says so; the caller then makes the initiating peer (our server's
// `callStart`); descriptions and candidates go over the relay, trickled, no ICE servers.
import SimplePeer from 'simple-peer/simplepeer.min.js';

interface Peer {
  on(event: 'signal', listener: (data: unknown) => void): void;
  on(event: 'stream', listener: (stream: MediaStream) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  signal(data: unknown): void;
  destroy(): void;
}
type PeerConstructor = new (options: { initiator: boolean; stream: MediaStream; trickle: boolean; config: RTCConfiguration }) => Peer;
const Peer = SimplePeer as PeerConstructor;

type Message = { type: 'joined' } | { type: 'ring' } | { type: 'accept' } | { type: 'signal'; data: unknown };

/** What our SDK asks for (lib/sdk/stores/calls.ts). */
const constraints: MediaStreamConstraints = { audio: true, video: { width: { ideal: 1280 }, height: { ideal: 720 } } };

const params = new URLSearchParams(location.search);
const role = params.get('role') === 'caller' ? 'caller' : 'callee';
const room = params.get('room') ?? 'room';
const status = document.getElementById('status')!;
const acceptButton = document.getElementById('accept') as HTMLButtonElement;
const remote = document.getElementById('remote') as HTMLVideoElement;
/** The person's own camera, small, as our call window shows it. */
const local = document.getElementById('local') as HTMLVideoElement;

const socket = new WebSocket(`ws://${location.host}/ws/?room=${encodeURIComponent(room)}`);
let stream: MediaStream | null = null;
let peer: Peer | null = null;
const pending: unknown[] = [];
let rang = false;

const send = (message: Message) => socket.send(JSON.stringify(message));
const say = (text: string) => {
  status.textContent = text;
  document.body.dataset.state = text;
};

function makePeer(initiator: boolean, media: MediaStream): void {
  const made = new Peer({ initiator, stream: media, trickle: true, config: { iceServers: [] } });
  peer = made;
  made.on('signal', (data) => send({ type: 'signal', data }));
  made.on('stream', (incoming) => {
    remote.srcObject = incoming;
    say('live');
  });
  made.on('error', (error) => say(`error: ${error.message}`));
  for (const data of pending.splice(0)) made.signal(data);
}

async function ring(): Promise<void> {
  if (rang) return;
  rang = true;
  stream = await navigator.mediaDevices.getUserMedia(constraints);
  local.srcObject = stream;
  send({ type: 'ring' });
  say('calling');
}

acceptButton.addEventListener('click', () => {
  acceptButton.disabled = true;
  void (async () => {
    const media = await navigator.mediaDevices.getUserMedia(constraints);
    stream = media;
    local.srcObject = media;
    makePeer(false, media);
    send({ type: 'accept' });
    say('connecting');
  })();
});

socket.addEventListener('message', (event) => {
  const message = JSON.parse(String(event.data)) as Message;
  if (message.type === 'joined' && role === 'caller') void ring();
  else if (message.type === 'ring' && role === 'callee') {
    acceptButton.hidden = false;
    say('ringing');
  } else if (message.type === 'accept' && role === 'caller' && stream) {
    makePeer(true, stream);
    say('connecting');
  } else if (message.type === 'signal') {
    if (peer) peer.signal(message.data);
    else pending.push(message.data);
  }
});
socket.addEventListener('open', () => say(role === 'caller' ? 'waiting' : 'idle'));
