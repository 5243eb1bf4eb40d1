import type { ServerMessage } from '../../../lib/contract/realtime';

/**
 * What a feature sees of one websocket connection: who is on it, and a way to answer on it
 * alone. Everyone else is reached through `RealtimePublisher.publish`.
 */
export interface SocketPeer {
  /** Unique over all nodes: `<nodeId>:<n>`. */
  readonly key: string;
  readonly userId: number;
  /** The origin a widget session's token is bound to; null for the platform's own pages. */
  readonly origin: string | null;
  /** Sends one message (or the JSON of one, serialised once for many) to this connection only. */
  send(message: ServerMessage | string): void;
}

/**
 * A feature's part of the websocket (docs/realtime.md "Transport"): the client message types it
 * answers and what it adds to a connection's life. The transport owns everything else —
 * upgrade, authentication, origin, heartbeat, rate limit, JSON and text checks, fan-out over
 * nodes — and imports no feature; features register with it when the app is built.
 *
 * `handle` may throw: an `AppError` is answered `{type:'error', statusText: key, ref: type}`
 * (with the message's `msgId` when it has one), a database that cannot be reached
 * `service-unavailable`, anything else `internal-error`. Messages on one connection are handled
 * one at a time, in the order sent.
 */
export interface SocketFeature {
  /** A name for logs. */
  readonly name: string;
  /** Client message `type`s this feature answers; two features may not share one. */
  readonly types: readonly string[];
  handle(peer: SocketPeer, type: string, fields: Record<string, unknown>): Promise<void>;
  /**
   * Fields the feature adds to `hello`, read once the connection is registered: anything
   * published after the read reaches the socket, anything before it is covered by the fields.
   */
  hello?(userId: number): Promise<Record<string, unknown>>;
  /** A connection opened (after `hello`). */
  onConnect?(peer: SocketPeer): void;
  /** A connection closed, for whatever reason (the client left, heartbeat, logout, shutdown). */
  onDisconnect?(peer: SocketPeer): void;
}

/** Who a token belongs to, as the websocket needs it; null when the token is refused. */
export interface SocketIdentity {
  userId: number;
  /** The session family of a platform session (password change logs out the others). */
  sessionFamily: string | null;
  /** The origin a widget token is bound to; null for the platform's sessions. */
  origin: string | null;
}

/**
 * Reads a token. Resolves null for a token that is not good (closed 4401, the client refreshes);
 * throws when the account cannot be read right now (closed 1013, the client waits).
 */
export type SocketAuthenticator = (token: string) => Promise<SocketIdentity | null>;
