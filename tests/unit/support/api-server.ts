import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the test server answers one request; it may delay, answer raw text, or never answer. */
export type Handler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface ApiServer {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Answers requests whose path (without query) equals `path`. */
  on(path: string, handler: Handler): void;
  close(): Promise<void>;
}

/** Writes an API envelope (SPEC §7) as JSON with the given HTTP status. */
export function sendEnvelope(response: ServerResponse, envelope: unknown, httpStatus = 200): void {
  response.writeHead(httpStatus, { 'content-type': 'application/json' });
  response.end(JSON.stringify(envelope));
}

/**
 * A real HTTP server on a free loopback port, so the SDK is tested through ofetch, fetch
 * and a socket exactly as it runs in a browser or on Node.
 */
export async function startApiServer(): Promise<ApiServer> {
  const handlers = new Map<string, Handler>();
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const handler = handlers.get(recorded.url.split('?')[0] ?? '/');
      if (!handler) {
        sendEnvelope(res, { statusCode: -1, statusText: 'route-not-found' }, 404);
        return;
      }
      void Promise.resolve(handler(recorded, res)).catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    on(path, handler) {
      handlers.set(path, handler);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Requests a test left hanging on purpose must not keep the server open.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** An address on which nothing listens: a port that was just free and is closed again. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
