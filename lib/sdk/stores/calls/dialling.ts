/**
 * The caller's side of a call: ringing a creator (camera and microphone first, then the ring
 * once the realtime connection is open), and the server's refusals of that ring — a partner
 * site's spend the fan confirms in the platform's popup (docs/spending.md), a call answered on
 * another device, a ring refused outright (blocked, unverified e-mail, not a creator ...).
 */
import { CALL_RING_TIMEOUT_S } from '../../../contract/rules/calls';
import { SdkError } from '../../errors';
import { goesOn } from '../../spendConfirm';
import { fanPriceCents } from '../../rules/price';
import { newCallId, type CallCore } from './core';
import type { CallRefusal } from './signalling';
import type { CallCallee, CallStartResult } from './types';

/** A refusal of the server's (a `callMessage` it answered with `error`), as every store reports failures. */
export function refusalError(code: string): SdkError {
  return new SdkError({ code, statusCode: -1 });
}

export function createDialling(core: CallCore, drop: (error: SdkError) => void) {
  const { current, session, settings, problem, error } = core;

  async function start(callee: CallCallee): Promise<CallStartResult> {
    const call = current.peek();
    if (call && call.phase !== 'ended') return { ok: false, problem: 'in-call' };
    if (!session.account.peek() && session.isLoggedIn.peek()) await session.loadAccount?.().catch(() => undefined);
    const me = session.account.peek();
    if (!me) return { ok: false, problem: 'logged-out' };
    if (current.peek() && current.peek()?.phase !== 'ended') return { ok: false, problem: 'in-call' };
    if (me.id === callee.id) return { ok: false, problem: 'self' };
    if (call) core.dismiss();
    const salt = (await settings.load().catch(() => null))?.salt ?? null;
    if (current.peek()) return { ok: false, problem: 'in-call' };
    const callId = newCallId();
    const s = core.newScope(callId, 'outgoing', callee.id, true);
    const peer = { id: callee.id, username: callee.username, displayName: callee.displayName ?? '', avatarUrl: callee.avatarUrl ?? null };
    const agreedPrice = salt !== null ? fanPriceCents(callee.callPrice, salt) : callee.callPrice;
    core.begin(s, { type: 'dial', callId, peer, agreedPrice, earningsPrice: callee.callPrice }, false);
    // The camera and microphone first: nobody should ring for a call that cannot be seen.
    const stream = await core.media.acquire(() => core.state() === s);
    if (core.state() !== s) return { ok: false, problem: 'in-call' };
    if (!stream) {
      const cause = problem.peek() ?? 'media-unsupported';
      core.end('failed');
      return { ok: false, problem: cause };
    }
    // A page that just signed in may still be connecting: the ring waits for the connection.
    if (!(await core.socketOpen(5000)) || core.state() !== s) {
      if (core.state() === s) {
        core.end('failed');
        problem.value = 'offline';
      }
      return { ok: false, problem: 'offline' };
    }
    if (!core.send('preOffer', {})) {
      core.end('failed');
      problem.value = 'offline';
      return { ok: false, problem: 'offline' };
    }
    // simple-peer loads while the other side rings, not after she accepts.
    core.connection.preload();
    // The server ends an unanswered ring after 120 s; if its word never comes, stop anyway.
    s.timers.add(() => {
      if (current.peek()?.phase === 'calling') {
        core.send('callStop', { reason: 'missed' });
        core.end('missed');
      }
    }, CALL_RING_TIMEOUT_S * 1000 + core.ringGraceMs);
    return { ok: true, callId };
  }

  function refused({ statusText, msgId, body }: CallRefusal): void {
    const call = current.peek();
    // A paid call from a partner site: the fan accepts the price per minute in the platform's
    // popup, and the ring goes again with his confirmation.
    if (call && call.phase === 'calling' && statusText === 'confirmation-required' && body && msgId === call.callId) {
      const asked = core.client.confirmSpend(body);
      if (asked !== null) {
        const s = core.state();
        asked.then(
          (answer) => {
            if (core.state() !== s || current.peek()?.phase !== 'calling') return;
            if (!goesOn(answer) || !s) {
              error.value = refusalError('spend-cancelled');
              core.end('failed');
              return;
            }
            core.send('preOffer', {}, s, answer.id);
          },
          (cause: unknown) => {
            if (core.state() !== s) return;
            error.value = cause instanceof SdkError ? cause : refusalError('spend-cancelled');
            core.end('failed');
          },
        );
        return;
      }
    }
    // Answered on another page or device first: this one stops, and sends nothing more.
    if (call && call.direction === 'incoming' && statusText === 'call-taken' && msgId === call.callId) return drop(refusalError('call-taken'));
    // A ring the server refused (blocked, unverified e-mail, not a creator ...).
    if (call && call.phase === 'calling') {
      error.value = refusalError(statusText);
      core.end('failed');
    }
  }

  return { start, refused };
}
