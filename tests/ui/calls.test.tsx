import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WebSocket as NodeWebSocket } from 'ws';
import { createFanstage, fanPriceCents, formatPrice, type CallMediaDevices, type CallPeer, type CallPeerConstructor, type Fanstage, type WebSocketConstructor } from '../../lib/sdk';
import { CallButton, CallWindow, IncomingCall } from '../../lib/ui';
import type { TestServer } from '../support/server';
import { createAccount, type AccountOptions, type TestAccount } from '../support/accounts';
import { fundWallet } from '../support/money';
import { renderWith, violationsIn } from './support/auth';
import { startRealServer } from './support/realServer';

/**
 * The call components on the real server: real people ring each other over real websockets.
 * jsdom has neither a camera nor WebRTC: the camera is a stand-in for `navigator.mediaDevices`,
 * and simple-peer's place is taken by a peer that is never reached here (these screens end
 * before media flow; the two-browser journey covers that).
 */

let server: TestServer;
let salt = 10_000;
const made: Fanstage[] = [];

beforeAll(async () => {
  server = await startRealServer({ seed: false });
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
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
}, 30_000);

function camera(refuse?: string): CallMediaDevices {
  return {
    getUserMedia() {
      if (refuse) return Promise.reject(Object.assign(new Error(refuse), { name: refuse }));
      const tracks = (['audio', 'video'] as const).map((kind) => ({ kind, enabled: true, stop() {} }));
      return Promise.resolve({
        getTracks: () => tracks,
        getAudioTracks: () => tracks.filter((t) => t.kind === 'audio'),
        getVideoTracks: () => tracks.filter((t) => t.kind === 'video'),
      } as unknown as MediaStream);
    },
  };
}

/** Where simple-peer would be; these tests end before any peer is made. */
const NoPeer = class {
  constructor() {
    throw new Error('no WebRTC in jsdom');
  }
} as unknown as CallPeerConstructor & (new () => CallPeer);

interface Person {
  account: TestAccount;
  fanstage: Fanstage;
}

async function person(options: AccountOptions = {}, { refuse, connect = true }: { refuse?: string; connect?: boolean } = {}): Promise<Person> {
  return pageOf(await createAccount(server.app, options), { refuse, connect });
}

/** A page of `account`'s: its own SDK, session and socket. */
async function pageOf(account: TestAccount, { refuse, connect = true }: { refuse?: string | undefined; connect?: boolean } = {}): Promise<Person> {
  const fanstage = createFanstage({
    baseUrl: server.baseUrl,
    socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor, reconnectMs: 50 },
    calls: { Peer: NoPeer, mediaDevices: camera(refuse), networkEvents: null },
  });
  made.push(fanstage);
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  if (connect) {
    fanstage.socket.connect();
    await vi.waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'), { timeout: 5000 });
  }
  return { account, fanstage };
}

async function creator(cents = 128, username?: string): Promise<Person> {
  const seller = await person({ seller: true, ...(username ? { username } : {}) });
  seller.fanstage.session.setAccount(await seller.fanstage.account.updateMe({ callPrice: cents, displayName: 'Lucy Rivers' }));
  return seller;
}

async function fan(options: AccountOptions = {}, refuse?: string): Promise<Person> {
  const someone = await person(options, refuse ? { refuse } : {});
  await fundWallet(server.app, someone.account.id, 10_000);
  someone.fanstage.session.setAccount(await someone.fanstage.account.updateMe({ displayName: 'Marek Fan' }));
  await someone.fanstage.wallet.refresh();
  return someone;
}

