import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { openCallStates, type CallIceServer, type CallIceServers } from '../../../../lib/contract/calls';
import type { TurnSettings } from '../../config';
import type { AppContext } from '../../context';
import { calls } from '../../db/schema';
import { AppError } from '../../errors';

/**
 * TURN credentials for the two people of a call (docs/calls.md "ICE servers and TURN").
 *
 * A TURN server relays anyone's traffic who holds a credential, so a credential published to
 * everyone (as ICE_SERVERS once was, in /papi/settings) is an open relay at the operator's cost.
 * Instead the server and coturn share a secret (`use-auth-secret`, `static-auth-secret`) and the
 * server mints, for one person of one open call, the credential coturn recomputes itself:
 * username `<expiry in unix seconds>:<userId>`, password base64(HMAC-SHA1(secret, username)).
 * Nothing is stored: coturn refuses it once the expiry has passed, and the user id in it says in
 * coturn's log whose relay it was.
 */
export function mintTurnCredential(turn: TurnSettings, userId: number, now: Date): { server: CallIceServer; expires: number } {
  const expires = Math.floor(now.getTime() / 1000) + turn.ttlSeconds;
  const username = `${expires}:${userId}`;
  const credential = createHmac('sha1', turn.secret).update(username).digest('base64');
  return { server: { urls: [...turn.urls], username, credential }, expires };
}

/**
 * `GET /api/calls/{id}/ice-servers`: for a party of a ringing or live call, the STUN servers of
 * ICE_SERVERS and a TURN credential of their own; anyone else, and a call that is over, `not-found`
 * (as `GET /api/calls/{id}` answers strangers, so a call id tells nobody anything).
 */
export async function iceServersForCall(ctx: AppContext, viewerId: number, callId: string): Promise<CallIceServers> {
  const [row] = await ctx.db.select({ callerId: calls.callerId, calleeId: calls.calleeId, state: calls.state }).from(calls).where(eq(calls.id, callId));
  if (row === undefined || (row.callerId !== viewerId && row.calleeId !== viewerId) || !(openCallStates as readonly string[]).includes(row.state)) {
    throw new AppError('not-found');
  }
  const stun = ctx.config.iceServers.map((server) => ({ urls: server.urls }));
  const turn = ctx.config.turn;
  if (turn === undefined) return { iceServers: stun, ttl: null };
  return { iceServers: [...stun, mintTurnCredential(turn, viewerId, ctx.clock.now()).server], ttl: turn.ttlSeconds };
}
