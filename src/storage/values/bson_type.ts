/**
 * BSON type names and codes of Mayfly values (representation: see `src/bson/library.ts`).
 * Type names and numbers are those of `$type` (mongo/src/mongo/bson/bsontypes.h).
 */
import { isInt32Number, bsonTag } from '../../bson/library.js';

/** The `$type` alias of every BSON type. */
export type BsonTypeName =
  | 'double'
  | 'string'
  | 'object'
  | 'array'
  | 'binData'
  | 'undefined'
  | 'objectId'
  | 'bool'
  | 'date'
  | 'null'
  | 'regex'
  | 'dbPointer'
  | 'javascript'
  | 'symbol'
  | 'javascriptWithScope'
  | 'int'
  | 'timestamp'
  | 'long'
  | 'decimal'
  | 'minKey'
  | 'maxKey';

/** BSON type number of every type alias. */
export const BSON_TYPE_CODES: Readonly<Record<BsonTypeName, number>> = Object.freeze({
  double: 1,
  string: 2,
  object: 3,
  array: 4,
  binData: 5,
  undefined: 6,
  objectId: 7,
  bool: 8,
  date: 9,
  null: 10,
  regex: 11,
  dbPointer: 12,
  javascript: 13,
  symbol: 14,
  javascriptWithScope: 15,
  int: 16,
  timestamp: 17,
  long: 18,
  decimal: 19,
  minKey: -1,
  maxKey: 127,
});

/** Type alias by BSON type number. */
export const BSON_TYPE_NAMES_BY_CODE: ReadonlyMap<number, BsonTypeName> = new Map(
  Object.entries(BSON_TYPE_CODES).map(([name, code]) => [code, name as BsonTypeName]),
);

/** The BSON type of a value in Mayfly's representation (`undefined` is BSON undefined). */
export function bsonTypeOf(v: unknown): BsonTypeName {
  switch (typeof v) {
    case 'number':
      return isInt32Number(v) ? 'int' : 'double';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'undefined':
      return 'undefined';
    case 'bigint':
      return 'long';
    case 'object':
      break;
    default:
      // functions and symbols are not BSON; treat as undefined.
      return 'undefined';
  }
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Date) return 'date';
  const tag = bsonTag(v);
  if (typeof tag === 'string') {
    switch (tag) {
      case 'ObjectId':
        return 'objectId';
      case 'Double':
        return 'double';
      case 'Int32':
        return 'int';
      case 'Long':
        return 'long';
      case 'Decimal128':
        return 'decimal';
      case 'Binary':
        return 'binData';
      case 'Timestamp':
        return 'timestamp';
      case 'BSONRegExp':
        return 'regex';
      case 'BSONSymbol':
        return 'symbol';
      case 'Code':
        return (v as { scope?: unknown }).scope != null ? 'javascriptWithScope' : 'javascript';
      case 'MinKey':
        return 'minKey';
      case 'MaxKey':
        return 'maxKey';
      case 'DBRef':
        return 'object';
    }
  }
  if (v instanceof RegExp) return 'regex';
  if (v instanceof Uint8Array) return 'binData';
  return 'object';
}
