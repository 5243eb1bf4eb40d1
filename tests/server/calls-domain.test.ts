import { describe, expect, it } from 'vitest';
import { CallStatus } from '../../lib/contract/calls';
import { ConfigError, loadConfig } from '../../server/src/config';
import {
  canTransition,
  finalStateOf,
  minutesBegun,
  minutesToPay,
  minutesToPayAfterCrash,
  parseCallMessage,
  reserveDueAt,
  secondsLeft,
  statusOfEnd,
} from '../../server/src/features/calls/domain';

/** The pure rules of calls (server/src/features/calls/domain.ts). */

const id = 'AAAAAAAAAAAAAAAAAAAAAA';
const S = 1_000_000;

describe('call messages from a client', () => {
  it('takes a well-formed message and keeps only what its type carries', () => {
    expect(parseCallMessage({ callId: id, callMessageType: 'preAnswer', receiverId: 7, callMessageBody: { accept: true, status: 24 } }, 3)).toEqual({
      value: { callId: id, type: 'preAnswer', receiverId: 7, body: { accept: true } },
    });
    expect(parseCallMessage({ callId: id, callMessageType: 'preOffer', receiverId: 7, callMessageBody: { agreedPrice: 1 } }, 3)).toMatchObject({ value: { body: {} } });
    expect(parseCallMessage({ callId: id, callMessageType: 'chatMessage', receiverId: 7, callMessageBody: { text: ' hi ' } }, 3)).toMatchObject({ value: { body: { text: 'hi' } } });
  });

  it('refuses the server’s own types as forbidden, and anything malformed as invalid', () => {
    for (const type of ['creditOK', 'askForMoney', 'callEarnings', 'timeLeft', 'callStart']) {
      expect(parseCallMessage({ callId: id, callMessageType: type, receiverId: 7 }, 3)).toMatchObject({ problem: 'forbidden' });
    }
    const problems = [
      { callId: 'short', callMessageType: 'preOffer', receiverId: 7 },
      { callId: `${id}!`, callMessageType: 'preOffer', receiverId: 7 },
      { callId: 'A'.repeat(65), callMessageType: 'preOffer', receiverId: 7 },
      { callId: id, callMessageType: 'dance', receiverId: 7 },
      { callId: id, callMessageType: 'preOffer', receiverId: 2 ** 31 },
      { callId: id, callMessageType: 'preAnswer', receiverId: 7 },
      { callId: id, callMessageType: 'rtcOffer', receiverId: 7, callMessageBody: { signal: 'x'.repeat(13_000) } },
      { callId: id, callMessageType: 'rtcOffer', receiverId: 7, callMessageBody: [] },
      { callId: id, callMessageType: 'giftMessage', receiverId: 7, callMessageBody: { giftId: 0 } },
      { callId: id, callMessageType: 'chatMessage', receiverId: 7, callMessageBody: { text: '   ' } },
    ].map((fields) => parseCallMessage(fields, 3));
    expect(problems.map((p) => ('problem' in p ? p.problem : 'ok'))).toEqual(Array(problems.length).fill('invalid-request'));
    expect(parseCallMessage({ callId: id, callMessageType: 'preOffer', receiverId: 3 }, 3)).toMatchObject({ problem: 'cannot-target-self' });
    expect(parseCallMessage({ callId: id, callMessageType: 'chatMessage', receiverId: 7, callMessageBody: { text: 'x'.repeat(2001) } }, 3)).toMatchObject({ problem: 'message-too-long' });
  });
});

describe('the minutes of a call', () => {
  it('counts the first instant as minute one, and each 60 s after as the next', () => {
    expect(minutesBegun(S, S - 1)).toBe(0);
    expect(minutesBegun(S, S)).toBe(1);
    expect(minutesBegun(S, S + 59_999)).toBe(1);
    expect(minutesBegun(S, S + 60_000)).toBe(2);
    expect(reserveDueAt(S, 1)).toBe(S + 10_000);
    expect(secondsLeft(S, 2, S + 35_000)).toBe(85);
    expect(secondsLeft(S, 1, S + 61_000)).toBe(0);
  });

  it('never pays a minute that was not held, and after a crash only those begun before the lease was last renewed', () => {
    expect(minutesToPay(S, S + 150_000, 4)).toBe(3);
    expect(minutesToPay(S, S + 150_000, 2)).toBe(2);
    // Lease renewed at 35 s (until 50 s): one minute begun; renewed at 65 s: two.
    expect(minutesToPayAfterCrash(S, S + 50_000, 2)).toBe(1);
    expect(minutesToPayAfterCrash(S, S + 80_000, 2)).toBe(2);
    // Renewed at the start: the first minute, which the accept held.
    expect(minutesToPayAfterCrash(S, S + 15_000, 1)).toBe(1);
  });
});

