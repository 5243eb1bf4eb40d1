import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { WebSocket as NodeWebSocket } from 'ws';
import { createFanstage, partnerApi, type Fanstage, type WebSocketConstructor } from '../../lib/sdk';
import type { TestServer } from '../support/server';
import { createAccount, type AccountOptions, type TestAccount } from '../support/accounts';
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

/** A signed-in person whose socket is Node's `ws`; `requested` lists the paths the SDK asked for. */
async function person(options: AccountOptions = {}): Promise<{ account: TestAccount; fanstage: Fanstage; requested: string[] }> {
  const account = await createAccount(server.app, options);
  const requested: string[] = [];
  const recording: typeof fetch = (input, init) => {
    requested.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
    return fetch(input, init);
  };
  const fanstage = createFanstage({ baseUrl: server.baseUrl, fetch: recording, socket: { WebSocketImpl: NodeWebSocket as unknown as WebSocketConstructor, reconnectMs: 100 } });
  opened.push(fanstage);
  fanstage.session.adopt({ accessToken: account.accessToken });
  await fanstage.session.loadAccount();
  return { account, fanstage, requested };
}

async function asAdmin(admin: TestAccount, url: string, payload: object): Promise<void> {
  const answer = await server.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${admin.accessToken}` }, payload });
  expect(answer.json().statusCode).toBe(2);
}

describe('the SDK follows the partner programme over the socket', { timeout: 60_000 }, () => {
  it('on approval (120) the account, the own profile and the own loaded posts are read again; a badge shown or revoked shows on the own profile without a reload', async () => {
    const applicant = await person({ username: `live${Date.now() % 100000}` });
    const admin = (await person({ level: 500 })).account;
    const { fanstage, account, requested } = applicant;
    await applyAndCheck(fanstage, '100000001');
    const created = await fanstage.posts.create({ text: 'Before I was a creator' });
    await fanstage.posts.load(created.id);
    await fanstage.profiles.load(account.username);
    const own = fanstage.profiles.get(account.id).profile;
    expect(own.value).toMatchObject({ isSeller: false, hasBadge: false });
    fanstage.socket.connect();
    await waitFor(() => expect(fanstage.socket.connectedState.value).toBe('open'));

    requested.length = 0;
    await asAdmin(admin, `/api/admin/partners/${account.id}/approve`, {});
    await waitFor(() => expect(fanstage.session.account.value).toMatchObject({ approvedState: 120, isSeller: true }));
    await waitFor(() => expect(own.value).toMatchObject({ isSeller: true, isPartner: true }));
    // SPEC §4: 120 reloads the media — the posts of the new creator this page holds are read again.
    await waitFor(() => expect(requested).toContain(`/api/posts/${created.id}`));

    // Later changes of the programme (the badge) reload the profile, not the posts.
    requested.length = 0;
    await partnerApi(fanstage.client).confirmBadge(true);
    await waitFor(() => expect(own.value?.hasBadge).toBe(true));
    await asAdmin(admin, `/api/admin/partners/${account.id}/revoke-badge`, { reason: 'Impersonation' });
    await waitFor(() => expect(own.value?.hasBadge).toBe(false));
    expect(requested).not.toContain(`/api/posts/${created.id}`);
  });
});
