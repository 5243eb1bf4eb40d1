/**
 * The realtime connection (SPEC §4 websocket, §7 `/ws/`, §9 heartbeat): one websocket per
 * page, authorised by the session's access token, kept open across drops.
 *
 * API (stable):
 *
 *   const socket = fanstage.socket;           // createSocket(client, session, options)
 *
 *   socket.connect()        boolean  opens the connection (false when nobody is logged in).
 *                           Nothing connects by itself: the site and widgets call it.
 *   socket.disconnect()     closes it for good (no reconnection); a logout does it too.
 *   socket.send(message)    boolean  false (and nothing queued) when not open: show
 *                           `errors.message_not_send-offline`.
 *   socket.on(type, fn)     () => void  a handler for one server message type, or
 *                           `'reconnected'` (open again after a drop: re-fetch what may have
 *                           been missed). Returns the unsubscribe.
 *   socket.listenerCount()  number  the handlers registered with `on`
 *
 *   socket.connectedState   ReadonlySignal<'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed' | 'failed'>
 *   socket.attempts         ReadonlySignal<number>  reconnection attempts since the last open
 *   socket.tryingToReconnect ReadonlySignal<boolean>  from the second attempt on: show
 *                           `realtime.trying-to-reconnect` (SPEC §8)
 *   socket.waitingForServer ReadonlySignal<boolean>  the socket waits for the server itself (it
 *                           asked for patience with 1013, or the page reloads once it answers):
 *                           keep showing `realtime.trying-to-reconnect` until it is back
 *   socket.lastError        ReadonlySignal<SocketErrorCode | null>
 *   socket.hello            ReadonlySignal<hello | null>  the server's latest `hello` (its
 *                           `chatSeq` is where the chat stream stood when the connection opened)
 *
 * Rules: a token the server refuses (close 4401) before the first open is refreshed once
 * through the session and the connection tried again; a refused origin (4403) is final. A
 * server that cannot reach its database closes with 1013 (try again later): the socket comes
 * back after a longer wait that doubles with each such close in a row (5 s, 10 s, … up to
 * 60 s), drawn at random between half of it and all of it so that every page of a busy site
 * does not return in the same second, and these closes count toward neither rule below
 * (the server is there; it asks for patience). Any other drop reconnects after 2 s, plus a
 * random quarter of that at most. On the site, more than 6 reconnections in a row reload the
 * page — once the server answers HTTP again (asked every 2 s meanwhile, still 'reconnecting'),
 * because a reload while it is down lands on the browser's error page, where no script of ours
 * runs to ever come back. In a widget, reconnections come every 10 s and after 10 of them the
 * socket gives up ('failed') and calls `onFailure`, which the widget reports to its host page. The server pings
 * every 50 s and gets a `pong`; when nothing at all arrives for twice that, the connection is
 * taken for dead and replaced.
 */
import { batch, signal, type ReadonlySignal } from '@preact/signals-core';
import { CloseCodes, socketProtocols, type ClientMessage, type ServerMessage, type ServerMessageOf, type ServerMessageType } from '../contract/realtime';
import { RealtimeTiming } from '../contract/constants';
import type { FanstageClient } from './client';

export type ConnectedState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed' | 'failed';

/**
 * Why the socket is not open: `unauthorized` (the token was refused even after a refresh),
 * `origin-refused` (this site may not connect), `connection-lost` (a drop), `heartbeat-timeout`
 * (silence), `gave-up` (a widget ran out of attempts), `no-session` (connect without a login).
 */
export type SocketErrorCode = 'unauthorized' | 'origin-refused' | 'connection-lost' | 'heartbeat-timeout' | 'gave-up' | 'no-session' | 'service-unavailable';

/**
 * The close codes of `/ws/` the socket acts on, under the names the SDK has always given them:
 * the values are the contract's `CloseCodes` (lib/contract/realtime.ts), which the server closes with.
 */
export const SocketCloseCodes = { unauthorized: CloseCodes.unauthorized, originRefused: CloseCodes.forbiddenOrigin, tryAgainLater: CloseCodes.tryAgainLater } as const;

/** After a 1013: the first wait, and the longest one it doubles up to. */
export const unavailableBackoff = { firstMs: 5_000, maxMs: 60_000 } as const;