describe('the states of a call', () => {
  it('moves ringing to live or a final state, live only to ended', () => {
    expect(canTransition('ringing', 'live')).toBe(true);
    expect(canTransition('ringing', 'missed')).toBe(true);
    expect(canTransition('live', 'ended')).toBe(true);
    expect(canTransition('live', 'declined')).toBe(false);
    expect(canTransition('ended', 'live')).toBe(false);
    expect(finalStateOf('hangup', true)).toBe('ended');
    expect(finalStateOf('hangup', false)).toBe('cancelled');
    expect(finalStateOf('missed', false)).toBe('missed');
  });

  it('gives each end its SPEC status code', () => {
    expect(statusOfEnd('declined')).toBe(CallStatus.declined);
    expect(statusOfEnd('missed')).toBe(55);
    expect(statusOfEnd('busy')).toBe(57);
    expect(statusOfEnd('noCredit')).toBe(51);
    expect(statusOfEnd('couldNotBePaid')).toBe(53);
    expect(statusOfEnd('hangup')).toBe(58);
    expect(statusOfEnd('failed')).toBe(58);
  });
});

describe('ICE_SERVERS', () => {
  it('reads a JSON array of STUN servers, and none by default', () => {
    expect(loadConfig({}).iceServers).toEqual([]);
    expect(loadConfig({ ICE_SERVERS: '[{"urls":"stun:stun.example:3478"},{"urls":["stun:a.example:3478","stun:b.example:3478"]}]' }).iceServers).toEqual([
      { urls: 'stun:stun.example:3478' },
      { urls: ['stun:a.example:3478', 'stun:b.example:3478'] },
    ]);
  });

  it('refuses at start what a browser would refuse later', () => {
    for (const value of ['not json', '{"urls":"stun:x"}', '[{"url":"stun:x"}]', '[{"urls":"http://x"}]', '[{"urls":[]}]', '[{"urls":"turn:x","username":1}]', '[null]']) {
      expect(() => loadConfig({ ICE_SERVERS: value }), value).toThrow(ConfigError);
    }
  });

  it('refuses a TURN credential, which /papi/settings would show anyone, and points to TURN_SECRET', () => {
    for (const value of ['[{"urls":"turn:turn.example:3478","username":"u","credential":"c"}]', '[{"urls":"turn:turn.example:3478","credential":"c"}]']) {
      expect(() => loadConfig({ ICE_SERVERS: value }), value).toThrow(/TURN_SECRET/);
    }
  });
});

describe('TURN_URLS, TURN_SECRET and TURN_TTL', () => {
  const secret = 'a-long-random-shared-secret';

  it('are none by default, and read together with a ttl of an hour unless set', () => {
    expect(loadConfig({}).turn).toBeUndefined();
    expect(loadConfig({ TURN_URLS: 'turn:turn.example:3478?transport=udp, turns:turn.example:5349?transport=tcp', TURN_SECRET: secret }).turn).toEqual({
      urls: ['turn:turn.example:3478?transport=udp', 'turns:turn.example:5349?transport=tcp'],
      secret,
      ttlSeconds: 3600,
    });
    expect(loadConfig({ TURN_URLS: 'turn:turn.example:3478', TURN_SECRET: secret, TURN_TTL: '600' }).turn?.ttlSeconds).toBe(600);
  });

  it('refuse one without the other, addresses that are not turn:, a short secret and a ttl alone', () => {
    for (const env of [
      { TURN_URLS: 'turn:turn.example:3478' },
      { TURN_SECRET: secret },
      { TURN_URLS: 'stun:turn.example:3478', TURN_SECRET: secret },
      { TURN_URLS: 'https://turn.example', TURN_SECRET: secret },
      { TURN_URLS: 'turn:turn.example:3478', TURN_SECRET: 'short' },
      { TURN_URLS: 'turn:turn.example:3478', TURN_SECRET: secret, TURN_TTL: '10' },
      { TURN_TTL: '600' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
    expect(() => loadConfig({ TURN_URLS: 'turn:turn.example:3478' })).toThrow(/TURN_URLS and TURN_SECRET must be set together/);
  });
});
