/**
 * The ledger against a model: random sequences of everything money does on the platform
 * (card top-ups, gifts, unlocks, subscriptions and renewals, holds for calls, payouts), with
 * replays of earlier events and overspends among them. After every step the ledger must agree
 * with the model to the cent, the sum over all accounts must be zero, no account that may not
 * go negative is below zero, and a full reconciliation finds no difference.
 *
 * LEDGER_PROPERTY_RUNS sets the number of sequences (1000 under CI, on PGlite and again on
 * PostgreSQL; 200 elsewhere);
 * LEDGER_PROPERTY_SEED replays a failing seed that fast-check printed.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount } from '../support/accounts';
import { eq, sql } from '../support/db';
import { gifts, ledgerAccounts, ledgerHolds, ledgerPendingCredits } from '../../server/src/db/schema';
import { AppError } from '../../server/src/errors';
import {
  account,
  AFFILIATE_SHARE_PERCENT,
  inTransaction,
  pay,
  reconcile,
  release,
  reserve,
  settle,
  transfer,
  type PaymentInput,
  type ReserveInput,
  type SettleInput,
  type TransferInput,
  type TransferResult,
} from '../../server/src/ledger';
import { fanPriceCents, priceSteps } from '../../lib/sdk/rules/price';

/** A spend on the platform's own pages, as the fan's click there makes it. */
const PLATFORM = { channel: 'platform', at: new Date() } as const;

/**
 * Under CI the file runs twice, on PGlite and on PostgreSQL: 500 sequences on PGlite (an
 * embedded database in WebAssembly, about twice as slow a step) and 1000 on PostgreSQL make
 * 1500 sequences, some 19 000 steps, each followed by a full reconciliation.
 */
const runs = Number(process.env.LEDGER_PROPERTY_RUNS ?? (process.env.CI ? 1000 : 200));
const seed = process.env.LEDGER_PROPERTY_SEED === undefined ? undefined : Number(process.env.LEDGER_PROPERTY_SEED);

let server: TestServer;
let app: FastifyInstance;
let fans: number[] = [];
let creators: number[] = [];
let catalogue: { id: number; gValue: number; cValue: number }[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
  fans = [];
  creators = [];
  for (let i = 0; i < 3; i++) fans.push((await createAccount(app)).id);
  for (let i = 0; i < 3; i++) creators.push((await createAccount(app, { seller: true })).id);
  catalogue = await app.fanstage.db.select({ id: gifts.id, gValue: gifts.gValue, cValue: gifts.cValue }).from(gifts);
});
afterAll(async () => {
  await server?.close();
});

// ---------------------------------------------------------------------------------------------
// Operations, as plain data fast-check can generate, print and shrink.

type Op =
  | { t: 'topup'; fan: number; credits: number }
  | { t: 'gift'; fan: number; creator: number; gift: number }
  | { t: 'unlock'; fan: number; creator: number; step: number }
  | { t: 'subscribe'; fan: number; creator: number; price: number }
  | { t: 'renew'; sub: number }
  | { t: 'renewReplay'; sub: number }
  | { t: 'reserve'; fan: number; creator: number; amount: number; ttlHours: number }
  | { t: 'settle'; hold: number; amount: number; earnerPercent: number }
  | { t: 'settleReplay'; settlement: number }
  | { t: 'release'; hold: number }
  | { t: 'lapse'; minutes: number }
  | { t: 'fold' }
  | { t: 'payout'; creator: number; amount: number }
  | { t: 'payoutSent'; payout: number }
  | { t: 'replay'; index: number }
  | { t: 'conflict'; index: number }
  | { t: 'overspend'; fan: number; extra: number };

