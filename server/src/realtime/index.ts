/**
 * The websocket: one node's connections by user, delivery to them and (through the Redis bus)
 * to every other node's, logouts, the upgrade with its token and origin checks, admitting client
 * messages against their budget, and the heartbeat. Its API is in `api.ts`, a connection's state
 * and budget in `connection.ts`, the handling of a client message in `client-messages.ts`.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { RealtimeTiming } from '../../../lib/contract/constants';
import { CloseCodes, REALTIME_PROTOCOL, tokenOfProtocols, type LogoutReason, type ServerMessage } from '../../../lib/contract/realtime';
import type { Config } from '../config';
import { isDatabaseUnavailable } from '../db/availability';
import { sourceOfHeaders } from '../http/origins';
import type { Realtime, RealtimeOptions, RealtimePublisher } from './api';
import { createRedisBus, type Bus, type BusEvent } from './bus';
import { hasClientSchema } from './checks';
import { createClientMessages } from './client-messages';
import { abuseAfterRefusals, refusedChatMessage, takeToken, type Connection } from './connection';
import type { SocketAuthenticator, SocketFeature, SocketPeer } from './transport';

export type { Realtime, RealtimeOptions, RealtimePublisher } from './api';
export type { SocketAuthenticator, SocketFeature, SocketIdentity, SocketPeer } from './transport';

/** How long a node gathers writes before announcing them to the others (one bus message). */
const writeAnnouncementMs = 50;

/** The websocket's address (SPEC §7); `/ws` without the slash is accepted too. */
export const realtimePath = '/ws/';
/** The largest client frame accepted; client messages are small JSON objects. */
const maxPayloadBytes = 16 * 1024;

