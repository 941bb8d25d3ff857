/**
 * The one absent value: what a path that leads nowhere reads (`walkPath`), what an expression
 * returns for a field that does not exist or for `$$REMOVE` (mongod's EOO `Value`). mongod tells
 * it apart from null: a missing field is omitted from an object, is null in an array, and sorts
 * below null.
 */

/** An absent value. */
export const MISSING: unique symbol = Symbol('missing');

/** The type of `MISSING`. */
export type Missing = typeof MISSING;

/** mongod's `Value::nullish()`: null, undefined or missing. */
export function isNullish(v: unknown): boolean {
  return v === MISSING || v === null || v === undefined;
}