/**
 * How long to wait before trying again. After an ordinary drop: `reconnectMs` and up to a
 * quarter more. After the `inRow`-th close with 1013 in a row: `unavailableMs` doubled for each
 * one before it, at most `unavailableMaxMs`, and drawn between half of that and all of it —
 * spread wide, so a thousand pages waiting on one database do not return in the same second.
 * `random` gives numbers in [0, 1).
 */
export function reconnectWait(
  inRow: number,
  timing: { reconnectMs: number; unavailableMs: number; unavailableMaxMs: number },
  random: () => number,
): number {
  if (inRow <= 0) return timing.reconnectMs + random() * (timing.reconnectMs / 4);
  const wait = Math.min(timing.unavailableMaxMs, timing.unavailableMs * 2 ** Math.min(inRow - 1, 16));
  return wait / 2 + random() * (wait / 2);
}

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

const OPEN = 1;

/**
 * `ws://host/ws/` for an `http` base URL, `wss://` for `https`. The token goes in the
 * subprotocols (`socketProtocols`), never in the address.
 */
export function socketUrl(baseUrl: string): string {
  const base = new URL(baseUrl || globalThis.location.href);
  const protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${protocol}//${base.host}/ws/`;
}

function isServerMessage(value: unknown): value is ServerMessage {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

export function createSocket(client: FanstageClient, session: SocketSession, options: SocketOptions = {}) {
  const mode: SocketMode = options.mode ?? 'site';
  const reconnectMs = options.reconnectMs ?? (mode === 'widget' ? RealtimeTiming.widgetReconnectMs : RealtimeTiming.reconnectMs);
  const maxAttempts = options.maxAttempts ?? RealtimeTiming.widgetMaxAttempts;
  const reloadAfter = options.reloadAfter ?? RealtimeTiming.siteReloadAfter;
  const heartbeatMs = options.heartbeatMs ?? RealtimeTiming.heartbeatMs;
  const reload = options.reload ?? (() => globalThis.location.reload());
  const unavailableMs = options.unavailableMs ?? unavailableBackoff.firstMs;
  const unavailableMaxMs = Math.max(unavailableMs, options.unavailableMaxMs ?? unavailableBackoff.maxMs);
  const random = options.random ?? Math.random;
  const timing = { reconnectMs, unavailableMs, unavailableMaxMs };

  const connectedState = signal<ConnectedState>('idle');
  const attempts = signal(0);
  const tryingToReconnect = signal(false);
  const waiting = signal(false);
  const lastError = signal<SocketErrorCode | null>(null);
  const hello = signal<ServerMessageOf<'hello'> | null>(null);

  const handlers = new Map<SocketEvent, Set<(payload: never) => void>>();
  let current: WebSocket | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let watchdog: ReturnType<typeof setTimeout> | null = null;
  /** True between connect() and disconnect(). */
  let wanted = false;
  /** Opened at least once since connect(): a later open is a reconnection. */
  let hasOpened = false;
  /** The token was refreshed since the last open; a second refusal is final. */
  let refreshedToken = false;
  /** Closes with 1013 in a row: each doubles the wait before the next try. */
  let unavailableInRow = 0;
  // Bumped on connect and disconnect, so an old refresh or timer cannot act on a new connection.
  let generation = 0;

  function emit<E extends SocketEvent>(type: E, payload: SocketEventMap[E]): void {
    const set = handlers.get(type);
    if (!set) return;
    for (const handler of [...set]) {
      try {
        (handler as (payload: SocketEventMap[E]) => void)(payload);
      } catch (error) {
        // One screen's broken handler must not stop the others or the connection.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  function on<E extends SocketEvent>(type: E, handler: (payload: SocketEventMap[E]) => void): () => void {
    let set = handlers.get(type);
    if (!set) handlers.set(type, (set = new Set()));
    const entry = handler as (payload: never) => void;
    set.add(entry);
    return () => void set.delete(entry);
  }

  function clearTimers(): void {
    if (reconnectTimer !== null) clearTimeout(reconnectTimer);
    if (watchdog !== null) clearTimeout(watchdog);
    reconnectTimer = null;
    watchdog = null;
  }

  function armWatchdog(): void {
    if (watchdog !== null) clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      watchdog = null;
      const dead = current;
      if (!dead) return;
      // Detached first: a close handshake with a silent server may never finish.
      current = null;
      closeQuietly(dead, 4000, 'heartbeat-timeout');
      dropped('heartbeat-timeout');
    }, heartbeatMs * 2);
  }

  function closeQuietly(ws: WebSocket, code: number, reason: string): void {
    ws.onopen = null;
    ws.onmessage = null;
    ws.onclose = null;
    // Not null: a socket closed while still connecting reports an error, and Node's `ws` throws
    // one that nobody listens for.
    ws.onerror = () => undefined;
    try {
      ws.close(code, reason);
    } catch {
      // Already closing.
    }
  }

  function fail(code: SocketErrorCode): void {
    clearTimers();
    wanted = false;
    batch(() => {
      lastError.value = code;
      connectedState.value = 'failed';
      tryingToReconnect.value = false;
      waiting.value = false;
    });
    options.onFailure?.(code);
  }

  function open(): void {
    reconnectTimer = null;
    const token = session.accessToken.peek();
    if (!token) {
      wanted = false;
      batch(() => {
        lastError.value = 'no-session';
        connectedState.value = 'closed';
        tryingToReconnect.value = false;
        waiting.value = false;
      });
      return;
    }
    const Impl = options.WebSocketImpl ?? (globalThis.WebSocket as WebSocketConstructor | undefined);
    if (!Impl) throw new Error('No WebSocket implementation: pass `WebSocketImpl`.');
    if (!hasOpened && connectedState.peek() !== 'reconnecting') connectedState.value = 'connecting';
    let ws: WebSocket;
    try {
      ws = new Impl(socketUrl(client.baseUrl), socketProtocols(token));
    } catch {
      dropped('connection-lost');
      return;
    }
    current = ws;
    // The transport opens before the server has checked the token: the connection counts as
    // open only with the server's `hello`. Silence from here on is caught by the watchdog.
    ws.onopen = () => {
      if (ws === current) armWatchdog();
    };
    ws.onmessage = (event: MessageEvent) => {
      if (ws !== current) return;
      armWatchdog();
      if (typeof event.data !== 'string') return;
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!isServerMessage(message)) return;
      if (message.type === 'hello') {
        // Before `opened`: what reacts to the open reads it.
        hello.value = message;
        opened();
      }
      if (message.type === 'ping') send({ type: 'pong', ts: message.ts });
      emit(message.type, message as never);
    };
    ws.onclose = (event: CloseEvent) => {
      if (ws !== current) return;
      current = null;
      closed(event.code);
    };
    // Every error is followed by a close, which decides what happens next.
    ws.onerror = () => undefined;
  }

  function opened(): void {
    const reconnection = hasOpened;
    const before = attempts.peek();
    hasOpened = true;
    refreshedToken = false;
    unavailableInRow = 0;
    batch(() => {
      connectedState.value = 'open';
      attempts.value = 0;
      tryingToReconnect.value = false;
      waiting.value = false;
      lastError.value = null;
    });
    if (reconnection) emit('reconnected', { attempts: before });
  }

  function closed(code: number): void {
    if (watchdog !== null) clearTimeout(watchdog);
    watchdog = null;
    if (!wanted) return;
    if (code === SocketCloseCodes.originRefused) return fail('origin-refused');
    if (code === SocketCloseCodes.tryAgainLater) return unavailable();
    if (code === SocketCloseCodes.unauthorized) {
      if (refreshedToken) return fail('unauthorized');
      refreshedToken = true;
      const asOf = generation;
      const firstConnection = !hasOpened;
      session.refresh().then(
        (ok) => {
          if (asOf !== generation || !wanted) return;
          if (!ok) {
            // The session has ended (soft logout): nothing to connect with.
            wanted = false;
            batch(() => {
              lastError.value = 'unauthorized';
              connectedState.value = 'closed';
            });
            return;
          }
          if (firstConnection) open();
          else dropped('connection-lost');
        },
        () => {
          if (asOf === generation && wanted) dropped('connection-lost');
        },
      );
      return;
    }
    dropped('connection-lost');
  }

  /**
   * The server asked to be tried again later (1013: its database is away, or this client read
   * too slowly): wait longer each time, at random within the wait, and count no attempt — a
   * reload would only land on a site that cannot serve it either.
   */
  function unavailable(): void {
    unavailableInRow += 1;
    batch(() => {
      lastError.value = 'service-unavailable';
      connectedState.value = 'reconnecting';
      tryingToReconnect.value = true;
      waiting.value = true;
    });
    if (reconnectTimer !== null) clearTimeout(reconnectTimer);
    reconnectTimer = setTimeout(open, reconnectWait(unavailableInRow, timing, random));
  }

  /** The connection is gone against our will: try again later, reload, or give up. */
  function dropped(reason: SocketErrorCode): void {
    if (!wanted) return;
    const next = attempts.peek() + 1;
    if (mode === 'widget' && next > maxAttempts) return fail('gave-up');
    if (mode === 'site' && next > reloadAfter) {
      clearTimers();
      wanted = false;
      batch(() => {
        lastError.value = reason;
        connectedState.value = 'reconnecting';
        tryingToReconnect.value = true;
        waiting.value = true;
      });
      reloadOnceReachable(generation);
      return;
    }
    batch(() => {
      lastError.value = reason;
      attempts.value = next;
      connectedState.value = 'reconnecting';
      tryingToReconnect.value = next >= 2;
    });
    if (reconnectTimer !== null) clearTimeout(reconnectTimer);
    // A little jitter, so the pages a restarted server dropped do not all come back at once.
    reconnectTimer = setTimeout(open, reconnectWait(0, timing, random));
  }

  /**
   * Reloads as soon as the server answers below 500; a network failure, or a proxy's 5xx in its
   * place, mean it is not back yet. The question bypasses the HTTP cache, which would otherwise
   * answer for a server that is gone (settings are cacheable). A disconnect or a new connect
   * meanwhile (a logout, say) cancels the reload.
   */
  function reloadOnceReachable(asOf: number): void {
    const settle = (answered: boolean) => {
      if (asOf !== generation) return;
      if (answered) {
        connectedState.value = 'failed';
        reload();
        return;
      }
      reconnectTimer = setTimeout(() => reloadOnceReachable(asOf), reconnectMs);
    };
    globalThis.fetch(client.url('/papi/settings'), { cache: 'no-store' }).then(
      (response) => {
        void response.body?.cancel();
        settle(response.status < 500);
      },
      () => settle(false),
    );
  }

  /** Opens the connection; false when nobody is logged in. Calling it while connected does nothing. */
  function connect(): boolean {
    if (wanted) return true;
    if (!session.accessToken.peek()) {
      lastError.value = 'no-session';
      return false;
    }
    generation += 1;
    wanted = true;
    hasOpened = false;
    refreshedToken = false;
    unavailableInRow = 0;
    batch(() => {
      attempts.value = 0;
      tryingToReconnect.value = false;
      waiting.value = false;
      lastError.value = null;
      hello.value = null;
    });
    open();
    return true;
  }

  /** Closes the connection and stops reconnecting. */
  function disconnect(): void {
    generation += 1;
    wanted = false;
    clearTimers();
    const ws = current;
    current = null;
    if (ws) closeQuietly(ws, 1000, 'bye');
    batch(() => {
      connectedState.value = connectedState.peek() === 'idle' ? 'idle' : 'closed';
      attempts.value = 0;
      tryingToReconnect.value = false;
      waiting.value = false;
    });
  }

  /** Sends one message; false (nothing queued) when the socket is not open. */
  function send(message: ClientMessage): boolean {
    const ws = current;
    if (!ws || connectedState.peek() !== 'open' || ws.readyState !== OPEN) return false;
    try {
      ws.send(JSON.stringify(message));
      return true;
    } catch {
      return false;
    }
  }

  return {
    mode,
    connectedState: connectedState as ReadonlySignal<ConnectedState>,
    attempts: attempts as ReadonlySignal<number>,
    tryingToReconnect: tryingToReconnect as ReadonlySignal<boolean>,
    waitingForServer: waiting as ReadonlySignal<boolean>,
    lastError: lastError as ReadonlySignal<SocketErrorCode | null>,
    hello: hello as ReadonlySignal<ServerMessageOf<'hello'> | null>,
    connect,
    disconnect,
    send,
    on,
    /** How many handlers `on` holds, of every type (a disposed Fanstage leaves none). */
    listenerCount: (): number => [...handlers.values()].reduce((sum, set) => sum + set.size, 0),
  };
}

export type FanstageSocket = ReturnType<typeof createSocket>;
