import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { account, balanceOf, inTransaction, reconcile, transfer } from '../../server/src/ledger';
import { describeReport } from '../../server/src/ledger/reconcile';

/**
 * Gives a user credits the way the platform grants promotional credits: a real ledger transfer
 * from the promotions account, so every balance and the reconciliation stay true.
 */
export async function fundWallet(app: FastifyInstance, userId: number, credits: number): Promise<void> {
  await inTransaction(app.fanstage.db, (tx) =>
    transfer(tx, {
      key: `promotion:test:${userId}:${randomBytes(6).toString('hex')}`,
      kind: 'promotion',
      counterpartyId: userId,
      legs: [
        { account: account.promotions, amount: -credits },
        { account: account.wallet(userId), amount: credits },
      ],
    }),
  );
}

/** Credits in a user's wallet. */
export const walletOf = (app: FastifyInstance, userId: number) => balanceOf(app.fanstage.db, account.wallet(userId));
/** Cents a user has earned and not yet asked to be paid out. */
export const earningsOf = (app: FastifyInstance, userId: number) => balanceOf(app.fanstage.db, account.earnings(userId));
/** Fails the test unless every balance agrees with its entries and the sum is zero. */
export async function expectLedgerBalanced(app: FastifyInstance): Promise<void> {
  const report = await reconcile(app.fanstage.db);
  if (!report.ok) throw new Error(`The ledger does not reconcile:\n${describeReport(report)}`);
}

/**
 * Gives several users credits in one database transaction, each as `fundWallet` does: on PGlite
 * files every commit is written through to disk, so arranging many wallets one commit each is slow.
 */
export async function fundWallets(app: FastifyInstance, credits: ReadonlyMap<number, number>): Promise<void> {
  await inTransaction(app.fanstage.db, async (tx) => {
    for (const [userId, amount] of credits) {
      if (amount <= 0) continue;
      await transfer(tx, {
        key: `promotion:test:${userId}:${randomBytes(6).toString('hex')}`,
        kind: 'promotion',
        counterpartyId: userId,
        legs: [
          { account: account.promotions, amount: -amount },
          { account: account.wallet(userId), amount },
        ],
      });
    }
  });
}
