import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { WebSocket as NodeWebSocket } from 'ws';
import { createFanstage, type Fanstage, type WebSocketConstructor } from '../../lib/sdk';
import { IdCheckStatus } from '../../lib/ui';
import en from '../../lib/i18n/locales/en.json';
import cs from '../../lib/i18n/locales/cs.json';
import type { TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { renderWith } from './support/auth';
import { startRealServer } from './support/realServer';
import { applyAndCheck } from './partnerSupport';

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

/** A signed-in applicant whose page holds an open socket, as the site keeps one. */
async function applicant(documentNumber: string): Promise<{ account: TestAccount; fanstage: Fanstage }> {
  const account = await createAccount(server.app, {});
  const fanstage = createFanstage({ baseUrl: server.baseUrl, socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor, reconnectMs: 100 } });
  opened.push(fanstage);
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  await applyAndCheck(fanstage, documentNumber);
  fanstage.socket.connect();
  await waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));
  return { account, fanstage };
}

async function decide(account: TestAccount, action: 'approve' | 'decline', reason?: string): Promise<void> {
  const admin = await createAccount(server.app, { level: 500 });
  const answer = await server.app.inject({
    method: 'POST',
    url: `/api/admin/partners/${account.id}/${action}`,
    headers: { authorization: `Bearer ${admin.accessToken}` },
    payload: reason === undefined ? {} : { reason },
  });
  expect(answer.json().statusCode).toBe(2);
}

describe('the identity check result follows the administrator’s decision live', { timeout: 60_000 }, () => {
  it('changes to "you are a partner" when the administrator approves, without a reload', async () => {
    const { account, fanstage } = await applicant('100000001');
    // No polling: only the socket can bring the change.
    renderWith(fanstage, <IdCheckStatus pollMs={3_600_000} />);
    expect(await screen.findByText(en.partner.result.approved)).toBeInTheDocument();
    await decide(account, 'approve');
    expect(await screen.findByText(en.partner.result.partner)).toBeInTheDocument();
  });

  it('says in Czech that the application was sent back, with the reason, when the administrator declines', async () => {
    const { account, fanstage } = await applicant('100000001');
    renderWith(fanstage, <IdCheckStatus pollMs={3_600_000} />, 'cs');
    expect(await screen.findByText(cs.partner.result.approved)).toBeInTheDocument();
    await decide(account, 'decline', 'Blurred address');
    expect(await screen.findByText(cs.partner.result.applicationDeclined.replace('{{reason}}', 'Blurred address'))).toBeInTheDocument();
  });
});
