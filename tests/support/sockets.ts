import { WebSocket } from 'ws';
import { socketProtocols, type ServerMessage, type ServerMessageOf, type ServerMessageType } from '../../lib/contract/realtime';
import type { TestServer } from './server';
import type { TestAccount } from './accounts';

/** Long enough never to fire on a working server; keeps a broken one from hanging the suite. */
const patience = 15_000;

/** A real websocket client of a test server that records what it receives and answers pings. */
export class SocketClient {
  readonly received: ServerMessage[] = [];
  readonly closed: Promise<number>;
  private waiters: (() => void)[] = [];

  constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => socket.on('close', (code) => resolve(code)));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      this.received.push(message);
      if (message.type === 'ping') this.send({ type: 'pong', ts: message.ts });
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Where the next message will be recorded: pass it to `next` to wait for what comes after now. */
  get mark(): number {
    return this.received.length;
  }

  /** The first message received from index `from` on that matches. */
  async next(test: (message: ServerMessage) => boolean, from = 0): Promise<ServerMessage> {
    const deadline = Date.now() + patience;
    for (;;) {
      const found = this.received.slice(from).find(test);
      if (found !== undefined) return found;
      if (Date.now() > deadline || this.socket.readyState > WebSocket.OPEN) throw new Error(`no matching message; got ${JSON.stringify(this.received.slice(from))}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** The first message of a type (and matching `test`) received from index `from` on. */
  async nextOf<T extends ServerMessageType>(type: T, from = 0, test: (message: ServerMessageOf<T>) => boolean = () => true): Promise<ServerMessageOf<T>> {
    return (await this.next((m) => m.type === type && test(m as ServerMessageOf<T>), from)) as ServerMessageOf<T>;
  }

  /** Every message of a type received from index `from` on. */
  all<T extends ServerMessageType>(type: T, from = 0): ServerMessageOf<T>[] {
    return this.received.slice(from).filter((m) => m.type === type) as ServerMessageOf<T>[];
  }

  /**
   * A round trip: the server handles a connection's messages in order, so everything it sent
   * this socket in answer to earlier messages has arrived once the pong is here.
   */
  async sync(): Promise<void> {
    const ts = Math.floor(Math.random() * 1e12);
    const from = this.received.length;
    this.send({ type: 'ping', ts });
    await this.next((m) => m.type === 'pong' && m.ts === ts, from);
  }

  close(): void {
    this.socket.close();
  }
}

/** Sockets opened by `connectSocket`, for `closeSockets` in `afterAll`. */
const open: SocketClient[] = [];

/** Opens a socket of `account` on the server (as a page of the server's own origin) and waits for hello. */
export async function connectSocket(server: Pick<TestServer, 'baseUrl'>, account: TestAccount): Promise<SocketClient> {
  const socket = new WebSocket(`${server.baseUrl.replace(/^http/, 'ws')}/ws/`, socketProtocols(account.accessToken), { origin: server.baseUrl });
  const client = new SocketClient(socket);
  open.push(client);
  await client.next((m) => m.type === 'hello');
  return client;
}

export function closeSockets(): void {
  for (const client of open.splice(0)) client.socket.terminate();
}
