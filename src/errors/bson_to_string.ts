/**
 * Renders a value the way mongod's `BSONObj::toString()` does in error messages
 * (`{ _id: 1, name: "x" }`, `ObjectId('…')`, `new Date(…)`, `1.0` for an integral double).
 */
import {
  Binary,
  BSONRegExp,
  BSONSymbol,
  Code,
  Decimal128,
  Double,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
  isInt32Number,
} from '../bson.js';

function formatDouble(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  if (Object.is(n, -0)) return '-0.0';
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return `${n}.0`;
  return String(n);
}

/** mongod's text for `value` inside an error message. */
export function bsonToString(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  switch (typeof value) {
    case 'number':
      return isInt32Number(value) ? String(value) : formatDouble(value);
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return String(value);
    case 'bigint':
      return String(value);
  }
  if (value instanceof Double) return formatDouble(value.value);
  if (value instanceof Long) return value.toString();
  if (value instanceof Decimal128) return `NumberDecimal("${value.toString()}")`;
  if (value instanceof ObjectId) return `ObjectId('${value.toHexString()}')`;
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (value instanceof Timestamp) return `Timestamp(${value.high >>> 0}, ${value.low >>> 0})`;
  if (value instanceof Binary) {
    return `BinData(${value.sub_type}, ${Buffer.from(value.buffer.subarray(0, value.position)).toString('hex').toUpperCase()})`;
  }
  if (value instanceof BSONRegExp) return `/${value.pattern}/${value.options}`;
  if (value instanceof RegExp) return `/${value.source}/${value.flags}`;
  if (value instanceof MinKey) return 'MinKey';
  if (value instanceof MaxKey) return 'MaxKey';
  if (value instanceof BSONSymbol) return JSON.stringify(value.value);
  if (value instanceof Code) return `JavaScript(${JSON.stringify(value.code)})`;
  if (Array.isArray(value)) {
    return value.length === 0 ? '[]' : `[ ${value.map(bsonToString).join(', ')} ]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${k}: ${bsonToString(v)}`).join(', ')} }`;
  }
  return String(value);
}
