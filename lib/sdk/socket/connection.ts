/**
 * The connection itself: `createSocket` opens the websocket with the session's token, counts it
 * open on the server's `hello`, answers pings, watches for silence, and on a close decides
 * between refreshing the token, waiting for a server that asked for patience, reconnecting,
 * reloading the site and giving up (the rules are in ./index.ts; the waits in ./reconnection.ts).
 */
import { batch, signal, type ReadonlySignal } from '@preact/signals-core';
import { socketProtocols, type ClientMessage, type ServerMessage, type ServerMessageOf } from '../../contract/realtime';
import { RealtimeTiming } from '../../contract/constants';
import type { FanstageClient } from '../client';
import { createSocketHandlers } from './handlers';
import { reconnectWait, SocketCloseCodes, unavailableBackoff } from './reconnection';
import type { ConnectedState, SocketErrorCode, SocketMode, SocketOptions, SocketSession, WebSocketConstructor } from './types';

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

  const handlers = createSocketHandlers();
  const emit = handlers.emit;
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
      // What the server sends is typed by the contract (`ServerMessage`, lib/contract/realtime.ts).
      let message: ServerMessage;
      try {
        message = JSON.parse(event.data) as ServerMessage;
      } catch {
        return;
      }
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
    on: handlers.on,
    /** How many handlers `on` holds, of every type (a disposed Fanstage leaves none). */
    listenerCount: handlers.count,
  };
}

export type FanstageSocket = ReturnType<typeof createSocket>;
