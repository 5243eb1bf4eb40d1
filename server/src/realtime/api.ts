/**
 * What the websocket offers the rest of the server: the publisher features reach people's open
 * sockets with (on this node and, with Redis, every other), the options the transport is built
 * with, and the whole `Realtime` the app starts and closes.
 */
import type { Server } from 'node:http';
import type { LogoutReason, ServerMessage } from '../../../lib/contract/realtime';
import type { SocketAuthenticator, SocketFeature } from './transport';

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
  /** Whether a message for the user could reach a socket: always with other nodes, else only when it has one here. */
  isReachable(userId: number): boolean;
  /**
   * Tells the other nodes this one answered a write, so what they hold in memory for a moment
   * (visitors' pages, a viewer's first page) is out of date; a burst travels as one message.
   */
  announceWrite(): void;
  /** Runs `listener` whenever another node announced a write. */
  onWriteElsewhere(listener: () => void): void;
  /**
   * Runs `listener` whenever a user is logged out (`logout`), on this node or another: a ban,
   * a password change, a deleted account, a revoked widget consent.
   */
  onLogout(listener: (userId: number) => void): void;
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
  /** Adds a feature's client messages and connection hooks (server/src/realtime/transport.ts); before `start`. */
  register(feature: SocketFeature): void;
  /** Starts answering `GET /ws/` upgrades on the HTTP server, reading tokens with `authenticate`. */
  start(server: Server, authenticate: SocketAuthenticator): void;
  /** Closes every socket (1001) and stops listening; the bus is closed by `close`. */
  closeSockets(): void;
  close(): Promise<void>;
  /** How many sockets this node holds (for a user, or in all). */
  connectionCount(userId?: number): number;
  /**
   * Messages sent to sockets and received from them by type, since the start, and the link to
   * the other nodes: `local` without Redis, else whether the bus's subscription is up.
   */
  stats(): { sent: number; received: ReadonlyMap<string, number>; bus: 'local' | 'connected' | 'disconnected' };
}
