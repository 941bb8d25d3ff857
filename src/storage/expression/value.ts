/**
 * What expressions know of values (mongo/src/mongo/db/exec/document_value/value.h): nullishness
 * and truthiness of a `Value`, its `$type` name, a field read as MISSING when absent, and the
 * constant expression. The absent value itself is `MISSING` of values/missing.ts.
 */
import type { Document } from '../../bson/library.js';
import type { Evaluator, Frame } from './types.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { cloneValue } from '../values/clone.js';
import { MISSING } from '../values/missing.js';

export { isNullish } from '../values/missing.js';

/** mongod's `Value::coerceToBool()`: false for false, null, undefined, missing and numeric zero. */
export function toBool(v: unknown): boolean {
  if (v === MISSING || v === null || v === undefined || v === false) return false;
  if (v === true) return true;
  if (typeof v === 'number') return v !== 0;
  switch (bsonTypeOf(v)) {
    case 'double':
    case 'int':
      return (v as { value: number }).value !== 0;
    case 'long':
      return !(v as { isZero(): boolean }).isZero();
    case 'decimal': {
      const s = String(v);
      return !/^-?0(\.0*)?(E[+-]?\d+)?$/i.test(s);
    }
    default:
      return true;
  }
}

/** The `$type` name of a value, `missing` for MISSING. */
export function typeName(v: unknown): string {
  return v === MISSING ? 'missing' : bsonTypeOf(v);
}

/** MISSING for undefined-as-absent lookups on a document field. */
export function fieldOf(doc: Document, name: string): unknown {
  if (!Object.prototype.hasOwnProperty.call(doc, name)) return MISSING;
  return doc[name];
}

/** Turns MISSING into `undefined` (for callers outside the aggregation engine). */
export function externalValue(v: unknown): unknown {
  return v === MISSING ? undefined : v;
}

/** `$literal` / `$const`: the argument, unparsed (containers copied on every evaluation). */
export function constant(value: unknown): Evaluator {
  if (typeof value === 'object' && value !== null) return () => cloneValue(value);
  return () => value;
}

/**
 * What a constant operand is evaluated against when an operator folds it at parse time, as
 * mongod's optimizer does: no document, no variable (a constant reads neither).
 */
export const CONSTANT_FRAME: Frame = Object.freeze({
  root: Object.freeze({}) as Document,
  current: Object.freeze({}),
  vars: [],
  runtime: { now: new Date(0), collator: null },
});