const person = fc.nat({ max: 2 });
const unlockSteps = priceSteps.postMedia.filter((step) => step > 0);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ t: fc.constant('topup' as const), fan: person, credits: fc.oneof(fc.constantFrom(500, 1000, 2500, 5000), fc.integer({ min: 1, max: 3000 })) }), weight: 4 },
  { arbitrary: fc.record({ t: fc.constant('gift' as const), fan: person, creator: person, gift: fc.nat({ max: 7 }) }), weight: 3 },
  { arbitrary: fc.record({ t: fc.constant('unlock' as const), fan: person, creator: person, step: fc.nat({ max: unlockSteps.length - 1 }) }), weight: 3 },
  { arbitrary: fc.record({ t: fc.constant('subscribe' as const), fan: person, creator: person, price: fc.integer({ min: 100, max: 2000 }) }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('renew' as const), sub: fc.nat({ max: 9 }) }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('renewReplay' as const), sub: fc.nat({ max: 9 }) }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('reserve' as const), fan: person, creator: person, amount: fc.integer({ min: 1, max: 1500 }), ttlHours: fc.integer({ min: 1, max: 3 }) }), weight: 3 },
  { arbitrary: fc.record({ t: fc.constant('settle' as const), hold: fc.nat({ max: 9 }), amount: fc.integer({ min: 1, max: 800 }), earnerPercent: fc.integer({ min: 0, max: 100 }) }), weight: 3 },
  { arbitrary: fc.record({ t: fc.constant('settleReplay' as const), settlement: fc.nat({ max: 9 }) }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('release' as const), hold: fc.nat({ max: 9 }) }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('lapse' as const), minutes: fc.constantFrom(0, 90, 150, 210) }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('fold' as const) }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('payout' as const), creator: person, amount: fc.integer({ min: 1, max: 3000 }) }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('payoutSent' as const), payout: fc.nat({ max: 9 }) }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('replay' as const), index: fc.nat({ max: 49 }) }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('conflict' as const), index: fc.nat({ max: 49 }) }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('overspend' as const), fan: person, extra: fc.integer({ min: 1, max: 500 }) }), weight: 1 },
);

/** A fan's referrer for one run: none, the fan themself (earns nothing), another fan or a creator. */
const referrerArb = fc.option(fc.nat({ max: 5 }), { nil: null });
const scenarioArb = fc.record({ referrers: fc.tuple(referrerArb, referrerArb, referrerArb), ops: fc.array(opArb, { minLength: 2, maxLength: 24, size: 'medium' }) });

// ---------------------------------------------------------------------------------------------
// The model: what every balance should be.

const walletKey = (userId: number) => `wallet:${userId}`;
const earningsKey = (userId: number) => `earnings:${userId}`;
const FEES = 'fees';
const HOLDS = 'holds';
const PENDING = 'payouts-pending';
const SENT = 'payouts-sent';
const SANDBOX = 'processor:sandbox';
const mayGoNegative = (key: string) => key === SENT || key.startsWith('processor:') || key === 'promotions';

const rowKey = (row: { kind: string; userId: number | null; processor: string | null }) =>
  row.userId !== null ? `${row.kind}:${row.userId}` : row.processor !== null ? `${row.kind}:${row.processor}` : row.kind;

/** What each account holds: its stored balance and the credits pending for it. */
async function ledgerBalances(): Promise<Map<string, number>> {
  const rows = await app.fanstage.db
    .select({
      kind: ledgerAccounts.kind,
      userId: ledgerAccounts.userId,
      processor: ledgerAccounts.processor,
      balance: sql<number>`(${ledgerAccounts.balance} + coalesce((select sum(${ledgerPendingCredits.amount}) from ${ledgerPendingCredits} where ${ledgerPendingCredits.accountId} = ${ledgerAccounts.id}), 0))::bigint`.mapWith(Number),
    })
    .from(ledgerAccounts);
  return new Map(rows.map((row) => [rowKey(row), row.balance]));
}

interface Hold {
  id: number;
  fan: number;
  creator: number;
  remaining: number;
  open: boolean;
  expiresAt: number;
}

/** An event that went through, kept to be sent again. */
type Done =
  | { via: 'transfer'; input: TransferInput }
  | { via: 'pay'; input: PaymentInput }
  | { via: 'reserve'; input: ReserveInput; holdId: number }
  | { via: 'settle'; input: SettleInput };

class Model {
  balances: Map<string, number>;
  holds: Hold[] = [];
  subscriptions: { id: number; fan: number; creator: number; price: number; fanAmount: number; periodsPaid: number }[] = [];
  payouts: { id: number; amount: number; sent: boolean }[] = [];
  done: Done[] = [];
  settlements: SettleInput[] = [];

  constructor(
    initial: Map<string, number>,
    readonly referrerOf: Map<number, number | null>,
  ) {
    this.balances = new Map(initial);
  }

