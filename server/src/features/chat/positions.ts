/**
 * Positions in the chat streams (docs/realtime.md "Resume"): each user's messages are numbered
 * 1, 2, 3, … without gaps in the transaction that stores them. `takePositions` places one
 * message in its sender's and receiver's streams, `takeMassPositions` every copy of a mass
 * message at once; both lock the stream heads in user-id order, last, so a user's positions
 * commit in order.
 */
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db';
import { chatStream, chatStreamHeads } from '../../db/schema';
import type { Tx } from '../../ledger';

/**
 * Gives the stored message `messageId` the next position in the chat stream of each of
 * `userIds` (its sender and receiver), in the storing transaction. Each head row is locked
 * (lowest user id first, so two transactions never wait for each other in a circle) until the
 * transaction ends: the next message of the same user waits for it, so a user's positions
 * commit in order, and a rollback hands its positions out again. Answers user id → position.
 */
export async function takePositions(tx: Tx, messageId: number, userIds: readonly number[]): Promise<Map<number, number>> {
  const ordered = [...new Set(userIds)].sort((a, b) => a - b);
  const placed = rowsOf<{ user_id: number; seq: number }>(
    await tx.execute(sql`
      with heads as (
        insert into ${chatStreamHeads} as h (user_id, seq)
        values ${sql.join(
          ordered.map((id) => sql`(${id}::int, 1)`),
          sql`, `,
        )}
        on conflict (user_id) do update set seq = h.seq + 1
        returning h.user_id, h.seq
      )
      insert into ${chatStream} (user_id, seq, message_id)
      select heads.user_id, heads.seq, ${messageId}::int from heads
      returning user_id, seq`),
  );
  return new Map(placed.map((row) => [Number(row.user_id), Number(row.seq)]));
}

/** A Postgres array literal of integers, sent as one parameter however long the list. */
const intArray = (values: readonly number[]) => sql`${`{${values.join(',')}}`}::int[]`;

/**
 * Positions for every copy of a mass message: one in each receiver's stream, and one each, in a
 * block `seqFrom`…`seqTo`, in the sender's (heads locked in user-id order, as `takePositions`).
 * The copies come from the statement that stored them, and the pairing of positions with copies
 * is done here rather than by joining the two in SQL: the copies of a message just written have
 * no statistics, so the planner takes them for one row and joins by nested loop, which for
 * 50 000 receivers compared 2.5 billion pairs.
 */
export async function takeMassPositions(tx: Tx, senderId: number, copies: readonly { id: number; receiverId: number }[]): Promise<{ seqFrom: number; seqTo: number }> {
  const byReceiver = [...copies].sort((a, b) => a.receiverId - b.receiverId);
  const heads = rowsOf<{ user_id: number; seq: number }>(
    await tx.execute(sql`
      insert into ${chatStreamHeads} as h (user_id, seq)
      select t.user_id, t.n from (
        select unnest(${intArray(byReceiver.map((copy) => copy.receiverId))}) as user_id, 1 as n
        union all
        select ${senderId}::int, ${copies.length}::int
      ) t
      order by t.user_id
      on conflict (user_id) do update set seq = h.seq + excluded.seq
      returning h.user_id, h.seq`),
  );
  const seqOf = new Map(heads.map((row) => [Number(row.user_id), Number(row.seq)]));
  const seqTo = seqOf.get(senderId)!;
  const seqFrom = seqTo - copies.length + 1;
  const users: number[] = [];
  const seqs: number[] = [];
  const messages: number[] = [];
  const place = (userId: number, seq: number, messageId: number) => {
    users.push(userId);
    seqs.push(seq);
    messages.push(messageId);
  };
  for (const copy of byReceiver) place(copy.receiverId, seqOf.get(copy.receiverId)!, copy.id);
  // The sender's block follows the copies' ids, as the history lists them.
  for (const [i, copy] of [...copies].sort((a, b) => a.id - b.id).entries()) place(senderId, seqFrom + i, copy.id);
  await tx.execute(sql`
    insert into ${chatStream} (user_id, seq, message_id)
    select * from unnest(${intArray(users)}, ${intArray(seqs)}, ${intArray(messages)})`);
  return { seqFrom, seqTo };
}
