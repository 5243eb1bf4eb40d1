/**
 * The websocket protocol at `/ws/` (SPEC §7 Chat): JSON text frames, one message each,
 * `{ "type": <name>, ...fields }`. Plain types only (no schema values), so browser code may
 * import them freely.
 *
 * Connecting: `wss://host/ws/?token=<access token>` (browsers cannot set headers on a
 * websocket). The server checks the token and the `Origin`, then sends `hello`. It pings every
 * 50 s (SPEC §9 heartbeat); the client answers `pong`, or sends `ping` itself and gets `pong`.
 */

/** Events of SPEC §7 `eventMessage`: the client's indicators and the server's notices. */
export type ClientEvent = 'typing' | 'stoptyping' | 'mediaupload' | 'audiorecord';
export type ServerEvent = ClientEvent | 'mediaChange' | 'partnerStatusChanged' | 'mediaUnlock' | 'notAcceptedPrice' | 'noCredit' | 'emailNotVerified';

/** Why the server asks a client to log out (`beforeLogout`). */
export type LogoutReason = 'admin-blocked' | 'disconnected-password';

/** What the server sends. */
export type ServerMessage =
  | { type: 'hello'; userId: number; serverTime: number }
  | { type: 'ping'; ts: number }
  | { type: 'pong'; ts: number }
  /** The viewer's balance changed: a `Balance` (lib/contract/payments.ts) with its `ts`; older ones are discarded. */
  | { type: 'amountChange'; balance: { gBalance: number; cBalance: number; cPayout: number; ts: number; myCbalance: number; myCbalance_acked: number } }
  /** Badge counts changed (notifications; chat counts come with the chat). */
  | { type: 'updateCount'; notifications: number }
  | { type: 'notificationsRead' }
  | { type: 'newPost'; postId: number; userId: number }
  | { type: 'eventMessage'; event: ServerEvent; userId: number; data?: Record<string, unknown> }
  | { type: 'beforeLogout'; reason: LogoutReason }
  /** A client message the server refused: `statusText` is a message key of the error catalogue. */
  | { type: 'error'; statusText: string; ref?: string };

/** What a client sends. */
export type ClientMessage =
  | { type: 'ping'; ts: number }
  | { type: 'pong'; ts: number }
  | { type: 'eventMessage'; event: ClientEvent; userId: number }
  | { type: 'notificationsRead' };

export type ServerMessageType = ServerMessage['type'];
export type ServerMessageOf<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>;