  get(key: string): number {
    return this.balances.get(key) ?? 0;
  }

  add(key: string, amount: number): void {
    this.balances.set(key, this.get(key) + amount);
  }

  pay(fan: number, earner: number, fanAmount: number, earnerCents: number, from = walletKey(fan)): void {
    const fee = fanAmount - earnerCents;
    const referrer = this.referrerOf.get(fan) ?? null;
    const affiliate = referrer !== null && referrer !== fan ? Math.floor((fee * AFFILIATE_SHARE_PERCENT) / 100) : 0;
    this.add(from, -fanAmount);
    this.add(earningsKey(earner), earnerCents);
    this.add(FEES, fee - affiliate);
    if (referrer !== null) this.add(earningsKey(referrer), affiliate);
  }
}

// ---------------------------------------------------------------------------------------------
// Running a step and checking its outcome.

type Outcome = 'moved' | 'replayed' | 'noMoney' | 'idempotency-conflict';

async function outcomeOf(work: () => Promise<TransferResult | number | void>): Promise<Outcome> {
  try {
    const result = await work();
    return typeof result === 'object' && result !== null && result.replayed ? 'replayed' : 'moved';
  } catch (error) {
    if (error instanceof AppError && (error.key === 'noMoney' || error.key === 'idempotency-conflict')) return error.key;
    throw error;
  }
}

let ids = 0;
/** Order, media, subscription and payout ids, unique across runs so every key names a new event. */
const nextId = () => ++ids;

async function resend(entry: Done): Promise<Outcome> {
  const db = app.fanstage.db;
  switch (entry.via) {
    case 'transfer':
      return outcomeOf(() => inTransaction(db, (tx) => transfer(tx, entry.input)));
    case 'pay':
      return outcomeOf(() => inTransaction(db, (tx) => pay(tx, entry.input)));
    case 'settle':
      return outcomeOf(() => inTransaction(db, (tx) => settle(tx, entry.input)));
    case 'reserve': {
      const id = await inTransaction(db, (tx) => reserve(tx, entry.input));
      if (id !== entry.holdId) throw new Error(`Reserving ${entry.input.key} again gave hold ${id}, not ${entry.holdId}`);
      return 'replayed';
    }
  }
}

/** The same key with something changed: a different request under a used key. */
async function conflicting(entry: Done): Promise<Outcome> {
  const db = app.fanstage.db;
  switch (entry.via) {
    case 'transfer': {
      const [first, ...rest] = entry.input.legs;
      const legs = [{ ...first!, amount: first!.amount * 2 }, ...rest.map((leg) => ({ ...leg, amount: leg.amount * 2 }))];
      return outcomeOf(() => inTransaction(db, (tx) => transfer(tx, { ...entry.input, legs })));
    }
    case 'pay':
      return outcomeOf(() => inTransaction(db, (tx) => pay(tx, { ...entry.input, fanAmount: entry.input.fanAmount + 1 })));
    case 'settle':
      return outcomeOf(() => inTransaction(db, (tx) => settle(tx, { ...entry.input, meta: { ...entry.input.meta, changed: 1 } })));
    case 'reserve':
      return outcomeOf(() => inTransaction(db, (tx) => reserve(tx, { ...entry.input, amount: entry.input.amount + 1 })));
  }
}

