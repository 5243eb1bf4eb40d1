import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { WebSocket as NodeWebSocket } from 'ws';
import { createFanstage, type Fanstage, type WebSocketConstructor } from '../../lib/sdk';
import { banUser } from '../../server/src/features/auth/service';
import type { TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { startRealServer } from './support/realServer';

let server: TestServer;
const opened: Fanstage[] = [];

beforeAll(async () => {
  server = await startRealServer();
}, 60_000);

afterEach(() => {
  for (const fanstage of opened.splice(0)) {
    fanstage.socket.disconnect();
    fanstage.session.dispose();
  }
});

afterAll(async () => {
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
}, 30_000);

/** A signed-in page with its socket open, as the site keeps one. */
async function openPage(): Promise<{ account: TestAccount; fanstage: Fanstage }> {
  const account = await createAccount(server.app, {});
  const fanstage = createFanstage({ baseUrl: server.baseUrl, socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor, reconnectMs: 100 } });
  opened.push(fanstage);
  fanstage.session.adopt({ accessToken: account.accessToken });
  fanstage.socket.connect();
  await waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
  return { account, fanstage };
}

describe('a session the server ends over the socket keeps its reason (SPEC §6, §8)', { timeout: 30_000 }, () => {
  it('is banned when an administrator blocks the account', async () => {
    const { account, fanstage } = await openPage();
    await banUser(server.app.fanstage, account.id);
    await waitFor(() => expect(fanstage.session.logoutReason.value).toBe('banned'));
    expect(fanstage.session.isLoggedIn.value).toBe(false);
  });
});
