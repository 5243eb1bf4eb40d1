import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header that carries a request's id, in the request from a proxy and in every answer. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What an id from a proxy may look like: nginx's `$request_id` (32 hex digits), a UUID, a trace id. */
const acceptedId = /^[A-Za-z0-9._:-]{8,64}$/;

/**
 * Fastify's `genReqId`: every request gets an id that its log lines carry (`requestId`), the
 * answer's `X-Request-Id` names and the SDK's errors keep (`SdkError.requestId`), so a user's
 * report leads to the lines of that request. Behind a proxy the server trusts (TRUST_PROXY) the
 * proxy's id is kept, so its access log and the server's meet; a client's own header is never
 * taken on its word elsewhere, since anyone could then write ids into another's lines.
 */
export function requestIds(trustProxy: boolean | string): (request: IncomingMessage) => string {
  const fromProxy = trustProxy !== false;
  return (request) => {
    const given = fromProxy ? request.headers[REQUEST_ID_HEADER] : undefined;
    return typeof given === 'string' && acceptedId.test(given) ? given : randomUUID();
  };
}