async function step(model: Model, op: Op): Promise<{ expected: Outcome; actual: Outcome } | null> {
  const db = app.fanstage.db;
  const salt = app.fanstage.config.priceSalt;
  const payWith = async (input: PaymentInput): Promise<{ expected: Outcome; actual: Outcome }> => {
    const expected: Outcome = model.get(walletKey(input.fanId)) >= input.fanAmount ? 'moved' : 'noMoney';
    const actual = await outcomeOf(() => inTransaction(db, (tx) => pay(tx, input)));
    if (actual === 'moved') {
      model.pay(input.fanId, input.earnerId, input.fanAmount, input.earnerCents);
      model.done.push({ via: 'pay', input });
    }
    return { expected, actual };
  };

  switch (op.t) {
    case 'topup': {
      const orderId = nextId();
      const fan = fans[op.fan]!;
      const input: TransferInput = {
        key: `topup:${orderId}`,
        kind: 'topup',
        counterpartyId: fan,
        meta: { orderId },
        legs: [
          { account: account.processor('sandbox'), amount: -op.credits },
          { account: account.wallet(fan), amount: op.credits },
        ],
      };
      const actual = await outcomeOf(() => inTransaction(db, (tx) => transfer(tx, input)));
      if (actual === 'moved') {
        model.add(SANDBOX, -op.credits);
        model.add(walletKey(fan), op.credits);
        model.done.push({ via: 'transfer', input });
      }
      return { expected: 'moved', actual };
    }
    case 'gift': {
      const gift = catalogue[op.gift % catalogue.length]!;
      const fan = fans[op.fan]!;
      return payWith({ key: `gift:${fan}:${nextId()}`, kind: 'gift', via: PLATFORM, fanId: fan, earnerId: creators[op.creator]!, fanAmount: gift.gValue, earnerCents: gift.cValue, meta: { giftId: gift.id } });
    }
    case 'unlock': {
      const fan = fans[op.fan]!;
      const mediaId = nextId();
      const price = unlockSteps[op.step]!;
      return payWith({ key: `unlock:${fan}:${mediaId}`, kind: 'unlock', via: PLATFORM, fanId: fan, earnerId: creators[op.creator]!, fanAmount: fanPriceCents(price, salt), earnerCents: price, meta: { mediaId } });
    }
    case 'subscribe': {
      const sub = { id: nextId(), fan: fans[op.fan]!, creator: creators[op.creator]!, price: op.price, fanAmount: fanPriceCents(op.price, salt), periodsPaid: 0 };
      model.subscriptions.push(sub);
      const result = await payWith(periodPayment(sub, 1));
      if (result.actual === 'moved') sub.periodsPaid = 1;
      return result;
    }
    case 'renew': {
      const sub = model.subscriptions[op.sub % Math.max(1, model.subscriptions.length)];
      if (!sub) return null;
      const result = await payWith(periodPayment(sub, sub.periodsPaid + 1));
      if (result.actual === 'moved') sub.periodsPaid += 1;
      return result;
    }
    case 'renewReplay': {
      const paid = model.subscriptions.filter((s) => s.periodsPaid > 0);
      const sub = paid[op.sub % Math.max(1, paid.length)];
      if (!sub) return null;
      const actual = await outcomeOf(() => inTransaction(db, (tx) => pay(tx, periodPayment(sub, sub.periodsPaid))));
      return { expected: 'replayed', actual };
    }
    case 'reserve': {
      const fan = fans[op.fan]!;
      const expiresAt = new Date(app.fanstage.clock.now().getTime() + op.ttlHours * 3_600_000);
      const input: ReserveInput = { key: `call:${nextId()}`, userId: fan, beneficiaryId: creators[op.creator]!, amount: op.amount, purpose: 'call', via: PLATFORM, expiresAt };
      const expected: Outcome = model.get(walletKey(fan)) >= op.amount ? 'moved' : 'noMoney';
      let holdId = 0;
      const actual = await outcomeOf(async () => {
        holdId = await inTransaction(db, (tx) => reserve(tx, input));
      });
      if (actual === 'moved') {
        model.add(walletKey(fan), -op.amount);
        model.add(HOLDS, op.amount);
        model.holds.push({ id: holdId, fan, creator: input.beneficiaryId!, remaining: op.amount, open: true, expiresAt: expiresAt.getTime() });
        model.done.push({ via: 'reserve', input, holdId });
      } else {
        const left = await db.select({ id: ledgerHolds.id }).from(ledgerHolds).where(eq(ledgerHolds.key, input.key));
        if (left.length > 0) throw new Error(`A refused hold ${input.key} left a row behind`);
      }
      return { expected, actual };
    }
    case 'settle': {
      const hold = model.holds[op.hold % Math.max(1, model.holds.length)];
      if (!hold) return null;
      const earnerCents = Math.floor((op.amount * op.earnerPercent) / 100);
      const input: SettleInput = { key: `call:hold-${hold.id}:minute:${nextId()}`, holdId: hold.id, fanAmount: op.amount, earnerCents, meta: { conversation: hold.id } };
      const expected: Outcome = hold.open && hold.remaining >= op.amount ? 'moved' : 'noMoney';
      const actual = await outcomeOf(() => inTransaction(db, (tx) => settle(tx, input)));
      if (actual === 'moved') {
        hold.remaining -= op.amount;
        model.pay(hold.fan, hold.creator, op.amount, earnerCents, HOLDS);
        model.done.push({ via: 'settle', input });
        model.settlements.push(input);
      }
      return { expected, actual };
    }
    case 'settleReplay': {
      const input = model.settlements[op.settlement % Math.max(1, model.settlements.length)];
      if (!input) return null;
      return { expected: 'replayed', actual: await outcomeOf(() => inTransaction(db, (tx) => settle(tx, input))) };
    }
    case 'release': {
      const hold = model.holds[op.hold % Math.max(1, model.holds.length)];
      if (!hold) return null;
      const returned = await inTransaction(db, (tx) => release(tx, hold.id, app.fanstage.clock.now()));
      const expectedReturn = hold.open ? hold.remaining : 0;
      if (returned !== expectedReturn) throw new Error(`Releasing hold ${hold.id} returned ${returned}, expected ${expectedReturn}`);
      releaseInModel(model, hold);
      return null;
    }
    case 'fold': {
      // Pending credits added to their balances, as the job does: nothing any account holds changes.
      await app.fanstage.jobs.runNow('ledger-pending-credits');
      const [left] = await app.fanstage.db.select({ n: sql<number>`count(*)::int` }).from(ledgerPendingCredits);
      if (left!.n !== 0) throw new Error(`${left!.n} pending credits were left after the job ran`);
      return null;
    }
    case 'lapse': {
      app.fanstage.clock.advance(op.minutes * 60_000);
      const now = app.fanstage.clock.now().getTime();
      const lapsed = model.holds.filter((hold) => hold.open && hold.expiresAt <= now);
      const handled = await app.fanstage.jobs.runNow('lapsed-holds');
      if (handled !== lapsed.length) throw new Error(`The sweeper released ${handled} holds, the model expected ${lapsed.length}`);
      for (const hold of lapsed) releaseInModel(model, hold);
      return null;
    }
    case 'payout': {
      const creator = creators[op.creator]!;
      const payout = { id: nextId(), amount: op.amount, sent: false };
      const input: TransferInput = {
        key: `payout:${payout.id}`,
        kind: 'payout',
        userId: creator,
        meta: { payoutId: payout.id },
        legs: [
          { account: account.earnings(creator), amount: -op.amount },
          { account: account.payoutsPending, amount: op.amount },
        ],
      };
      const expected: Outcome = model.get(earningsKey(creator)) >= op.amount ? 'moved' : 'noMoney';
      const actual = await outcomeOf(() => inTransaction(db, (tx) => transfer(tx, input)));
      if (actual === 'moved') {
        model.add(earningsKey(creator), -op.amount);
        model.add(PENDING, op.amount);
        model.payouts.push(payout);
        model.done.push({ via: 'transfer', input });
      }
      return { expected, actual };
    }
    case 'payoutSent': {
      const payout = model.payouts[op.payout % Math.max(1, model.payouts.length)];
      if (!payout) return null;
      const input: TransferInput = {
        key: `payout-sent:${payout.id}`,
        kind: 'payout-sent',
        meta: { payoutId: payout.id },
        legs: [
          { account: account.payoutsPending, amount: -payout.amount },
          { account: account.payoutsSent, amount: payout.amount },
        ],
      };
      const expected: Outcome = payout.sent ? 'replayed' : 'moved';
      const actual = await outcomeOf(() => inTransaction(db, (tx) => transfer(tx, input)));
      if (actual === 'moved') {
        payout.sent = true;
        model.add(PENDING, -payout.amount);
        model.add(SENT, payout.amount);
      }
      return { expected, actual };
    }
    case 'replay': {
      const entry = model.done[op.index % Math.max(1, model.done.length)];
      if (!entry) return null;
      return { expected: 'replayed', actual: await resend(entry) };
    }
    case 'conflict': {
      const entry = model.done[op.index % Math.max(1, model.done.length)];
      if (!entry) return null;
      return { expected: 'idempotency-conflict', actual: await conflicting(entry) };
    }
    case 'overspend': {
      const fan = fans[op.fan]!;
      const fanAmount = model.get(walletKey(fan)) + op.extra;
      return payWith({ key: `unlock:${fan}:${nextId()}`, kind: 'unlock', via: PLATFORM, fanId: fan, earnerId: creators[op.fan]!, fanAmount, earnerCents: Math.floor(fanAmount / 2) });
    }
  }
}

