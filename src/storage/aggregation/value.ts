/**
 * Helpers for aggregation values (mongo/src/mongo/db/exec/document_value/value.h): the
 * "missing" value that expressions return for absent fields, nullishness and truthiness.
 */
import type { Document } from '../../bson/library.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { MISSING, type Missing } from '../values/missing.js';
import { isDocument } from '../values/paths.js';

/** An absent value (mongod's EOO `Value`): a field that does not exist, `$$REMOVE`. */
export { MISSING, type Missing };

/** True for a plain embedded document (not an array or a BSON wrapper). */
export { isDocument };

/** mongod's `Value::nullish()`: null, undefined or missing. */
export function isNullish(v: unknown): boolean {
  return v === MISSING || v === null || v === undefined;
}

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
