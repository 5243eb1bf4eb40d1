import type { Database } from '../db';

/**
 * Work that must wait until a transaction has committed: a websocket message about a row
 * another node (or the client re-fetching) could not see yet would announce something the
 * database does not hold. Features mark what changed on the writer they used; the realtime
 * layer runs the marks when the outermost transaction has committed, and drops them when it
 * rolls back.
 */
type Writer = object;

export interface CommitListeners {
  /** Notifications were written for these users. */
  notified(userIds: readonly number[]): void;
  /** Money moved in or out of these users' wallets or earnings. */
  balances(userIds: readonly number[]): void;
  /** Notifications that may deserve a web push were written (features/push). */
  pushed?(items: readonly PushMark[]): void;
}

/** A notification as web push needs it. */
export interface PushMark {
  userId: number;
  type: string;
  fromUserId: number | null;
  postId: number | null;
}

interface Pending {
  notified: Set<number>;
  balances: Set<number>;
}

const pending = new WeakMap<Writer, Pending>();
const listeners = new WeakMap<Writer, CommitListeners>();
const pushes = new WeakMap<Writer, PushMark[]>();

function mark(writer: Writer, kind: keyof Pending, userIds: readonly (number | null | undefined)[]): void {
  const ids = userIds.filter((id): id is number => typeof id === 'number');
  if (ids.length === 0) return;
  const direct = listeners.get(writer);
  if (direct !== undefined) {
    direct[kind](ids);
    return;
  }
  let entry = pending.get(writer);
  if (entry === undefined) {
    entry = { notified: new Set(), balances: new Set() };
    pending.set(writer, entry);
  }
  for (const id of ids) entry[kind].add(id);
}

/** A notification was written for `userId` through `writer` (the database or a transaction). */
export function notificationRecorded(writer: Writer, userId: number): void {
  mark(writer, 'notified', [userId]);
}

/** A notification was written through `writer`: it may be pushed to the user's browsers once committed. */
export function notificationToPush(writer: Writer, item: PushMark): void {
  const direct = listeners.get(writer);
  if (direct !== undefined) {
    direct.pushed?.([item]);
    return;
  }
  let list = pushes.get(writer);
  if (list === undefined) {
    list = [];
    pushes.set(writer, list);
  }
  list.push(item);
}

/** A transfer through `writer` touched these users' wallets or earnings. */
export function balancesChanged(writer: Writer, userIds: readonly (number | null | undefined)[]): void {
  mark(writer, 'balances', userIds);
}

/**
 * Runs the listeners for marks made straight on `db` at once, and — by wrapping
 * `db.transaction` — for marks made in a transaction once it has committed. A transaction
 * that rolls back takes its marks with it.
 */
export function watchCommits(db: Database, on: CommitListeners): void {
  listeners.set(db, on);
  const original = db.transaction.bind(db);
  const wrapped: typeof db.transaction = async (work, config) => {
    let last: Writer | undefined;
    const result = await original(async (tx) => {
      // A retried transaction runs `work` again with a new writer: only the committed one counts.
      last = tx;
      return work(tx);
    }, config);
    const entry = last === undefined ? undefined : pending.get(last);
    if (entry !== undefined) {
      if (entry.notified.size > 0) on.notified([...entry.notified]);
      if (entry.balances.size > 0) on.balances([...entry.balances]);
    }
    const pushed = last === undefined ? undefined : pushes.get(last);
    if (pushed !== undefined && pushed.length > 0) on.pushed?.(pushed);
    return result;
  };
  db.transaction = wrapped;
}
