import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { LogoutReason, ServerMessage } from '../../../lib/contract/realtime';

/**
 * What travels between nodes: a delivery to people's sockets, a forced logout, or word that a
 * node answered writes (lists held in memory for a moment are out of date).
 */
export type BusEvent =
  | { kind: 'deliver'; userIds: number[]; message: ServerMessage; except?: string }
  | { kind: 'logout'; userId: number; reason: LogoutReason; keepSessionFamily?: string; onlyOrigin?: string }
  | { kind: 'wrote' };

interface Envelope {
  /** The node that published it; that node delivered locally already. */
  origin: string;
  event: BusEvent;
}

export interface Bus {
  publish(event: BusEvent): void;
  /** Whether the subscription to the other nodes is up. */
  connected(): boolean;
  close(): Promise<void>;
}

/** The channel every node subscribes to. */
export const busChannel = 'fanstage:realtime';

/**
 * Cross-node delivery over Redis pub/sub. Each node keeps one publishing and one subscribed
 * connection. When Redis is unreachable the node logs and carries on serving its own sockets:
 * the database stays the source of truth and clients re-fetch when they reconnect.
 */
export function createRedisBus(url: string, nodeId: string, log: FastifyBaseLogger, onEvent: (event: BusEvent) => void, onReturn: () => void = () => {}): Bus {
  const options = { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectionName: `fanstage-${nodeId}` };
  const publisher = new Redis(url, options);
  // The subscriber queues its SUBSCRIBE until connected, and re-subscribes after a reconnect.
  const subscriber = new Redis(url, { ...options, enableOfflineQueue: true, maxRetriesPerRequest: null });
  let lastErrorLog = 0;
  const logError = (error: unknown, what: string) => {
    const now = Date.now();
    if (now - lastErrorLog < 10_000) return;
    lastErrorLog = now;
    log.warn({ err: error }, `realtime bus: ${what}; delivering to this node's sockets only`);
  };
  publisher.on('error', (error) => logError(error, 'redis publisher error'));
  subscriber.on('error', (error) => logError(error, 'redis subscriber error'));

  subscriber.subscribe(busChannel).catch((error: unknown) => logError(error, 'subscribe failed'));
  // The subscription came back after it was lost: what other nodes published meanwhile never
  // arrived here, so the node's sockets are told to catch up (ioredis subscribes again on ready).
  let lost = false;
  subscriber.on('close', () => {
    lost = true;
  });
  subscriber.on('ready', () => {
    if (!lost) return;
    lost = false;
    log.info('realtime bus: back; telling this node’s sockets to catch up');
    onReturn();
  });
  subscriber.on('message', (channel: string, text: string) => {
    if (channel !== busChannel) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (envelope.origin === nodeId || typeof envelope.event !== 'object' || envelope.event === null) return;
    onEvent(envelope.event);
  });

  return {
    connected: () => subscriber.status === 'ready',
    publish(event) {
      const envelope: Envelope = { origin: nodeId, event };
      publisher.publish(busChannel, JSON.stringify(envelope)).catch((error: unknown) => logError(error, 'publish failed'));
    },
    async close() {
      // A connected client says goodbye (briefly); one still trying to connect just stops.
      const end = async (client: Redis) => {
        if (client.status === 'ready') {
          await Promise.race([client.quit().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
        }
        client.disconnect();
      };
      await Promise.all([end(subscriber), end(publisher)]);
    },
  };
}
