import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { RealtimeTiming } from '../../../lib/contract/constants';
import type { CallMessageType, ClientEvent, LogoutReason, ServerMessage } from '../../../lib/contract/realtime';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { isDatabaseUnavailable } from '../db/availability';
import { blocks, users } from '../db/schema';
import { AppError } from '../errors';
import { createChatSocket, chatClientMessages } from '../features/chat/socket';
import { createPostService } from '../features/posts/service';
import { verifyAccessToken } from '../features/auth/guard';
import { createNotificationService, recordProfileVisit } from '../features/notifications/service';
import { createPaymentService } from '../features/payments/service';
import { sourceOfHeaders } from '../http/origins';
import { findUnsafeText } from '../http/input-bounds';
import { createRedisBus, type Bus, type BusEvent } from './bus';

/** What features use to reach people's open sockets, on this node and (with Redis) every other. */
export interface RealtimePublisher {
  /** Sends `message` to every socket of the user(s); `except` leaves out one connection (`Connection.key`). */
  publish(userIds: number | readonly number[], message: ServerMessage, options?: { except?: string }): void;
  /**
   * Sends `beforeLogout` to the user's sockets and closes them. Sockets opened by the session
   * family `keepSessionFamily` (the session that changed the password) stay. With
   * `onlyOrigin`, only the widget sessions bound to that origin are closed.
   */
  logout(userId: number, reason: LogoutReason, keepSessionFamily?: string | null, onlyOrigin?: string): void;
  /** Sends each user their fresh badge counts (`updateCount`: notifications, chats, reactions). */
  publishCounts(userIds: readonly number[]): Promise<void>;
  /** Sends each user their fresh `Balance` (`amountChange`); call after the transfer committed. */
  publishBalances(userIds: readonly (number | null | undefined)[]): Promise<void>;
}

export interface RealtimeOptions {
  /** How often the server pings (default RealtimeTiming.heartbeatMs); two missed pings drop the socket. */
  heartbeatMs?: number;
  /** A socket whose unsent data exceeds this is cut off with 1013 (default 1 MiB). */
  maxBufferedBytes?: number;
  /** Client messages per second a connection may send on average (default 20). */
  messagesPerSecond?: number;
  /** How many messages a connection may send at once (default 40). */
  messageBurst?: number;
}

export interface Realtime extends RealtimePublisher {
  /** This node's id; messages on the bus carry it so nobody delivers twice. */
  readonly nodeId: string;
  /** Starts answering `GET /ws/` upgrades on the HTTP server. */
  start(ctx: AppContext, server: Server): void;
  /** Closes every socket (1001) and stops listening; the bus is closed by `close`. */
  closeSockets(): void;
  close(): Promise<void>;
  /** How many sockets this node holds (for a user, or in all). */
  connectionCount(userId?: number): number;
}

/** The websocket's address (SPEC §7); `/ws` without the slash is accepted too. */
export const realtimePath = '/ws/';
/** Close codes: the token was refused (refresh and retry), the origin was refused. */
export const CloseCodes = { unauthorized: 4401, forbiddenOrigin: 4403, policy: 1008, internalError: 1011, tryAgainLater: 1013, goingAway: 1001 } as const;
/** The largest client frame accepted; client messages are small JSON objects. */
const maxPayloadBytes = 16 * 1024;
/** Refused messages beyond the burst after which the connection is closed as abusive. */
const abuseAfterRefusals = 40;

const clientEvents: ReadonlySet<string> = new Set<ClientEvent>(['typing', 'stoptyping', 'mediaupload', 'audiorecord']);
const callMessageTypes: ReadonlySet<string> = new Set<CallMessageType>([
  'preOffer',
  'preAnswer',
  'callStart',
  'callStop',
  'iceCandidate',
  'rtcOffer',
  'creditOK',
  'askForMoney',
  'callEarnings',
  'chatMessage',
  'giftMessage',
  'timeLeft',
  'remoteStream',
  'viewFrame',
]);

function isUserId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= 2_147_483_647;
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/**
 * A chat draft refused for the rate names its msgId, so the client marks that draft failed
 * (and may send it again) instead of waiting for an echo that never comes.
 */