function periodPayment(sub: Model['subscriptions'][number], period: number): PaymentInput {
  return {
    key: `subscription:${sub.id}:${period}`,
    kind: 'subscription', via: PLATFORM,
    fanId: sub.fan,
    earnerId: sub.creator,
    fanAmount: sub.fanAmount,
    earnerCents: sub.price,
    meta: { subscriptionId: sub.id, offerId: sub.id },
  };
}

function releaseInModel(model: Model, hold: Hold): void {
  if (!hold.open) return;
  model.add(HOLDS, -hold.remaining);
  model.add(walletKey(hold.fan), hold.remaining);
  hold.remaining = 0;
  hold.open = false;
}

async function checkInvariants(model: Model, after: string): Promise<void> {
  const balances = await ledgerBalances();
  let total = 0;
  for (const [key, balance] of balances) {
    total += balance;
    if (balance < 0 && !mayGoNegative(key)) throw new Error(`${after}: ${key} is ${balance}`);
  }
  if (total !== 0) throw new Error(`${after}: the balances sum to ${total}`);
  for (const key of new Set([...balances.keys(), ...model.balances.keys()])) {
    if ((balances.get(key) ?? 0) !== model.get(key)) throw new Error(`${after}: ${key} is ${balances.get(key) ?? 0} in the ledger, ${model.get(key)} in the model`);
  }
  const report = await reconcile(app.fanstage.db);
  if (!report.ok) throw new Error(`${after}: reconciliation found a difference: ${JSON.stringify(report)}`);
}

