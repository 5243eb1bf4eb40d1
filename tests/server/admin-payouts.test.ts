import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { eq, sql } from '../support/db';
import { expectLedgerBalanced } from '../support/money';
import { account as ledgerAccount, accountId, transfer } from '../../server/src/ledger';
import { ledgerAccounts, ledgerTransfers } from '../../server/src/db/schema';
import { MIN_PAYOUT_CENTS, PAYOUT_RESEND_WINDOW_MS } from '../../server/src/features/spending/domain';

let server: TestServer;
let app: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  await server?.close();
});

const call = apiCaller(() => app);

/** A creator who earned `cents` and keeps a PayPal address for payouts. */
async function earningCreator(cents: number, paypalEmail: string): Promise<TestAccount> {
  const creator = await createAccount(app, { seller: true });
  await app.fanstage.db.transaction((tx) =>
    transfer(tx, {
      key: `admin-payouts-test:${creator.id}`,
      kind: 'correction',
      userId: creator.id,
      legs: [
        { account: ledgerAccount.promotions, amount: -cents },
        { account: ledgerAccount.earnings(creator.id), amount: cents },
      ],
    }),
  );
  expect((await call('PUT', '/api/earnings/payout-destination', creator, { method: 'paypal', paypalEmail })).json.statusCode).toBe(2);
  return creator;
}

async function requestPayout(creator: TestAccount): Promise<number> {
  const answer = await call('POST', '/api/earnings/payout', creator, { cPayout: MIN_PAYOUT_CENTS });
  expect(answer.json.statusCode).toBe(2);
  return answer.json.body.id as number;
}

describe('GET /api/admin/payouts', () => {
  it('lists the requests waiting to be paid, oldest first, with who asked and where to pay; all of them on request', async () => {
    const admin = await createAccount(app, { level: 500 });
    const first = await earningCreator(MIN_PAYOUT_CENTS * 3, 'first@example.com');
    const second = await earningCreator(MIN_PAYOUT_CENTS * 3, 'second@example.com');
    const older = await requestPayout(first);
    app.fanstage.clock.advance(PAYOUT_RESEND_WINDOW_MS + 1);
    const newer = await requestPayout(second);

    const waiting = await call('GET', '/api/admin/payouts', admin);
    expect(waiting.json.statusCode).toBe(2);
    const mine = (waiting.json.body as { id: number }[]).filter((payout) => [older, newer].includes(payout.id));
    expect(mine).toMatchObject([
      { id: older, amount: MIN_PAYOUT_CENTS, method: 'paypal', status: 'requested', destination: 'first@example.com', sentAt: null, user: { id: first.id, username: first.username } },
      { id: newer, destination: 'second@example.com', user: { id: second.id } },
    ]);

    expect((await call('POST', `/api/admin/payouts/${older}/sent`, admin)).json.body).toMatchObject({ id: older, status: 'sent' });
    // The ledger logs who marked it paid; a second administrator marking it again changes nothing.
    const other = await createAccount(app, { level: 500 });
    expect((await call('POST', `/api/admin/payouts/${older}/sent`, other)).json.body).toMatchObject({ id: older, status: 'sent' });
    const logged = await app.fanstage.db.select({ meta: ledgerTransfers.meta }).from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, `payout-sent:${older}`));
    expect(logged).toEqual([{ meta: { payoutId: older, adminId: admin.id } }]);
    const after = (await call('GET', '/api/admin/payouts', admin)).json.body as { id: number }[];
    expect(after.map((payout) => payout.id)).not.toContain(older);
    expect(after.map((payout) => payout.id)).toContain(newer);
    const all = (await call('GET', '/api/admin/payouts?status=all', admin)).json.body as { id: number; status: string; sentAt: number | null }[];
    const ids = all.map((payout) => payout.id);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    expect(all.find((payout) => payout.id === older)).toMatchObject({ status: 'sent', sentAt: expect.any(Number) });
    await expectLedgerBalanced(app);
  });

  it('is for administrators only and answers the envelope for bad input', async () => {
    const creator = await earningCreator(MIN_PAYOUT_CENTS, 'own@example.com');
    await requestPayout(creator);
    const support = await createAccount(app, { level: 100 });
    for (const stranger of [creator, support, await createAccount(app)]) {
      const answer = await call('GET', '/api/admin/payouts', stranger);
      expect([answer.status, answer.json]).toEqual([403, { statusCode: -1, statusText: 'forbidden' }]);
    }
    const signedOut = await call('GET', '/api/admin/payouts');
    expect([signedOut.status, signedOut.json.statusCode, signedOut.json.statusText]).toEqual([401, -1, 'unauthorized']);
    const admin = await createAccount(app, { level: 500 });
    for (const query of ['status=sent', 'limit=0', 'limit=101', 'offset=-1', 'limit=abc']) {
      const answer = await call('GET', `/api/admin/payouts?${query}`, admin);
      expect([answer.status, answer.json.statusCode]).toEqual([400, -1]);
    }
  });
});

describe('GET /api/admin/ledger/reconciliation', () => {
  it('reconciles the running server’s ledger for an administrator, and names an account whose balance left its entries', async () => {
    const admin = await createAccount(app, { level: 500 });
    const creator = await earningCreator(MIN_PAYOUT_CENTS * 2, 'reconciled@example.com');
    await requestPayout(creator);

    const clean = await call('GET', '/api/admin/ledger/reconciliation', admin);
    expect(clean.json.statusCode).toBe(2);
    expect(clean.json.body).toMatchObject({ ok: true, total: 0, balanceMismatches: [], unbalancedTransfers: [], emptyTransfers: [], negativeAccounts: [], holdMismatches: [] });
    expect(clean.json.body.transfers).toBeGreaterThanOrEqual(2);

    // A balance edited behind the ledger's back is a finding, with the account it concerns.
    const earnings = await app.fanstage.db.transaction((tx) => accountId(tx, ledgerAccount.earnings(creator.id)));
    await app.fanstage.db.update(ledgerAccounts).set({ balance: sql`${ledgerAccounts.balance} + 7` }).where(eq(ledgerAccounts.id, earnings));
    try {
      const broken = (await call('GET', '/api/admin/ledger/reconciliation', admin)).json.body;
      expect(broken.ok).toBe(false);
      expect(broken.total).toBe(7);
      expect(broken.balanceMismatches).toEqual([{ accountId: earnings, kind: 'earnings', userId: creator.id, stored: MIN_PAYOUT_CENTS + 7, fromEntries: MIN_PAYOUT_CENTS }]);
    } finally {
      await app.fanstage.db.update(ledgerAccounts).set({ balance: sql`${ledgerAccounts.balance} - 7` }).where(eq(ledgerAccounts.id, earnings));
    }
    expect((await call('GET', '/api/admin/ledger/reconciliation', admin)).json.body.ok).toBe(true);
  });

  it('is for administrators only', async () => {
    const creator = await earningCreator(MIN_PAYOUT_CENTS, 'nosy@example.com');
    for (const stranger of [creator, await createAccount(app, { level: 100 }), await createAccount(app)]) {
      const answer = await call('GET', '/api/admin/ledger/reconciliation', stranger);
      expect([answer.status, answer.json]).toEqual([403, { statusCode: -1, statusText: 'forbidden' }]);
    }
    const signedOut = await call('GET', '/api/admin/ledger/reconciliation');
    expect([signedOut.status, signedOut.json.statusCode, signedOut.json.statusText]).toEqual([401, -1, 'unauthorized']);
  });
});
