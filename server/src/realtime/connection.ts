/**
 * One client's socket as the transport keeps it (`Connection`), its message budget (a token
 * bucket, and how many refusals close it as abusive), and how a refused message is answered so
 * that the client can tell which of its drafts failed.
 */
import type { ErrorKey } from '../../../lib/contract/errors';
import type { ServerMessage } from '../../../lib/contract/realtime';
import type { RawData, WebSocket } from 'ws';
import type { SocketPeer } from './transport';

/** Refused messages beyond the burst after which the connection is closed as abusive. */
export const abuseAfterRefusals = 40;

export function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/**
 * A chat draft refused for the rate names its msgId, so the client marks that draft failed
 * (and may send it again) instead of waiting for an echo that never comes.
 */
export function refusedChatMessage(data: RawData, isBinary: boolean): { ref?: string; msgId?: string } {
  if (isBinary) return {};
  try {
    const fields = JSON.parse(textOf(data)) as Record<string, unknown> | null;
    if (typeof fields?.msgId !== 'string' || fields.msgId.length > 64 || typeof fields.type !== 'string') return {};
    return { ref: fields.type.slice(0, 40), msgId: fields.msgId };
  } catch {
    return {};
  }
}

/** The answer to a refused client message: its key, the type it refers to and its msgId, so the right draft is marked. */
export function refusal(type: string, fields: Record<string, unknown>, statusText: ErrorKey): ServerMessage {
  const msgId = typeof fields.msgId === 'string' && fields.msgId.length <= 64 ? fields.msgId : undefined;
  return { type: 'error', statusText, ref: type.slice(0, 40), ...(msgId === undefined ? {} : { msgId }) };
}

export interface Connection {
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
  /** What features see of it. */
  peer: SocketPeer;
  /** Its client messages, handled one at a time in the order sent. */
  queue: Promise<void>;
  /** Whether `hello` went out (and the features heard of it). */
  opened: boolean;
}

/** Token bucket: false when the connection has no message left this moment. */
export function takeToken(connection: Connection, rate: number, burst: number): boolean {
  const now = Date.now();
  connection.tokens = Math.min(burst, connection.tokens + ((now - connection.lastRefill) / 1000) * rate);
  connection.lastRefill = now;
  if (connection.tokens < 1) return false;
  connection.tokens -= 1;
  return true;
}
