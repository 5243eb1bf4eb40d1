import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** The header that carries a request's id, in the request from a proxy and in every answer. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What an id from a proxy may look like: nginx's `$request_id` (32 hex digits), a UUID, a trace id. */
const acceptedId = /^[A-Za-z0-9._:-]{8,64}$/;

/**
 * Fastify's `genReqId`: every request gets an id that its log lines carry (`requestId`), the
 * answer's `X-Request-Id` names and the SDK's errors keep (`SdkError.requestId`), so a user's
 * report leads to the lines of that request. From a proxy the server trusts (TRUST_PROXY) the
 * proxy's id is kept, so its access log and the server's meet; a client's own header is never
 * taken on its word elsewhere, since anyone could then write ids into another's lines.
 */
export function requestIds(trustProxy: boolean | string): (request: IncomingMessage) => string {
  // The same trust Fastify gives X-Forwarded-For: the peer that sent the request must be a proxy
  // TRUST_PROXY names (a list of addresses and networks), or any peer when it is `true`.
  const trusted = trustProxy === false ? null : trustProxy === true ? () => true : proxyAddr.compile(trustProxy.split(','));
  return (request) => {
    const peer = request.socket.remoteAddress;
    const given = trusted !== null && peer !== undefined && trusted(peer, 0) ? request.headers[REQUEST_ID_HEADER] : undefined;
    return typeof given === 'string' && acceptedId.test(given) ? given : randomUUID();
  };
}
