/**
 * The websocket protocol at `/ws/` (SPEC §7 Chat): JSON text frames, one message each,
 * `{ "type": <name>, ...fields }`. Plain types only (no schema values), so browser code may
 * import them freely.
 *
 * Connecting: `wss://host/ws/` with the subprotocols `fanstage.v1` and `fanstage.token.<access
 * token>` (`socketProtocols`): browsers cannot set headers on a websocket, and a token in the
 * address would sit in every proxy's and server's access log. The server answers `fanstage.v1`
 * (never the token), checks the token and the `Origin`, then sends `hello`. It pings every
 * 50 s (SPEC §9 heartbeat); the client answers `pong`, or sends `ping` itself and gets `pong`.
 * While the database is unreachable the connection is closed with 1013 and the reason
 * `service-unavailable`: try again later, with a random delay.
 */

import type { ChatMessage, MassMessage } from './chat';
import type { CallMessageType } from './rules/calls';
import type { MassGroupName } from './constants';
import type { SpendRequestRef } from './spending';

/** The subprotocol every client asks for, and the one the server answers with. */
export const REALTIME_PROTOCOL = 'fanstage.v1';
/** The access token rides in a subprotocol of its own: `fanstage.token.<token>`. */
export const TOKEN_PROTOCOL_PREFIX = 'fanstage.token.';