function refusedChatMessage(data: RawData, isBinary: boolean): { ref?: string; msgId?: string } {
  if (isBinary) return {};
  try {
    const fields = JSON.parse(textOf(data)) as Record<string, unknown> | null;
    if (typeof fields?.msgId !== 'string' || fields.msgId.length > 64 || typeof fields.type !== 'string') return {};
    return { ref: fields.type.slice(0, 40), msgId: fields.msgId };
  } catch {
    return {};
  }
}

interface Connection {
  /** Unique over all nodes: `<nodeId>:<n>`. */
  key: string;
  userId: number;
  sessionFamily: string | null;
  /** The origin a widget session's token is bound to; null for the platform's sessions. */
  origin: string | null;
  socket: WebSocket;
  /** Pings sent and not answered yet. */
  missed: number;
  tokens: number;
  lastRefill: number;
  refused: number;
  /** Frames published to the connection before its `hello` went out; null once it has. */
  early: (ServerMessage | string)[] | null;
}

export function createRealtime(config: Config, log: FastifyBaseLogger, options: RealtimeOptions = {}): Realtime {
  const nodeId = randomBytes(8).toString('hex');
  const heartbeatMs = options.heartbeatMs ?? RealtimeTiming.heartbeatMs;
  const maxBuffered = options.maxBufferedBytes ?? 1_048_576;
  const rate = options.messagesPerSecond ?? 20;
  const burst = options.messageBurst ?? 40;
  const byUser = new Map<number, Set<Connection>>();
  let counter = 0;
  let ctx: AppContext | undefined;
  let chat: ReturnType<typeof createChatSocket> | undefined;
  let wss: WebSocketServer | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let detach: (() => void) | undefined;
  let closing = false;

  const bus: Bus | null = config.redisUrl === undefined ? null : createRedisBus(config.redisUrl, nodeId, log, (event) => applyLocally(event));

  /** Sends one message, or its JSON when the caller serialised it once for many sockets. */
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
    else logoutLocally(event.userId, event.reason, event.keepSessionFamily, event.onlyOrigin);
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
    async publishCounts(userIds) {
      if (ctx === undefined) return;
      const service = createNotificationService(ctx);
      for (const userId of new Set(userIds)) {
        if (!reachable(userId)) continue;
        try {
          const counts = await service.counts(userId);
          publisher.publish(userId, { type: 'updateCount', ...counts });
        } catch (error) {
          log.warn({ err: error, userId }, 'realtime: could not count notifications');
        }
      }
    },
    async publishBalances(userIds) {
      if (ctx === undefined) return;
      const service = createPaymentService(ctx);
      for (const userId of new Set(userIds)) {
        if (userId === null || userId === undefined || !reachable(userId)) continue;
        try {
          const b = await service.balance(userId);
          publisher.publish(userId, {
            type: 'amountChange',
            balance: { gBalance: b.gBalance, cBalance: b.cBalance, cPayout: b.cPayout, ts: b.ts, myCbalance: b.myCbalance, myCbalance_acked: b.myCbalance_acked },
          });
        } catch (error) {
          log.warn({ err: error, userId }, 'realtime: could not read a balance');
        }
      }
    },
  };

  function refuseUpgrade(socket: Duplex, status: 403 | 404 | 503, text: string): void {
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length}\r\n\r\n${text}`);
  }

  async function isBlockedEitherWay(a: number, b: number): Promise<boolean> {
    const rows = await ctx!.db
      .select({ one: sql<number>`1` })
      .from(blocks)
      .where(or(and(eq(blocks.blockerId, a), eq(blocks.blockedId, b)), and(eq(blocks.blockerId, b), eq(blocks.blockedId, a))))
      .limit(1);
    return rows.length > 0;
  }

  /** Token bucket: false when the connection has no message left this moment. */
  function take(connection: Connection): boolean {
    const now = Date.now();
    connection.tokens = Math.min(burst, connection.tokens + ((now - connection.lastRefill) / 1000) * rate);
    connection.lastRefill = now;
    if (connection.tokens < 1) return false;
    connection.tokens -= 1;
    return true;
  }

  /** Counts a client message against the connection's budget; false when it is refused. */
  function admit(connection: Connection, data: RawData, isBinary: boolean): boolean {
    // Any message shows the client is alive.
    connection.missed = 0;
    if (take(connection)) {
      connection.refused = 0;
      return true;
    }
    connection.refused += 1;
    if (connection.refused > abuseAfterRefusals) connection.socket.close(CloseCodes.policy, 'too many messages');
    else send(connection, { type: 'error', statusText: 'too-many-requests', ...refusedChatMessage(data, isBinary) });
    return false;
  }

  /**
   * Messages about people rather than chats: a profile visit (recorded once a day per visitor
   * and profile, never one's own), an author re-announcing a published post, and call
   * signalling relayed to the other party with the sender named — never to oneself, never
   * across a block.
   */
  async function onSocialMessage(connection: Connection, type: 'profileVisit' | 'newPost' | 'callMessage', fields: Record<string, unknown>): Promise<void> {
    const refuse = (statusText: string) => send(connection, { type: 'error', statusText, ref: type });
    try {
      if (type === 'profileVisit') {
        const profileId = fields.profileUserId;
        if (!isUserId(profileId)) return refuse('invalid-request');
        if (profileId === connection.userId) return;
        const [profile] = await ctx!.db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.id, profileId), isNull(users.deletedAt)))
          .limit(1);
        if (profile === undefined) return refuse('user-not-found');
        await recordProfileVisit(ctx!.db, connection.userId, profileId);
        return;
      }
      if (type === 'newPost') {
        if (!isUserId(fields.postId)) return refuse('invalid-request');
        await createPostService(ctx!).announce(connection.userId, fields.postId);
        return;
      }
      const { callId, callMessageType, receiverId } = fields;
      if (typeof callId !== 'string' || callId.length === 0 || callId.length > 64 || typeof callMessageType !== 'string' || !callMessageTypes.has(callMessageType) || !isUserId(receiverId)) {
        return refuse('invalid-request');
      }
      if (receiverId === connection.userId) return refuse('cannot-target-self');
      if (await isBlockedEitherWay(connection.userId, receiverId)) return refuse('user-not-found');
      publisher.publish(receiverId, {
        type: 'callMessage',
        callId,
        callMessageType: callMessageType as CallMessageType,
        senderId: connection.userId,
        receiverId,
        ...(fields.callMessageBody === undefined ? {} : { callMessageBody: fields.callMessageBody }),
      });
    } catch (error) {
      if (error instanceof AppError) return refuse(error.key);
      throw error;
    }
  }

  async function onClientMessage(connection: Connection, data: RawData, isBinary: boolean): Promise<void> {
    let message: unknown;
    try {
      if (isBinary) throw new Error('binary frame');
      message = JSON.parse(textOf(data));
    } catch {
      send(connection, { type: 'error', statusText: 'invalid-json' });
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      send(connection, { type: 'error', statusText: 'invalid-request' });
      return;
    }
    const fields = message as Record<string, unknown>;
    // The same rule as HTTP bodies: no NUL or unpaired surrogate reaches a handler or the database.
    if (findUnsafeText(fields) !== null) {
      const msgId = typeof fields.msgId === 'string' && fields.msgId.length <= 64 && findUnsafeText(fields.msgId) === null ? fields.msgId : undefined;
      const ref = typeof fields.type === 'string' && findUnsafeText(fields.type) === null ? fields.type.slice(0, 40) : undefined;
      send(connection, { type: 'error', statusText: 'invalid-request', ...(ref === undefined ? {} : { ref }), ...(msgId === undefined ? {} : { msgId }) });
      return;
    }
    switch (fields.type) {
      case 'ping':
        send(connection, { type: 'pong', ts: typeof fields.ts === 'number' && Number.isFinite(fields.ts) ? fields.ts : Date.now() });
        return;
      case 'pong':
        return;
      case 'eventMessage': {
        const target = fields.userId;
        const event = fields.event;
        if (typeof event !== 'string' || !clientEvents.has(event) || !isUserId(target)) {
          send(connection, { type: 'error', statusText: 'invalid-request', ref: 'eventMessage' });
          return;
        }
        if (target === connection.userId || (await isBlockedEitherWay(connection.userId, target))) return;
        publisher.publish(target, { type: 'eventMessage', event: event as ClientEvent, userId: connection.userId });
        return;
      }
      case 'notificationsRead':
        await createNotificationService(ctx!).markRead(connection.userId, { exceptConnection: connection.key });
        return;
      case 'profileVisit':
      case 'newPost':
      case 'callMessage':
        await onSocialMessage(connection, fields.type, fields);
        return;
      default:
        if (typeof fields.type === 'string' && chatClientMessages.has(fields.type)) {
          const replies = await chat!.handle(connection.userId, fields.type, fields);
          for (let i = 0; i < replies.length; i++) {
            send(connection, replies[i]!);
            // A long resume yields now and then, so the socket drains instead of piling up.
            if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
          }
          return;
        }
        send(connection, { type: 'error', statusText: 'invalid-request', ref: typeof fields.type === 'string' ? fields.type.slice(0, 40) : undefined });
    }
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
    };
    let set = byUser.get(userId);
    if (set === undefined) {
      set = new Set();
      byUser.set(userId, set);
    }
    set.add(connection);
    // One message at a time per connection, in the order sent.
    let queue = Promise.resolve();
    socket.on('message', (data, isBinary) => {
      if (!admit(connection, data, isBinary)) return;
      queue = queue.then(() =>
        onClientMessage(connection, data, isBinary).catch((error: unknown) => {
          // The database being away is no bug: the client may try again in a moment.
          const unavailable = isDatabaseUnavailable(error);
          if (!unavailable) log.warn({ err: error }, 'realtime: a client message failed');
          send(connection, { type: 'error', statusText: unavailable ? 'service-unavailable' : 'internal-error' });
        }),
      );
    });
    socket.on('pong', () => {
      connection.missed = 0;
    });
    socket.on('close', () => forget(connection));
    socket.on('error', (error) => log.debug({ err: error }, 'realtime: socket error'));
    // The chat stream's head is read once the connection is registered: a message committed
    // after the read is published to this socket, one committed before it is at or below
    // `chatSeq` — so a client that takes `chatSeq` as its resume position misses neither.
    chat!.head(userId).then(
      (chatSeq) => {
        const early = connection.early ?? [];
        connection.early = null;
        send(connection, { type: 'hello', userId, serverTime: Date.now(), chatSeq });
        for (const frame of early) send(connection, frame);
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
    const source = sourceOfHeaders(ctx!.config, request.headers, (request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
    const token = url.searchParams.get('token');
    let verified: Awaited<ReturnType<typeof verifyAccessToken>> | null = null;
    // The account could not be read: the token may be fine, so it is not refused (a refresh
    // would fail alike, and end the session); the client comes back later instead.
    let unavailable = false;
    if (token !== null && token !== '') {
      try {
        verified = await verifyAccessToken(ctx!, token);
      } catch (error) {
        verified = null;
        unavailable = isDatabaseUnavailable(error);
      }
    }
    if (!source.platform && verified !== null && verified.viewer.origin !== source.origin) {
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
      else accept(ws, verified.viewer.id, verified.sessionFamily, verified.viewer.origin);
    });
  }

  function beat(): void {
    const ts = Date.now();
    for (const connections of byUser.values()) {
      for (const connection of connections) {
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
    start(appCtx, server) {
      ctx = appCtx;
      chat = createChatSocket(appCtx, log);
      wss = new WebSocketServer({ noServer: true, maxPayload: maxPayloadBytes, clientTracking: false });
      const listener = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        socket.on('error', () => socket.destroy());
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
      this.closeSockets();
      for (const connections of byUser.values()) for (const connection of connections) connection.socket.terminate();
      byUser.clear();
      wss?.close();
      await bus?.close();
    },
    connectionCount(userId) {
      if (userId !== undefined) return byUser.get(userId)?.size ?? 0;
      let total = 0;
      for (const connections of byUser.values()) total += connections.size;
      return total;
    },
  };
}
