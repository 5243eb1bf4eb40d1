/**
 * The ledger: every movement of money on the platform (DESIGN.md "Money", docs/ledger.md).
 * Features never touch balances themselves; they call `pay`, `transfer` or the holds, inside
 * their own database transaction, run with `inTransaction` so a serialisation failure or a
 * deadlock is retried.
 */
export { account, accountId, balanceOf, transfer, type AccountRef, type Leg, type TransferInput, type TransferResult, type Tx } from './transfer';
export { pay, AFFILIATE_SHARE_PERCENT, type PaymentInput } from './pay';
export { reserve, settle, release, releaseLapsedHolds, type ReserveInput, type SettleInput } from './holds';
export { reconcile, type ReconciliationReport } from './reconcile';
export { inTransaction, withinTransaction } from './retry';
export { authorizeSpend, isSpendRefusal, ConfirmationNeeded, limitsAt, spentAt, LIMIT_RAISE_DELAY_MS, type SpendVia, type SpendAsk } from './spend-guard';
