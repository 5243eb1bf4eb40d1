import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount } from '../support/accounts';
import { expectLedgerBalanced, walletOf } from '../support/money';
import { eq } from '../support/db';
import { ledgerTransfers, paymentCards, paymentOrders } from '../../server/src/db/schema';
import { SANDBOX_SIGNATURE_HEADER, sandboxKeys } from '../../server/src/features/payments/processors/sandbox';

/**
 * PGlite runs one connection, so requests there never overlap inside the database; the race
 * of many copies of one callback can only be shown on PostgreSQL.
 */
const onPostgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');

describe.skipIf(!onPostgres)('payment callbacks at once (PostgreSQL; set DATABASE_URL=postgres://… to run)', () => {
  let server: TestServer;
  let app: FastifyInstance;

  beforeAll(async () => {
    server = await startTestServer({ seed: false });
    app = server.app;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the same signed callback sent 20 times at once credits once and saves the card once', async () => {
    const fan = await createAccount(app);
    const packages = (await (await fetch(`${server.baseUrl}/api/payments/packages`, { headers: { authorization: `Bearer ${fan.accessToken}` } })).json()) as { body: unknown };
    const pkg = (packages.body as { id: number; gValue: number; cValue: number }[]).find((p) => p.gValue === 2000)!;
    const started = await fetch(`${server.baseUrl}/api/payments/pay-new-card`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fan.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ packageId: pkg.id, processor: 'sandbox', saveCard: true }),
    });
    const order = ((await started.json()) as { body: { id: string } }).body;

    const body = JSON.stringify({
      orderId: order.id,
      status: 'paid',
      externalId: 'sbx_ch_concurrent',
      card: { token: 'sbx_ok_00112233445566778899aabb', brand: 'Visa', last4: '4242', expMonth: 4, expYear: 2041 },
    });
    const signature = sandboxKeys(app.fanstage.config.jwtSecret).signBody(body);
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const response = await fetch(`${server.baseUrl}/papi/payments/sandbox/callback`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
          body,
        });
        return { status: response.status, json: await response.json() };
      }),
    );
    for (const answer of answers) expect(answer).toEqual({ status: 200, json: { statusCode: 1 } });

    expect(await walletOf(app, fan.id)).toBe(pkg.cValue);
    const transfers = await app.fanstage.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, `topup:${order.id}`));
    expect(transfers).toHaveLength(1);
    expect(await app.fanstage.db.select().from(paymentCards).where(eq(paymentCards.userId, fan.id))).toHaveLength(1);
    const [row] = await app.fanstage.db.select().from(paymentOrders).where(eq(paymentOrders.id, order.id));
    expect(row).toMatchObject({ status: 'paid', externalId: 'sbx_ch_concurrent' });
    expect(row!.cardId).not.toBeNull();
    await expectLedgerBalanced(app);
  });
});
