import { Type, type TNumberOptions } from 'typebox';

/**
 * Bounds every integer a client sends is held to. Ids, prices, offsets and amounts are stored
 * in PostgreSQL `integer` columns (int4): a larger number passes a plain `Type.Integer()` and
 * then makes the database throw, which used to surface as a 500. Refusing it at the edge
 * answers 400 `invalid-request` instead and tells the client which field was wrong.
 */
export const Int32 = { min: -2_147_483_648, max: 2_147_483_647 } as const;

/**
 * The latest instant a client may name (epoch ms of 9999-12-31T23:59:59.999Z). JavaScript's
 * `Date` reaches further (8.64e15) but PostgreSQL's `timestamp` and every ISO formatter with a
 * four-digit year do not, so this is the largest value that is a valid date everywhere.
 */
export const MaxTimestampMs = 253_402_300_799_999;

/**
 * An integer of the request side, clamped to int32: the caller's own `minimum`/`maximum`
 * apply when they are narrower. Use it for every id, offset, limit, price and amount a client
 * sends; response schemas keep `Type.Integer()` (timestamps there exceed int32).
 */
export function Int(options: TNumberOptions = {}) {
  const minimum = typeof options.minimum === 'number' ? Math.max(options.minimum, Int32.min) : Int32.min;
  const maximum = typeof options.maximum === 'number' ? Math.min(options.maximum, Int32.max) : Int32.max;
  return Type.Integer({ ...options, minimum, maximum });
}

/** An instant a client sends (epoch ms, e.g. the `ts` cursor of a page): 0 up to `MaxTimestampMs`. */
export function Timestamp(options: TNumberOptions = {}) {
  return Type.Integer({ ...options, minimum: 0, maximum: MaxTimestampMs });
}
