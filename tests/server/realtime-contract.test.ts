import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { socketProtocols, type ServerMessage } from '../../lib/contract/realtime';
import { ClientMessageSchemas } from '../../lib/contract/socket';
import { loadConfig } from '../../server/src/config';
import { createRealtime, type Realtime } from '../../server/src/realtime';
import type { SocketFeature } from '../../server/src/realtime/transport';

/**
 * The transport checks every client message against the contract's schema of its type
 * (lib/contract/socket.ts) before any feature sees it. Here the transport runs for real, on a
 * real socket, with one feature that answers every type the contract knows and records what
 * reaches it: each type sent with one wrong field is answered `invalid-request` and never
 * reaches it; each well-formed one does.
 */

const callId = 'c4llIdOfTwentyTwoChars_x';
const call = (callMessageType: string, extra: Record<string, unknown> = {}) => ({ type: 'callMessage', callId, callMessageType, receiverId: 2, ...extra });

/** A well-formed message of every type a feature answers. */
const valid: Record<string, Record<string, unknown>[]> = {
  eventMessage: [{ type: 'eventMessage', event: 'typing', userId: 2 }],
  notificationsRead: [{ type: 'notificationsRead' }],
  chatMessage: [
    { type: 'chatMessage', msgId: 'draft-1', receiverId: 2, text: 'hi', price: 16 },
    { type: 'chatMessage', msgId: 'draft-2', receiverId: 2, text: null, mediaId: 3, giftId: null, confirmation: 'pS3kq2Lr8vXw1YbN0aZc7Q' },
  ],
  massChatMessage: [{ type: 'massChatMessage', msgId: 'mass-1', recGroup: 'followers', text: 'hello all', senderId: 1 }],
  chatReaction: [
    { type: 'chatReaction', messageId: 5, reactionId: 2 },
    { type: 'chatReaction', messageId: 5, reactionId: null },
  ],
  chatConvRead: [{ type: 'chatConvRead', userId: 2 }],
  resume: [{ type: 'resume', after: 0 }],
  profileVisit: [{ type: 'profileVisit', profileUserId: 2, userId: 1 }],
  newPost: [{ type: 'newPost', postId: 7 }],
  callMessage: [
    call('preOffer'),
    call('preOffer', { callMessageBody: {}, confirmation: 'pS3kq2Lr8vXw1YbN0aZc7Q' }),
    call('preAnswer', { callMessageBody: { accept: true } }),
    call('callStop', { callMessageBody: null }),
    call('rtcOffer', { callMessageBody: { signal: { type: 'offer', sdp: 'v=0' } } }),
    call('iceCandidate', { callMessageBody: { signal: { candidate: 'candidate:1 1 udp 1 10.0.0.1 9 typ host' } } }),
    call('chatMessage', { callMessageBody: { text: 'hi' } }),
    call('giftMessage', { callMessageBody: { giftId: 3 } }),
    call('remoteStream', { callMessageBody: { audio: true, video: false } }),
    call('viewFrame'),
    // The billing types pass the shape: the calls feature answers them `forbidden`.
    call('creditOK', { callMessageBody: { seconds: 60 } }),
  ],
};

/** Every type with a field of the wrong shape (or a required one left out). */
const wrong: Record<string, Record<string, unknown>[]> = {
  ping: [{ type: 'ping', ts: 'soon' }],
  pong: [{ type: 'pong', ts: { at: 1 } }],
  eventMessage: [
    { type: 'eventMessage', event: 'shouting', userId: 2 },
    { type: 'eventMessage', event: 'typing', userId: '2' },
    { type: 'eventMessage', event: 'typing' },
  ],
  notificationsRead: [],
  chatMessage: [
    { type: 'chatMessage', msgId: 'draft-3', receiverId: 0, text: 'hi' },
    { type: 'chatMessage', msgId: 'draft/4', receiverId: 2, text: 'hi' },
    { type: 'chatMessage', msgId: 'draft-5', receiverId: 2, text: 5 },
    { type: 'chatMessage', msgId: 'draft-6', receiverId: 2, mediaId: '3' },
    { type: 'chatMessage', msgId: 'draft-7', receiverId: 2, text: 'hi', price: 1.5 },
    { type: 'chatMessage', msgId: 'draft-8', receiverId: 2, text: 'hi', confirmation: 'not one/of ours' },
    { type: 'chatMessage', receiverId: 2, text: 'hi' },
  ],
  massChatMessage: [
    { type: 'massChatMessage', msgId: 'mass-2', recGroup: 'everybody', text: 'hi' },
    { type: 'massChatMessage', msgId: 'mass-3', recGroup: 'followers', mediaId: -1 },
    { type: 'massChatMessage', msgId: 'mass-4', recGroup: 'followers', senderId: 'me' },
  ],
  chatReaction: [
    { type: 'chatReaction', messageId: 'five', reactionId: 2 },
    { type: 'chatReaction', messageId: 5, reactionId: 1_001 },
  ],
  chatConvRead: [{ type: 'chatConvRead', userId: 2 ** 40 }],
  resume: [{ type: 'resume', after: -1 }, { type: 'resume', afterId: 5 }],
  profileVisit: [{ type: 'profileVisit', profileUserId: null }],
  newPost: [{ type: 'newPost', postId: 1.5 }],
  callMessage: [
    { ...call('preOffer'), callId: 'short' },
    { ...call('preOffer'), receiverId: '2' },
    call('ringing'),
    call('preOffer', { callMessageBody: 'hello' }),
    call('preOffer', { confirmation: 12 }),
    call('preAnswer', { callMessageBody: { accept: 'yes' } }),
    call('preAnswer'),
    call('callStop', { callMessageBody: [] }),
    call('rtcOffer', { callMessageBody: { signal: 5 } }),
    call('iceCandidate', { callMessageBody: {} }),
    call('chatMessage', { callMessageBody: { text: '' } }),
    call('giftMessage', { callMessageBody: { giftId: 'rose' } }),
    call('remoteStream', { callMessageBody: { audio: true } }),
    call('viewFrame', { callMessageBody: 7 }),
  ],
};