export function createRealtime(config: Config, log: FastifyBaseLogger, options: RealtimeOptions = {}): Realtime {
  const nodeId = randomBytes(8).toString('hex');
  const heartbeatMs = options.heartbeatMs ?? RealtimeTiming.heartbeatMs;
  const maxBuffered = options.maxBufferedBytes ?? 1_048_576;
  const rate = options.messagesPerSecond ?? 20;
  const burst = options.messageBurst ?? 40;
  const byUser = new Map<number, Set<Connection>>();
  let counter = 0;
  const features: SocketFeature[] = [];
  const handlers = new Map<string, SocketFeature>();
  let authenticate: SocketAuthenticator | undefined;
  let wss: WebSocketServer | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let detach: (() => void) | undefined;
  let closing = false;

  const bus: Bus | null =
    config.redisUrl === undefined
      ? null
      : createRedisBus(
          config.redisUrl,
          nodeId,
          log,
          (event) => applyLocally(event),
          () => {
            for (const connections of byUser.values()) for (const connection of connections) send(connection, { type: 'catchUp' });
          },
        );
  const writeListeners: (() => void)[] = [];
  const logoutListeners: ((userId: number) => void)[] = [];
  /** A write announcement waiting to go out: writes within this window travel as one message. */
  let writeAnnouncement: NodeJS.Timeout | undefined;

  /** Sends one message, or its JSON when the caller serialised it once for many sockets. */
  /** What /metrics reads: messages sent to sockets, and received by type. */
  const counters = { sent: 0, received: new Map<string, number>() };

  function send(connection: Connection, message: ServerMessage | string): void {
    const { socket } = connection;
    if (connection.early !== null) {
      // `hello` comes first; what was published meanwhile follows it.
      connection.early.push(message);
      return;
    }
    if (socket.readyState !== WebSocket.OPEN) return;
    if (socket.bufferedAmount > maxBuffered) {
      // A client that does not read is cut off rather than buffered for without bound.
      socket.close(CloseCodes.tryAgainLater, 'slow consumer');
      return;
    }
    socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    counters.sent += 1;
  }

  function deliverLocally(userIds: readonly number[], message: ServerMessage, except?: string): void {
    // A post announced to thousands of followers is serialised once, not once per socket.
    let frame: string | undefined;
    for (const userId of userIds) {
      const connections = byUser.get(userId);
      if (connections === undefined) continue;
      frame ??= JSON.stringify(message);
      for (const connection of connections) if (connection.key !== except) send(connection, frame);
    }
  }

  function logoutLocally(userId: number, reason: LogoutReason, keep?: string, onlyOrigin?: string): void {
    for (const listener of logoutListeners) listener(userId);
    const connections = byUser.get(userId);
    if (connections === undefined) return;
    for (const connection of [...connections]) {
      if (keep !== undefined && connection.sessionFamily === keep) continue;
      if (onlyOrigin !== undefined && connection.origin !== onlyOrigin) continue;
      send(connection, { type: 'beforeLogout', reason });
      connection.socket.close(CloseCodes.unauthorized, reason);
      forget(connection);
    }
  }

  function applyLocally(event: BusEvent): void {
    if (event.kind === 'deliver') deliverLocally(event.userIds, event.message, event.except);
    else if (event.kind === 'logout') logoutLocally(event.userId, event.reason, event.keepSessionFamily, event.onlyOrigin);
    else for (const listener of writeListeners) listener();
  }

  /** Whether anyone could receive a message for the user: always with other nodes, else only local sockets. */
  function reachable(userId: number): boolean {
    return bus !== null || byUser.has(userId);
  }

  function forget(connection: Connection): void {
    const connections = byUser.get(connection.userId);
    if (connections === undefined) return;
    connections.delete(connection);
    if (connections.size === 0) byUser.delete(connection.userId);
  }

  const publisher: RealtimePublisher = {
    publish(target, message, publishOptions) {
      const userIds = typeof target === 'number' ? [target] : [...target];
      if (userIds.length === 0) return;
      deliverLocally(userIds, message, publishOptions?.except);
      bus?.publish({ kind: 'deliver', userIds, message, ...(publishOptions?.except === undefined ? {} : { except: publishOptions.except }) });
    },
    logout(userId, reason, keepSessionFamily, onlyOrigin) {
      const keep = keepSessionFamily ?? undefined;
      logoutLocally(userId, reason, keep, onlyOrigin);
      bus?.publish({
        kind: 'logout',
        userId,
        reason,
        ...(keep === undefined ? {} : { keepSessionFamily: keep }),
        ...(onlyOrigin === undefined ? {} : { onlyOrigin }),
      });
    },
    isReachable: reachable,
    announceWrite() {
      if (bus === null || writeAnnouncement !== undefined) return;
      writeAnnouncement = setTimeout(() => {
        writeAnnouncement = undefined;
        bus.publish({ kind: 'wrote' });
      }, writeAnnouncementMs);
      writeAnnouncement.unref();
    },
    onWriteElsewhere(listener) {
      writeListeners.push(listener);
    },
    onLogout(listener) {
      logoutListeners.push(listener);
    },
  };

  function refuseUpgrade(socket: Duplex, status: 403 | 404 | 503, text: string): void {
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length}\r\n\r\n${text}`);
  }

  /** Counts a client message against the connection's budget; false when it is refused. */
  function admit(connection: Connection, data: RawData, isBinary: boolean): boolean {
    // Any message shows the client is alive.
    connection.missed = 0;
    if (takeToken(connection, rate, burst)) {
      connection.refused = 0;
      return true;
    }
    connection.refused += 1;
    if (connection.refused > abuseAfterRefusals) connection.socket.close(CloseCodes.policy, 'too many messages');
    else send(connection, { type: 'error', statusText: 'too-many-requests', ...refusedChatMessage(data, isBinary) });
    return false;
  }

  const onClientMessage = createClientMessages({ send, handlers, received: counters.received, log });

  /**
   * The connection behind each socket. Its listeners are the same four functions for every
   * socket, not closures made for each: an idle socket costs what its state costs, no more.
   */
  const connectionOf = new WeakMap<WebSocket, Connection>();

  function onSocketMessage(this: WebSocket, data: RawData, isBinary: boolean): void {
    const connection = connectionOf.get(this);
    if (connection === undefined || !admit(connection, data, isBinary)) return;
    connection.queue = connection.queue.then(() =>
      onClientMessage(connection, data, isBinary).catch((error: unknown) => {
        const unavailable = isDatabaseUnavailable(error);
        if (!unavailable) log.warn({ err: error }, 'realtime: a client message failed');
        send(connection, { type: 'error', statusText: unavailable ? 'service-unavailable' : 'internal-error' });
      }),
    );
  }

  function onSocketPong(this: WebSocket): void {
    const connection = connectionOf.get(this);
    if (connection !== undefined) connection.missed = 0;
  }

  function onSocketClose(this: WebSocket): void {
    const connection = connectionOf.get(this);
    if (connection === undefined) return;
    forget(connection);
    if (connection.opened) for (const feature of features) feature.onDisconnect?.(connection.peer);
  }

  /** A raw connection's error before or after its upgrade: it is done for. */
  function destroyOnError(this: Duplex): void {
    this.destroy();
  }

  function onSocketError(error: Error): void {
    log.debug({ err: error }, 'realtime: socket error');
  }

  function accept(socket: WebSocket, userId: number, sessionFamily: string | null, origin: string | null): void {
    counter += 1;
    const connection: Connection = {
      key: `${nodeId}:${counter}`,
      userId,
      sessionFamily,
      origin,
      socket,
      missed: 0,
      tokens: burst,
      lastRefill: Date.now(),
      refused: 0,
      early: [],
      peer: undefined as unknown as SocketPeer,
      queue: Promise.resolve(),
      opened: false,
    };
    connection.peer = { key: connection.key, userId, origin, send: (message) => send(connection, message) };
    let set = byUser.get(userId);
    if (set === undefined) {
      set = new Set();
      byUser.set(userId, set);
    }
    set.add(connection);
    connectionOf.set(socket, connection);
    socket.on('message', onSocketMessage);
    socket.on('pong', onSocketPong);
    socket.on('close', onSocketClose);
    socket.on('error', onSocketError);
    // What features add to `hello` (the chat stream's head) is read once the connection is
    // registered: a message committed after the read is published to this socket, one
    // committed before it is covered by the fields — so the client misses neither.
    Promise.all(features.map((feature) => feature.hello?.(userId) ?? {})).then(
      (parts) => {
        const early = connection.early ?? [];
        connection.early = null;
        if (socket.readyState !== WebSocket.OPEN) return;
        send(connection, Object.assign({ type: 'hello', userId, serverTime: Date.now() }, ...parts) as ServerMessage);
        for (const frame of early) send(connection, frame);
        connection.opened = true;
        for (const feature of features) feature.onConnect?.(connection.peer);
      },
      (error: unknown) => {
        forget(connection);
        connection.early = null;
        const unavailable = isDatabaseUnavailable(error);
        if (!unavailable) log.warn({ err: error }, 'realtime: could not open a connection');
        socket.close(unavailable ? CloseCodes.tryAgainLater : CloseCodes.internalError, unavailable ? 'service-unavailable' : 'internal-error');
      },
    );
  }

  async function onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== realtimePath && url.pathname !== '/ws') {
      refuseUpgrade(socket, 404, 'Not Found');
      return;
    }
    if (closing || wss === undefined) {
      refuseUpgrade(socket, 503, 'Service Unavailable');
      return;
    }
    // Browsers always send Origin. The platform's pages may use any of the user's tokens; any
    // other page only a widget token bound to that very origin (checked once the token is read).
    const source = sourceOfHeaders(config, request.headers, (request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
    // The token rides in a subprotocol (lib/contract/realtime.ts): never in the address, which
    // every proxy in front logs.
    const token = tokenOfProtocols(request.headers['sec-websocket-protocol']);
    let verified: Awaited<ReturnType<SocketAuthenticator>> = null;
    // The account could not be read — the database is away, or answered an error of ours: the
    // token may be fine, so it is not refused (a refresh would fail alike, and end the
    // session); the client comes back later instead.
    let unavailable = false;
    if (token !== null && token !== '') {
      try {
        verified = await authenticate!(token);
      } catch (error) {
        verified = null;
        unavailable = true;
        if (!isDatabaseUnavailable(error)) log.error({ err: error }, 'realtime: a socket could not be authenticated');
      }
    }
    if (!source.platform && verified !== null && verified.origin !== source.origin) {
      refuseUpgrade(socket, 403, 'Forbidden');
      return;
    }
    if (socket.destroyed || wss === undefined) return;
    wss.handleUpgrade(request, socket, head, (ws) => {
      // Refused after the handshake, so the browser sees the code: it refreshes its token after
      // 4401, and waits longer (with jitter) after 1013.
      if (closing) ws.close(CloseCodes.goingAway, 'closing');
      else if (unavailable) ws.close(CloseCodes.tryAgainLater, 'service-unavailable');
      else if (verified === null) ws.close(CloseCodes.unauthorized, 'unauthorized');
      else accept(ws, verified.userId, verified.sessionFamily, verified.origin);
    });
  }

  function beat(): void {
    const ts = Date.now();
    for (const connections of byUser.values()) {
      for (const connection of connections) {
        // A socket already closing (a slow consumer cut off with 1013) keeps its close frame
        // behind the data it has yet to read; ws ends it after its close timeout.
        if (connection.socket.readyState !== WebSocket.OPEN) continue;
        if (connection.missed >= 2) {
          connection.socket.terminate();
          forget(connection);
          continue;
        }
        connection.missed += 1;
        send(connection, { type: 'ping', ts });
      }
    }
  }

  return {
    nodeId,
    ...publisher,
    register(feature) {
      if (authenticate !== undefined) throw new Error(`realtime: ${feature.name} registered after start`);
      for (const type of feature.types) {
        const taken = handlers.get(type);
        if (taken !== undefined || type === 'ping' || type === 'pong') throw new Error(`realtime: ${feature.name} and ${taken?.name ?? 'the transport'} both answer '${type}'`);
        // A message nobody can check would reach its handler unchecked: every type needs a schema in the contract.
        if (!hasClientSchema(type)) throw new Error(`realtime: ${feature.name} answers '${type}', which has no schema in lib/contract/socket.ts`);
        handlers.set(type, feature);
      }
      features.push(feature);
    },
    start(server, authenticateToken) {
      authenticate = authenticateToken;
      wss = new WebSocketServer({
        noServer: true,
        maxPayload: maxPayloadBytes,
        clientTracking: false,
        // The protocol's name is answered; the token's subprotocol never is.
        handleProtocols: (protocols) => (protocols.has(REALTIME_PROTOCOL) ? REALTIME_PROTOCOL : false),
      });
      const listener = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        socket.on('error', destroyOnError);
        onUpgrade(request, socket, head).catch((error: unknown) => {
          log.warn({ err: error }, 'realtime: upgrade failed');
          socket.destroy();
        });
      };
      server.on('upgrade', listener);
      detach = () => server.off('upgrade', listener);
      heartbeat = setInterval(beat, heartbeatMs);
      heartbeat.unref();
    },
    closeSockets() {
      closing = true;
      if (heartbeat !== undefined) clearInterval(heartbeat);
      detach?.();
      for (const connections of byUser.values()) for (const connection of connections) connection.socket.close(CloseCodes.goingAway, 'server closing');
    },
    async close() {
      clearTimeout(writeAnnouncement);
      this.closeSockets();
      for (const connections of byUser.values()) for (const connection of connections) connection.socket.terminate();
      byUser.clear();
      wss?.close();
      await bus?.close();
    },
    stats() {
      return { sent: counters.sent, received: counters.received, bus: bus === null ? 'local' : bus.connected() ? 'connected' : 'disconnected' };
    },
    connectionCount(userId) {
      if (userId !== undefined) return byUser.get(userId)?.size ?? 0;
      let total = 0;
      for (const connections of byUser.values()) total += connections.size;
      return total;
    },
  };
}
