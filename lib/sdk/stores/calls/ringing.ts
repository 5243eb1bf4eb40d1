/**
 * The callee's side of a call: a ring that comes (`preOffer`), or that a page opened from the
 * ring's notification asks the server about (`ring(callId)`), and the answer to it. A ring while
 * the viewer is in a call is answered busy (57); the viewer's own ring echoed to another tab of
 * theirs rings nothing there.
 */
import type { Call } from '../../../contract';
import { CALL_RING_TIMEOUT_S, CallStatus } from '../../../contract/rules/calls';
import { fanPriceCents } from '../../rules/price';
import type { CallCore } from './core';
import type { CallOffer } from './signalling';
import type { CallRingOutcome } from './types';

export function createRinging(core: CallCore) {
  const { current, session, settings } = core;

  /** Someone rings the viewer. */
  function offered(callId: string, senderId: number, offer: CallOffer): void {
    const call = current.peek();
    if (call && call.callId === callId) return;
    // Echo of the viewer's own ring on another tab: nothing rings there.
    if (senderId === session.userId.peek()) return;
    if (call !== null && call.phase !== 'ended') {
      core.send('preAnswer', { accept: false, status: CallStatus.busy }, { callId, peerId: senderId });
      return;
    }
    if (call) core.teardown();
    const party = offer.caller;
    if (party.id <= 0 || party.id === session.userId.peek()) return;
    const salt = settings.settings.peek()?.salt ?? null;
    const ownPrice = session.account.peek()?.callPrice ?? 0;
    const earningsPrice = offer.earningsPrice ?? ownPrice;
    const agreedPrice = offer.agreedPrice ?? (salt !== null ? fanPriceCents(earningsPrice, salt) : earningsPrice);
    const s = core.newScope(callId, 'incoming', party.id, false);
    core.begin(s, { type: 'rang', callId, peer: party, agreedPrice, earningsPrice }, core.socket.connectedState.peek() !== 'open');
    if (offer.agreedPrice === null && salt === null) {
      // Settings not loaded yet: the fan's price follows as soon as the salt is known.
      void settings.load().then(
        (loaded) => core.dispatch({ type: 'priced', callId, agreedPrice: fanPriceCents(earningsPrice, loaded.salt) }),
        () => undefined,
      );
    }
    // While it rings, what the answer will need is fetched: simple-peer and this call's ICE
    // servers, so accepting goes straight to the connection.
    core.connection.preload();
    core.connection.prefetchIce(s);
    // The server rings for 120 s; nobody answering here, the ring stops a little after.
    s.timers.add(() => {
      if (current.peek()?.phase === 'ringing') {
        core.end('missed');
        core.dismiss();
      }
    }, CALL_RING_TIMEOUT_S * 1000 + core.ringGraceMs);
  }

  async function accept(): Promise<boolean> {
    const s = core.state();
    const call = current.peek();
    if (!s || !call || call.phase !== 'ringing') return false;
    s.ownedHere = true;
    const stream = await core.media.acquire(() => core.state() === s);
    if (core.state() !== s || current.peek()?.phase !== 'ringing') return false;
    if (!stream) {
      // Still ringing: the creator may allow the camera and answer, or decline.
      s.ownedHere = false;
      return false;
    }
    // A page just opened to answer (from a notification) may still be connecting.
    if (!(await core.socketOpen(5000)) || core.state() !== s || current.peek()?.phase !== 'ringing') {
      s.ownedHere = false;
      if (core.state() === s) core.problem.value = 'offline';
      return false;
    }
    if (!core.send('preAnswer', { accept: true })) {
      s.ownedHere = false;
      core.problem.value = 'offline';
      return false;
    }
    core.dispatch({ type: 'answered' });
    return true;
  }

  function decline(): void {
    const call = current.peek();
    if (!call || call.phase !== 'ringing') return;
    core.send('preAnswer', { accept: false, status: CallStatus.declined });
    core.end('declined');
    core.dismiss();
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
      record = await core.api.call(callId);
    } catch {
      return 'not-found';
    }
    const latest = current.peek();
    if (latest?.callId === callId) return latest.phase === 'ringing' ? 'ringing' : latest.phase === 'ended' ? 'over' : 'taken';
    if (!record.callIsIncoming) return 'not-found';
    if (record.state === 'live') return 'taken';
    if (record.state !== 'ringing') return 'over';
    if (latest && latest.phase !== 'ended') return 'busy';
    offered(callId, record.caller.id, { caller: record.caller, agreedPrice: record.agreedPrice, earningsPrice: record.earningsPrice });
    return current.peek()?.callId === callId ? 'ringing' : 'over';
  }

  return { offered, accept, decline, ring };
}