let realtime: Realtime;
let http: Server;
let url: string;
const reached: { type: string; fields: Record<string, unknown> }[] = [];

beforeAll(async () => {
  const config = loadConfig({ NODE_ENV: 'test' });
  realtime = createRealtime(config, pino({ level: 'silent' }), { messagesPerSecond: 1_000, messageBurst: 1_000 });
  const everyType = Object.keys(ClientMessageSchemas).filter((type) => type !== 'ping' && type !== 'pong');
  const recorder: SocketFeature = {
    name: 'recorder',
    types: everyType,
    async handle(peer, type, fields) {
      reached.push({ type, fields });
      peer.send({ type: 'pong', ts: reached.length });
    },
  };
  realtime.register(recorder);
  http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  realtime.start(http, async (token) => (token === 'good' ? { userId: 1, sessionFamily: null, origin: null } : null));
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/ws/`;
});

afterAll(async () => {
  await realtime?.close();
  await new Promise((resolve) => http?.close(resolve));
});

/** A connected socket that sends one message at a time and collects the answer to it. */
async function connect() {
  const socket = new WebSocket(url, socketProtocols('good'));
  const inbox: ServerMessage[] = [];
  let wake: (() => void) | null = null;
  socket.on('message', (data) => {
    inbox.push(JSON.parse(String(data)) as ServerMessage);
    wake?.();
  });
  const next = () =>
    new Promise<ServerMessage>((resolve) => {
      const take = () => {
        const message = inbox.shift();
        if (message === undefined) return;
        wake = null;
        resolve(message);
      };
      wake = take;
      take();
    });
  const hello = await next();
  expect(hello.type).toBe('hello');
  return {
    /** Sends `message` and answers what came back for it. */
    async ask(message: Record<string, unknown>): Promise<ServerMessage> {
      socket.send(JSON.stringify(message));
      return next();
    },
    close: () => socket.close(),
  };
}

describe('every client message is checked against its contract schema', () => {
  it('has a schema for every type a client may send', () => {
    expect(Object.keys(ClientMessageSchemas).sort()).toEqual(
      ['callMessage', 'chatConvRead', 'chatMessage', 'chatReaction', 'eventMessage', 'massChatMessage', 'newPost', 'notificationsRead', 'ping', 'pong', 'profileVisit', 'resume'].sort(),
    );
    for (const type of Object.keys(ClientMessageSchemas)) expect(Object.keys(wrong), type).toContain(type);
  });

  it('answers each type with a wrong field invalid-request, and none reaches a handler', async () => {
    const client = await connect();
    for (const [type, messages] of Object.entries(wrong)) {
      for (const message of messages) {
        const answer = await client.ask(message);
        const msgId = typeof message.msgId === 'string' && message.msgId.length <= 64 ? { msgId: message.msgId } : {};
        expect(answer, JSON.stringify(message)).toEqual({ type: 'error', statusText: 'invalid-request', ref: type, ...msgId });
      }
    }
    expect(reached).toEqual([]);
    client.close();
  });

  it('hands every well-formed message to its feature as it came', async () => {
    const client = await connect();
    reached.length = 0;
    const sent: Record<string, unknown>[] = [];
    for (const messages of Object.values(valid)) {
      for (const message of messages) {
        sent.push(message);
        expect(await client.ask(message), JSON.stringify(message)).toEqual({ type: 'pong', ts: sent.length });
      }
    }
    expect(reached.map((entry) => entry.fields)).toEqual(sent);
    expect(reached.map((entry) => entry.type)).toEqual(sent.map((message) => message.type));
    // The transport's own types pass too.
    expect(await client.ask({ type: 'ping', ts: 42 })).toEqual({ type: 'pong', ts: 42 });
    client.close();
  });

  it('keeps answering an unknown type invalid-request with its name', async () => {
    const client = await connect();
    expect(await client.ask({ type: 'shout', text: 'hi' })).toEqual({ type: 'error', statusText: 'invalid-request', ref: 'shout' });
    client.close();
  });

  it('refuses a feature that answers a type the contract has no schema for', () => {
    const other = createRealtime(loadConfig({ NODE_ENV: 'test' }), pino({ level: 'silent' }));
    expect(() => other.register({ name: 'unchecked', types: ['shout'], handle: async () => undefined })).toThrow(/no schema/);
  });
});