/** The subprotocols a socket opens with: the protocol's name and the access token. */
export function socketProtocols(token: string): string[] {
  return [REALTIME_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`];
}

/** The access token of a `Sec-WebSocket-Protocol` header, or null when it names none. */
export function tokenOfProtocols(header: string | undefined): string | null {
  for (const protocol of (header ?? '').split(',')) {
    const trimmed = protocol.trim();
    if (trimmed.startsWith(TOKEN_PROTOCOL_PREFIX) && trimmed.length > TOKEN_PROTOCOL_PREFIX.length) return trimmed.slice(TOKEN_PROTOCOL_PREFIX.length);
  }
  return null;
}

/** Events of SPEC §7 `eventMessage`: the client's indicators and the server's notices. */
export const ClientEvents = ['typing', 'stoptyping', 'mediaupload', 'audiorecord'] as const;
export type ClientEvent = (typeof ClientEvents)[number];

/** What each event of a server `eventMessage` carries in `data` (nothing to read for the indicators). */
export interface ServerEventData {
  typing: IndicatorData;
  stoptyping: IndicatorData;
  mediaupload: IndicatorData;
  audiorecord: IndicatorData;
  /** A chat message was refused: the seller's price (`price`, cents) is above what the sender accepted. */
  notAcceptedPrice: ChatRefusalData;
  /** A chat message was refused: the wallet could not pay it. */
  noCredit: ChatRefusalData;
  /** A chat message was refused: the sender's e-mail is not verified. */
  emailNotVerified: ChatRefusalData;
  /**
   * A media was unlocked: `messageId` for a chat media; `mediaUnlockHash` (the fan's key) when
   * it goes to the fan who unlocked, so every tab of theirs shows the media open.
   */
  mediaUnlock: { mediaId: number; messageId?: number; mediaUnlockHash?: string };
  /** A media of the user's own left "being added": 3 ready or 4 rejected (`MediaStatus`). */
  mediaChange: { mediaId: number; mediaStatus: number };
  /** A moderator deleted a chat message of the conversation with `userId`. */
  messageDeleted: { messageId: number };
  /** The partner programme moved for the user (docs/partners.md). */
  partnerStatusChanged: { approvedState: number; isPartner: boolean; isSeller: boolean; hasBadge: boolean };
}
export type ServerEvent = keyof ServerEventData;

/** An indicator carries no data the client reads. */
type IndicatorData = Record<string, unknown> | undefined;

/** A refused chat message: its `msgId`, and for `notAcceptedPrice` the conversation's price now (cents). */
export interface ChatRefusalData {
  msgId: string;
  price?: number;
}

/** A server `eventMessage` of one event, with the data that event carries. */
export type EventMessageOf<E extends ServerEvent> = { type: 'eventMessage'; event: E; userId: number } & (undefined extends ServerEventData[E] ? { data?: ServerEventData[E] } : { data: ServerEventData[E] });
/** Any server `eventMessage`: narrow it by `event` to read its `data`. */
export type EventMessage = { [E in ServerEvent]: EventMessageOf<E> }[ServerEvent];

export { CallMessageTypes, type CallMessageType } from './rules/calls';

/**
 * Close codes of `/ws/`: 4401 the token was refused (refresh it and connect again), 4403 the
 * origin was refused (final), 1008 too many refused messages, 1011 the server failed to open
 * the connection, 1013 try again later (the database is away, or the client read too slowly:
 * come back after a longer, random wait), 1001 the server is going away.
 */
export const CloseCodes = { unauthorized: 4401, forbiddenOrigin: 4403, policy: 1008, internalError: 1011, tryAgainLater: 1013, goingAway: 1001 } as const;
export type CloseCode = (typeof CloseCodes)[keyof typeof CloseCodes];

/** Why the server asks a client to log out (`beforeLogout`). */
export type LogoutReason = 'admin-blocked' | 'account-deleted' | 'disconnected-password' | 'widget-consent-revoked';

/** What the server sends. */
export type ServerMessage =
  /**
   * The connection is open. `chatSeq` is the last position in the user's chat stream when it
   * opened: a client that holds no chat yet resumes after it on its next reconnection.
   */
  | { type: 'hello'; userId: number; serverTime: number; chatSeq?: number }
  | { type: 'ping'; ts: number }
  | { type: 'pong'; ts: number }
  /** The viewer's balance changed: a `Balance` (lib/contract/payments.ts) with its `ts`; older ones are discarded. */
  | { type: 'amountChange'; balance: { gBalance: number; cBalance: number; cPayout: number; ts: number; myCbalance: number; myCbalance_acked: number } }
  /**
   * Badge counts changed: unread notifications, conversations with unread messages, and
   * unseen reactions to the viewer's messages (the Chat tab shows chats + reactions).
   */
  | { type: 'updateCount'; notifications: number; chats: number; reactions: number }
  /**
   * A chat message was stored: to the receiver's sockets, and to the sender's (the echo on the
   * sending socket is its acknowledgement; a resend of a stored `msgId` is echoed again).
   * `message.seq` is its position in the stream of the user the socket belongs to.
   */
  | { type: 'chatMessage'; message: ChatMessage }
  /**
   * Acknowledges a mass message to its sender's sockets; each receiver gets a `chatMessage`.
   * Its copies took the positions `seqFrom`…`seqTo` of the sender's chat stream (absent when it
   * reached nobody): the sender's client counts them as seen without being sent each copy.
   */
  | { type: 'massChatMessage'; message: MassMessage; seqFrom?: number; seqTo?: number }
  /** Someone set (or with `reactionId` null, removed) a reaction on a message both of them see. */
  | { type: 'chatReaction'; msgId: string; messageId: number; userId: number; reactionId: number | null }
  /** `userId` read the conversation with the viewer up to `readDate` (epoch ms): double checks. */
  | { type: 'readMessages'; userId: number; readDate: number }
  /** A call message relayed from `senderId` (the calls feature gives it meaning). */
  | { type: 'callMessage'; callId: string; callMessageType: CallMessageType; senderId: number; receiverId: number; callMessageBody?: unknown }
  /**
   * Answer to `resume`: the messages at positions after `after` and up to `last` of the user's
   * chat stream have been sent, in order (those with people in a block with the user left out).
   * `more`: the batch was full, resume again after `last`.
   */
  | { type: 'resumed'; last: number; more: boolean }
  /**
   * The node's link to the other nodes was down and is back (Redis restarted, a subscription
   * lost): messages of people on other nodes may have passed this socket by. The client
   * resumes its chat stream by position and reloads its counts, as after a reconnection.
   */
  | { type: 'catchUp' }
  | { type: 'notificationsRead' }
  | { type: 'newPost'; postId: number; userId: number }
  /**
   * An indicator (`typing`…, from `userId`) or a notice; `ServerEventData` says what each event
   * carries in `data`. `messageDeleted` and `mediaUnlock` go to both people, `userId` the other one.
   */
  | EventMessage
  | { type: 'beforeLogout'; reason: LogoutReason }
  /**
   * A client message the server refused: `statusText` is a message key of the error catalogue;
   * `ref` the refused message's type and `msgId` its id when it had one (a call's id for a
   * `callMessage`); `body` the spend request to confirm, for `confirmation-required`.
   */
  | { type: 'error'; statusText: string; ref?: string; msgId?: string; body?: SpendRequestRef };

/** What a client sends. */
export type ClientMessage =
  | { type: 'ping'; ts: number }
  | { type: 'pong'; ts: number }
  | { type: 'eventMessage'; event: ClientEvent; userId: number }
  | { type: 'notificationsRead' }
  /**
   * A message to `receiverId`: text, a media the sender uploaded for chat (`POST /api/media`
   * with purpose chat), or a gift. `price` is the conversation price (cents) the sender saw and
   * accepts; when the seller's price is higher the message is refused with `notAcceptedPrice`.
   * `msgId` is 1–64 letters, digits, `_`, `-`, `.` or `:` (a UUID fits), unique per sender.
   * From a widget on a partner site, a paid message beyond the site's allowance is refused with
   * `error` `confirmation-required` (its `body` the spend request); sent again with
   * `confirmation`, the id of the request the fan confirmed, it goes once.
   */
  | { type: 'chatMessage'; msgId: string; receiverId: number; text?: string; mediaId?: number; giftId?: number; price?: number; confirmation?: string }
  /** A creator's message to a whole group (SPEC §7 `massChatMessage`); `senderId` is the sender's own id. */
  | { type: 'massChatMessage'; msgId: string; senderId?: number; recGroup: MassGroupName; text?: string; mediaId?: number }
  /** Sets or (with null) removes the viewer's reaction on a message of a conversation of theirs. */
  | { type: 'chatReaction'; messageId: number; reactionId: number | null }
  /** The viewer read the conversation with `userId` up to now. */
  | { type: 'chatConvRead'; userId: number }
  /** The viewer opened `profileUserId`'s profile (once per profile, never one's own). */
  | { type: 'profileVisit'; userId?: number; profileUserId: number }
  /** The author announces a post of theirs that is published (followers get `newPost`). */
  | { type: 'newPost'; postId: number }
  /**
   * Relayed to `receiverId` as it is, with `senderId` added. A paid `preOffer` from a widget on
   * a partner site asks the fan to accept the price per minute, as a paid chat message does
   * (`confirmation`).
   */
  | { type: 'callMessage'; callId: string; callMessageType: CallMessageType; receiverId: number; callMessageBody?: unknown; confirmation?: string }
  /**
   * After a reconnect: send every chat message of the viewer's chat stream after position
   * `after` (the highest position up to which the client holds every message), in order, then
   * `resumed`.
   */
  | { type: 'resume'; after: number };

export type ServerMessageType = ServerMessage['type'];
export type ServerMessageOf<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>;
