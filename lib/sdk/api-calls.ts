/**
 * Typed calls of the paid video calls' HTTP side (SPEC §3 Call, §7 `GET /api/users/{id}/call-packages`).
 * Ringing, answering, hanging up and the media signalling travel over the websocket
 * (`callMessage`, see stores/calls.ts); these read what the server keeps.
 *
 * API (stable):
 *
 *   callsApi(client)
 *     .call(callId)            GET /api/calls/{id}                 → Call (either party only; `not-found` for anyone else)
 *     .packages(userId)        GET /api/users/{id}/call-packages   → CallPackages (a minute's price, what each credit package buys)
 *     .iceServers(callId)      GET /api/calls/{id}/ice-servers     → CallIceServers (STUN, and TURN credentials of the viewer's own for `ttl` seconds; parties of an open call only)
 */
import type { Call, CallIceServers, CallPackages } from '../contract/calls';
import type { FanstageClient } from './client';

const seg = (value: number | string) => encodeURIComponent(String(value));

export function callsApi(client: FanstageClient) {
  return {
    /** One call as its caller or callee sees it: state, prices, minutes, cost or earnings. */
    call: (callId: string, signal?: AbortSignal) => client.get<Call>(`/api/calls/${seg(callId)}`, undefined, { signal }),
    /** What a minute with `userId` costs the viewer, and how many minutes each credit package buys. */
    packages: (userId: number, signal?: AbortSignal) => client.get<CallPackages>(`/api/users/${seg(userId)}/call-packages`, undefined, { signal }),
    /** The ICE servers of the viewer's side of a ringing or live call, TURN credentials minted for the viewer included. */
    iceServers: (callId: string, signal?: AbortSignal) => client.get<CallIceServers>(`/api/calls/${seg(callId)}/ice-servers`, undefined, { signal }),
  };
}

export type CallsApi = ReturnType<typeof callsApi>;