/**
 * Every sequence starts from an empty ledger (the people stay): the full reconciliation after
 * every step then reads one sequence's entries, not all of them, and holds left open by an
 * earlier sequence cannot lapse into this one. Where each spend happened (spend_attributions)
 * goes with its transfers.
 */
async function emptyLedger(): Promise<void> {
  await app.fanstage.db.execute(sql`truncate link_discounts, spend_attributions, ledger_pending_credits, ledger_entries, ledger_transfers, ledger_holds, ledger_accounts`);
}

const timing = { sequences: 0, steps: 0, ms: 0, checkMs: 0 };

describe('the ledger under random sequences of money events', () => {
  it(`agrees with its model and reconciles after every step (${runs} sequences)`, { timeout: 900_000 }, async () => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ referrers, ops }) => {
        await emptyLedger();
        const everyone = [...fans, ...creators];
        const referrerOf = new Map(fans.map((fan, i) => [fan, referrers[i] === null ? null : everyone[referrers[i]!]!]));
        await app.fanstage.db.execute(
          sql`update users set referrer_id = case id ${sql.join(
            fans.map((fan) => sql`when ${fan}::integer then ${referrerOf.get(fan) ?? null}::integer`),
            sql` `,
          )} end where id in (${sql.join(
            fans.map((fan) => sql`${fan}::integer`),
            sql`, `,
          )})`,
        );
        const model = new Model(await ledgerBalances(), referrerOf);
        timing.sequences += 1;
        for (const [index, op] of ops.entries()) {
          const result = await step(model, op);
          timing.steps += 1;
          const after = `after step ${index} ${JSON.stringify(op)}`;
          if (result && result.actual !== result.expected) throw new Error(`${after}: expected ${result.expected}, got ${result.actual}`);
          const checking = performance.now();
          await checkInvariants(model, after);
          timing.checkMs += performance.now() - checking;
        }
      }),
      { numRuns: runs, ...(seed === undefined ? {} : { seed }) },
    );
    timing.ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    console.info(`ledger property: ${timing.sequences} sequences, ${timing.steps} steps in ${(timing.ms / 1000).toFixed(1)} s (${(cpuMs / 1000).toFixed(1)} s of CPU) (${(timing.ms / Math.max(1, timing.steps)).toFixed(2)} ms a step, of which ${(timing.checkMs / Math.max(1, timing.steps)).toFixed(2)} ms checking)`);
    expect(timing.sequences).toBeGreaterThanOrEqual(runs);
  });
});
