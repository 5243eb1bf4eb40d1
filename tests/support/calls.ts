import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { TestAccount } from './accounts';
import { createAccount } from './accounts';
import { apiCaller } from './inject';
import type { TestServer } from './server';
import { connectSocket, type SocketClient } from './sockets';

/**
 * What the call suites share: a creator with a call price, call ids, the `callMessage` a party
 * sends, and the ring → accept of a call over real sockets (docs/calls.md).
 */

/** The creators' price in these suites: the 128-credit call step of SPEC §9 (stored cents). */
export const CALL_PRICE = 128;

/** A call id as the SDK makes one: 128 random bits, base64url. */
export const newCallId = (): string => randomBytes(16).toString('base64url');

/** Matches the `callMessage` of `type` in call `callId`. */
export const isCall =
  (callId: string, type: string) =>
  (message: { callId?: string; callMessageType?: string }): boolean =>
    message.callId === callId && message.callMessageType === type;

/** Sends a `callMessage` as a party's SDK does. */
export function sendCall(socket: SocketClient, callId: string, type: string, receiverId: number, body?: unknown): void {
  socket.send({ type: 'callMessage', callId, callMessageType: type, receiverId, ...(body === undefined ? {} : { callMessageBody: body }) });
}

/** A seller whose call price is `price` a minute, set as she would set it (PUT /api/users/me). */
export async function callingCreator(app: FastifyInstance, price = CALL_PRICE): Promise<TestAccount> {
  const account = await createAccount(app, { seller: true });
  const answer = await apiCaller(() => app)('PUT', '/api/users/me', account, { callPrice: price });
  expect(answer.json.statusCode).toBeGreaterThan(0);
  return account;
}

export interface RingingCall {
  callId: string;
  fanSocket: SocketClient;
  starSocket: SocketClient;
}

/** The fan rings the creator, each on a socket of `server`; the creator has it ringing. */
export async function ringCall(server: Pick<TestServer, 'baseUrl'>, fan: TestAccount, star: TestAccount): Promise<RingingCall> {
  const fanSocket = await connectSocket(server, fan);
  const starSocket = await connectSocket(server, star);
  const callId = newCallId();
  sendCall(fanSocket, callId, 'preOffer', star.id);
  await starSocket.nextOf('callMessage', 0, isCall(callId, 'preOffer'));
  return { callId, fanSocket, starSocket };
}

/** The creator accepts a ringing call: both get `callStart`. Answers when it started (the server's clock, ms). */
export async function acceptCall({ callId, fanSocket, starSocket }: RingingCall, fan: TestAccount): Promise<number> {
  sendCall(starSocket, callId, 'preAnswer', fan.id, { accept: true });
  const start = await fanSocket.nextOf('callMessage', 0, isCall(callId, 'callStart'));
  await starSocket.nextOf('callMessage', 0, isCall(callId, 'callStart'));
  return (start.callMessageBody as { started: number }).started;
}

export interface LiveCall extends RingingCall {
  /** The server's clock when the call went live (ms). */
  started: number;
}

/** The fan rings the creator and she accepts. */
export async function liveCall(server: Pick<TestServer, 'baseUrl'>, fan: TestAccount, star: TestAccount): Promise<LiveCall> {
  const ringing = await ringCall(server, fan, star);
  return { ...ringing, started: await acceptCall(ringing, fan) };
}
