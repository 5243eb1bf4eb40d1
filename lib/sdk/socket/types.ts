/**
 * The socket's public types: its states and error codes, the options `createSocket` takes, what
 * it needs of the session store and of a WebSocket implementation, and the events `on` accepts
 * (every server message type of lib/contract/realtime.ts, and `reconnected`).
 */
import type { ReadonlySignal } from '@preact/signals-core';
import type { ServerMessageOf, ServerMessageType } from '../../contract/realtime';

export type ConnectedState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed' | 'failed';

/**
 * Why the socket is not open: `unauthorized` (the token was refused even after a refresh),
 * `origin-refused` (this site may not connect), `connection-lost` (a drop), `heartbeat-timeout`
 * (silence), `gave-up` (a widget ran out of attempts), `no-session` (connect without a login).
 */
export type SocketErrorCode = 'unauthorized' | 'origin-refused' | 'connection-lost' | 'heartbeat-timeout' | 'gave-up' | 'no-session' | 'service-unavailable';

/** Any constructor shaped like the browser's `WebSocket` (Node without one passes `ws`). */
export type WebSocketConstructor = new (url: string, protocols: string[]) => WebSocket;

export type SocketMode = 'site' | 'widget';

/** What the socket needs of the session store. */
export interface SocketSession {
  readonly accessToken: ReadonlySignal<string | null>;
  refresh(): Promise<boolean>;
}

export interface SocketOptions {
  /** `'site'` (default) reloads the page after too many reconnections; `'widget'` gives up and reports. */
  mode?: SocketMode;
  /** The WebSocket implementation; default `globalThis.WebSocket`. */
  WebSocketImpl?: WebSocketConstructor;
  /** Wait before a reconnection; default 2 s on the site, 10 s in a widget (plus up to a quarter of it at random). */
  reconnectMs?: number;
  /** After a close with 1013: the first wait (default 5 s), doubled with each such close in a row… */
  unavailableMs?: number;
  /** …up to this (default 60 s); each wait is drawn between half of it and all of it. */
  unavailableMaxMs?: number;
  /** Random numbers in [0, 1) for the jitter; default `Math.random`. */
  random?: () => number;
  /** Widget mode: reconnections before giving up; default 10. */
  maxAttempts?: number;
  /** Site mode: reconnections in a row after which the page reloads; default 6 (reloads on the 7th). */
  reloadAfter?: number;
  /** The server's ping interval; silence for twice this drops the connection. Default 50 s. */
  heartbeatMs?: number;
  /** Site mode: how the page reloads; default `location.reload()`. */
  reload?: () => void;
  /** Widget mode: called once when the socket gives up (or the origin is refused). */
  onFailure?: (error: SocketErrorCode) => void;
}

/** The events `on` accepts: every server message type, and `reconnected`. */
export type SocketEventMap = { [T in ServerMessageType]: ServerMessageOf<T> } & { reconnected: { attempts: number } };
export type SocketEvent = keyof SocketEventMap;