describe('CallButton', { timeout: 30_000 }, () => {
  it('says the fan’s price a minute and rings the creator, who sees the incoming call', async () => {
    const lucy = await creator(128);
    const marek = await fan();
    const onStarted = vi.fn();
    const { container } = renderWith(marek.fanstage, <CallButton creator={lucy.account.username} onStarted={onStarted} />);

    const button = await screen.findByRole('button', { name: new RegExp(`Call · \\${formatPrice(128, salt)}/min`) });
    expect(button).toHaveTextContent(`Call · ${formatPrice(128, salt)}/min`);
    expect(button).toHaveAccessibleName(`Call · ${formatPrice(128, salt)}/min — Video call with Lucy Rivers`);
    expect(await violationsIn(container)).toEqual([]);

    await userEvent.click(button);
    await waitFor(() => expect(onStarted).toHaveBeenCalledTimes(1));
    const callId = onStarted.mock.calls[0]?.[0] as string;
    expect(marek.fanstage.calls.current.value).toMatchObject({ callId, phase: 'calling', agreedPrice: fanPriceCents(128, salt) });
    await vi.waitFor(() => expect(lucy.fanstage.calls.incoming.value?.callId).toBe(callId), { timeout: 5000 });
    // One call at a time: the button now says why it cannot ring again.
    await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    expect(button).toHaveAccessibleDescription('You are already in a call.');
  });

  it('is disabled with the reason for a fan whose e-mail is not verified, and absent on one’s own profile or a profile that takes no calls', async () => {
    const lucy = await creator(128);
    const unverified = await fan({ verified: false });
    renderWith(unverified.fanstage, <CallButton creator={lucy.account.username} />);
    const button = await screen.findByRole('button', { name: /Call ·/ });
    await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    expect(button).toHaveAccessibleDescription('Verify your e-mail address to call.');
    await userEvent.click(button);
    expect(unverified.fanstage.calls.phase.value).toBe('idle');

    const own = renderWith(lucy.fanstage, <CallButton creator={lucy.account.username} />);
    const someoneElse = await fan();
    const notCreator = renderWith(lucy.fanstage, <CallButton creator={someoneElse.account.username} />);
    await lucy.fanstage.profiles.load(someoneElse.account.username);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(own.container.querySelector('button')).toBeNull();
    expect(notCreator.container.querySelector('button')).toBeNull();
  });

  it('asks a visitor to sign in first, and tells a fan whose camera is refused why nothing rang', async () => {
    const lucy = await creator(64);
    const visitor = createFanstage({ baseUrl: server.baseUrl, calls: { Peer: NoPeer, mediaDevices: camera(), networkEvents: null } });
    made.push(visitor);
    const onLoginRequired = vi.fn(() => false);
    renderWith(visitor, <CallButton creator={lucy.account.username} onLoginRequired={onLoginRequired} />);
    await userEvent.click(await screen.findByRole('button', { name: /Call ·/ }));
    expect(onLoginRequired).toHaveBeenCalledTimes(1);
    expect(visitor.calls.phase.value).toBe('idle');

    const refused = await fan({}, 'NotAllowedError');
    const second = renderWith(refused.fanstage, <CallButton creator={lucy.account.username} />);
    await userEvent.click(await within(second.container).findByRole('button', { name: /Call ·/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your camera and microphone are blocked.');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lucy.fanstage.calls.phase.value).toBe('idle');
  });

  it('offers a top-up instead of ringing when the fan has less than a minute’s credits', async () => {
    const lucy = await creator(1280);
    const poor = await person();
    await poor.fanstage.wallet.refresh();
    renderWith(poor.fanstage, <CallButton creator={lucy.account.username} />);
    await userEvent.click(await screen.findByRole('button', { name: /Call ·/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Buy credits for your call' });
    expect(dialog).toHaveTextContent(`A minute with Lucy Rivers costs ${formatPrice(1280, salt)}.`);
    expect(poor.fanstage.calls.phase.value).toBe('idle');
  });
});

describe('IncomingCall', { timeout: 30_000 }, () => {
  it('shows who calls and what a minute earns, focuses Accept, and a decline ends the fan’s ring', async () => {
    const lucy = await creator(128);
    const marek = await fan();
    const { container } = renderWith(lucy.fanstage, <IncomingCall />);
    expect(container.querySelector('[role="alertdialog"]')).toBeNull();

    await marek.fanstage.calls.start({ id: lucy.account.id, username: lucy.account.username, callPrice: 128 });
    const dialog = await screen.findByRole('alertdialog', { name: 'Marek Fan is calling' });
    expect(dialog).toHaveAccessibleDescription('You earn $1.28 a minute');
    const accept = screen.getByRole('button', { name: 'Accept' });
    await waitFor(() => expect(accept).toHaveFocus());
    expect(await violationsIn(container)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await vi.waitFor(() => expect(marek.fanstage.calls.current.value).toMatchObject({ phase: 'ended', endReason: 'declined' }), { timeout: 5000 });
  });

  it('speaks Czech and keeps ringing with the reason when the creator’s camera is refused', async () => {
    const lucy = await person({ seller: true }, { refuse: 'NotFoundError' });
    lucy.fanstage.session.setAccount(await lucy.fanstage.account.updateMe({ callPrice: 128 }));
    const marek = await fan();
    renderWith(lucy.fanstage, <IncomingCall />, 'cs');
    await marek.fanstage.calls.start({ id: lucy.account.id, username: lucy.account.username, callPrice: 128 });
    await screen.findByRole('alertdialog', { name: 'Volá Marek Fan' });
    await userEvent.click(screen.getByRole('button', { name: 'Přijmout' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Nenašla se žádná kamera ani mikrofon.');
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    expect(lucy.fanstage.calls.phase.value).toBe('ringing');
  });

  it('shows the call in the tab’s title and icon while it rings, and puts back the page’s own when it stops', async () => {
    const lucy = await creator(128);
    const marek = await fan();
    document.title = 'Timeline · Fanstage';
    const icon = document.head.appendChild(document.createElement('link'));
    icon.rel = 'icon';
    icon.href = '/favicon.svg';
    try {
      renderWith(lucy.fanstage, <IncomingCall />);
      await marek.fanstage.calls.start({ id: lucy.account.id, username: lucy.account.username, callPrice: 128 });
      await screen.findByRole('alertdialog', { name: 'Marek Fan is calling' });
      expect(document.title).toBe('📞 Marek Fan is calling…');
      expect(icon.getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
      marek.fanstage.calls.hangUp();
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      expect(document.title).toBe('Timeline · Fanstage');
      expect(icon.getAttribute('href')).toBe('/favicon.svg');
    } finally {
      icon.remove();
    }
  });

  it('rings on a page that was not open when the call came (ring by id), and tells why when the call is over or answered elsewhere', async () => {
    const lucy = await creator(128);
    const marek = await fan();
    const started = await marek.fanstage.calls.start({ id: lucy.account.id, username: lucy.account.username, callPrice: 128 });
    expect(started.ok).toBe(true);
    const callId = (started as { callId: string }).callId;
    await vi.waitFor(() => expect(lucy.fanstage.calls.phase.value).toBe('ringing'), { timeout: 5000 });
    // A second page of hers, opened afterwards: its socket never heard the ring.
    const later = await pageOf(lucy.account);
    renderWith(later.fanstage, <IncomingCall />);
    expect(await later.fanstage.calls.ring(callId)).toBe('ringing');
    await screen.findByRole('alertdialog', { name: 'Marek Fan is calling' });

    // The first page answers: the second stops ringing, and the call is taken for it.
    expect(await lucy.fanstage.calls.accept()).toBe(true);
    await vi.waitFor(() => expect(later.fanstage.calls.current.value).toBeNull(), { timeout: 5000 });
    expect(await later.fanstage.calls.ring(callId)).toBe('taken');
    marek.fanstage.calls.hangUp();
    await vi.waitFor(async () => expect(await later.fanstage.calls.ring(callId)).toBe('over'), { timeout: 5000 });
    expect(await later.fanstage.calls.ring('AAAAAAAAAAAAAAAAAAAAAAAA')).toBe('not-found');
  });
});

describe('CallWindow', { timeout: 30_000 }, () => {
  it('shows the outgoing ring with the price, hangs up, and closes on the end screen', async () => {
    const lucy = await creator(128);
    const marek = await fan();
    const onClosed = vi.fn();
    const started = await marek.fanstage.calls.start({ id: lucy.account.id, username: lucy.account.username, displayName: 'Lucy Rivers', callPrice: 128 });
    const callId = started.ok ? started.callId : '';
    const { container } = renderWith(marek.fanstage, <CallWindow callId={callId} onClosed={onClosed} />);

    expect(await screen.findByRole('heading', { name: 'Calling Lucy Rivers…' })).toBeInTheDocument();
    expect(screen.getByText(`$${(fanPriceCents(128, salt) / 100).toFixed(2)}/min`)).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Video call with Lucy Rivers' })).toBeInTheDocument();
    expect(await violationsIn(container)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Mute' }));
    expect(screen.getByRole('button', { name: 'Unmute' })).toHaveAttribute('aria-pressed', 'true');
    expect(marek.fanstage.calls.microphoneOn.value).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Hang up' }));
    expect(await screen.findByText('The call was cancelled.')).toBeInTheDocument();
    expect(screen.getByTestId('call-totals')).toHaveTextContent('0 minutes · You paid $0.00');
    await vi.waitFor(() => expect(lucy.fanstage.calls.phase.value).toBe('idle'), { timeout: 5000 });
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClosed).toHaveBeenCalledTimes(1);
    expect(marek.fanstage.calls.phase.value).toBe('idle');
  });

  it('says so when the call asked for is not on this page and the server has no record of it for the viewer', async () => {
    const marek = await fan();
    const onClosed = vi.fn();
    renderWith(marek.fanstage, <CallWindow callId="AAAAAAAAAAAAAAAAAAAAAA" onClosed={onClosed} />);
    expect(await screen.findByRole('heading', { name: 'This call is not on this page.' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(onClosed).toHaveBeenCalledTimes(1);
  });
});
