/**
 * The handlers `socket.on` registers, by event: adding one (the unsubscribe it returns), handing a
 * message to each handler of its type so that one broken handler stops neither the others nor the
 * connection, and counting them (a disposed Fanstage leaves none).
 */
import type { SocketEvent, SocketEventMap } from './types';

export function createSocketHandlers() {
  const handlers = new Map<SocketEvent, Set<(payload: never) => void>>();

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

  /** How many handlers `on` holds, of every type. */
  function count(): number {
    return [...handlers.values()].reduce((sum, set) => sum + set.size, 0);
  }

  return { emit, on, count };
}
