import type { FastifyServerOptions } from 'fastify';

/**
 * Query parameters that carry a secret: an access token (older websocket clients sent one in
 * the address), OAuth 1 tokens and verifiers, and a locked media's unlock key (`k`). A log line
 * is read by more people than the ones who may use what it holds, so their values are replaced
 * before anything is written.
 */
const secretParameters: ReadonlySet<string> = new Set(['token', 'access_token', 'refresh_token', 'oauth_token', 'oauth_verifier', 'k']);

/** `url` with the values of secret query parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const pairs = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A name that does not decode is kept as it came.
      }
      return equals >= 0 && secretParameters.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, query)}?${pairs.join('&')}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/**
 * Fastify's logger options with the request serializer that logs what Fastify's own does
 * (method, url, host, address, port), the url redacted.
 */
export function withRedactedRequests(logger: Exclude<FastifyServerOptions['logger'], undefined | boolean>): FastifyServerOptions['logger'] {
  const options = logger as Record<string, unknown>;
  const serializers = (options.serializers as Record<string, unknown> | undefined) ?? {};
  return {
    ...options,
    serializers: {
      ...serializers,
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host ?? request.hostname,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  } as FastifyServerOptions['logger'];
}
