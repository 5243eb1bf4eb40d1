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
 *
 * Its parts: the connection and its rules (./connection.ts), the waits and close codes it acts on
 * (./reconnection.ts), the handlers `on` holds (./handlers.ts), and its types (./types.ts).
 */
export { createSocket, socketUrl, type FanstageSocket } from './connection';
export { reconnectWait, SocketCloseCodes, unavailableBackoff } from './reconnection';
export type { ConnectedState, SocketErrorCode, SocketEvent, SocketEventMap, SocketMode, SocketOptions, SocketSession, WebSocketConstructor } from './types';
