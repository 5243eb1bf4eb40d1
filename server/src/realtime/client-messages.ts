/**
 * What a client's message goes through once admitted: JSON and text checks, the contract's
 * schema of its type, `ping`, and the feature that answers the type, whose failure becomes the
 * refusal the client reads (the rule's key, or the server's trouble, logged).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { RawData } from 'ws';
import type { ErrorKey } from '../../../lib/contract/errors';
import type { ServerMessage } from '../../../lib/contract/realtime';
import { isDatabaseUnavailable } from '../db/availability';
import { AppError } from '../errors';
import { findUnsafeText } from '../http/input-bounds';
import { passesContract } from './checks';
import { refusal, textOf, type Connection } from './connection';
import type { SocketFeature } from './transport';

export interface ClientMessageDeps {
  send(connection: Connection, message: ServerMessage | string): void;
  /** The feature answering each client message type. */
  handlers: ReadonlyMap<string, SocketFeature>;
  /** Client messages received, by type (the types the server knows, else `unknown`). */
  received: Map<string, number>;
  log: FastifyBaseLogger;
}

/** The handler of a connection's client messages, one at a time. */
export function createClientMessages({ send, handlers, received, log }: ClientMessageDeps) {
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
    const type = typeof fields.type === 'string' ? fields.type : undefined;
    // Every message of a known type is checked against its contract schema (lib/contract/socket.ts) before anything acts on it.
    if ((type === 'ping' || type === 'pong') && !passesContract(type, fields)) {
      send(connection, refusal(type, fields, 'invalid-request'));
      return;
    }
    switch (type) {
      case 'ping':
        send(connection, { type: 'pong', ts: typeof fields.ts === 'number' ? fields.ts : Date.now() });
        return;
      case 'pong':
        return;
      default: {
        const feature = type === undefined ? undefined : handlers.get(type);
        // Counted by type only for the types the server knows, so no client can make up labels.
        const counted = feature === undefined ? 'unknown' : type!;
        received.set(counted, (received.get(counted) ?? 0) + 1);
        if (type === undefined || feature === undefined) {
          send(connection, { type: 'error', statusText: 'invalid-request', ref: type?.slice(0, 40) });
          return;
        }
        if (!passesContract(type, fields)) {
          send(connection, refusal(type, fields, 'invalid-request'));
          return;
        }
        try {
          await feature.handle(connection.peer, type, fields);
        } catch (error) {
          send(connection, refusal(type, fields, answerFor(error, feature.name, type)));
        }
      }
    }
  }

  /** The key a failed handler answers: its own for a broken rule, else the server's trouble. */
  function answerFor(error: unknown, feature: string, type: string): ErrorKey {
    if (error instanceof AppError) return error.key;
    // The database being away is no bug: the client may try again in a moment.
    if (isDatabaseUnavailable(error)) return 'service-unavailable';
    log.warn({ err: error, feature, type }, 'realtime: a client message failed');
    return 'internal-error';
  }

  return onClientMessage;
}
