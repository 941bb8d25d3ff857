/**
 * Value matching of the unified test format ("Evaluating Matches" in
 * mongodb/specifications source/unified-test-format/unified-test-format.md): root-level documents
 * may carry extra fields, nested ones may not; arrays match element by element; int32, int64 and
 * double compare numerically (Decimal128 only with Decimal128); `$$`-operators (`$$exists`,
 * `$$type`, `$$unsetOrMatches`, `$$matchesEntity`, `$$matchesHexBytes`, `$$sessionLsid`, `$$lte`,
 * `$$matchAsDocument`, `$$matchAsRoot`) are evaluated. Also the exact comparison used for
 * `outcome` (same keys, any order, no operators).
 */
import { BSON } from 'mongodb';

const { EJSON } = BSON;

/** A failed assertion, with the path of the value that did not match. */
export class MatchError extends Error {
  constructor(path: string, message: string) {
    super(`${path || '<root>'}: ${message}`);
    this.name = 'MatchError';
  }
}

/** What the matcher needs from the test: entities for `$$matchesEntity` and `$$sessionLsid`. */
export interface MatchContext {
  /** The value of a BSON entity (throws when undefined). */
  entity(name: string): unknown;
  /** The logical session id document of a session entity (throws when undefined). */
  sessionLsid(name: string): unknown;
}

/** A document as the matcher sees it: a plain object (not a BSON value class, Date or array). */
export function isDocument(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value) || value instanceof Date || value instanceof RegExp || ArrayBuffer.isView(value)) return false;
  if (value instanceof Map) return false;
  const tag = (value as { _bsontype?: unknown })._bsontype;
  return tag === undefined || tag === 'DBRef';
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * The BSON type alias (`$type` names) of a value as the driver hands it over. A bare JS number is
 * an `int` when integral within int32 (not -0), otherwise a `double`; results read with
 * `promoteValues: false` keep their exact wrapper types.
 */
export function bsonTypeName(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX && !Object.is(value, -0) ? 'int' : 'double';
    case 'bigint':
      return 'long';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      break;
  }
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  if (value instanceof RegExp) return 'regex';
  if (ArrayBuffer.isView(value)) return 'binData';
  const tag = (value as { _bsontype?: string })._bsontype;
  switch (tag) {
    case 'Int32':
      return 'int';
    case 'Double':
      return 'double';
    case 'Long':
      return 'long';
    case 'Decimal128':
      return 'decimal';
    case 'ObjectId':
      return 'objectId';
    case 'Binary':
      return 'binData';
    case 'Timestamp':
      return 'timestamp';
    case 'BSONRegExp':
      return 'regex';
    case 'Code':
      return (value as { scope?: unknown }).scope ? 'javascriptWithScope' : 'javascript';
    case 'MinKey':
      return 'minKey';
    case 'MaxKey':
      return 'maxKey';
    case 'BSONSymbol':
      return 'symbol';
    case 'DBPointer':
      return 'dbPointer';
    default:
      return 'object';
  }
}

const NUMERIC = new Set(['int', 'long', 'double']);

/** An int32/int64/double value as a number or bigint (exact for integers), or undefined. */
function numericValue(value: unknown): number | bigint | undefined {
  const type = bsonTypeName(value);
  if (!NUMERIC.has(type)) return undefined;
  if (typeof value === 'number' || typeof value === 'bigint') return value;
  const tag = (value as { _bsontype?: string })._bsontype;
  if (tag === 'Long') return BigInt((value as { toString(): string }).toString());
  return (value as { valueOf(): number }).valueOf();
}

/** Compares two numerics: negative, zero or positive; NaN equals NaN; undefined when unordered. */
function compareNumeric(a: number | bigint, b: number | bigint): number | undefined {
  if (typeof a === 'number' && Number.isNaN(a)) return typeof b === 'number' && Number.isNaN(b) ? 0 : undefined;
  if (typeof b === 'number' && Number.isNaN(b)) return undefined;
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  // Mixed: compare exactly when the number is integral, else as doubles.
  const num = (typeof a === 'number' ? a : b) as number;
  const big = (typeof a === 'bigint' ? a : b) as bigint;
  let cmp: number;
  if (Number.isInteger(num)) {
    const n = BigInt(num);
    cmp = n < big ? -1 : n > big ? 1 : 0;
  } else {
    const d = Number(big);
    cmp = num < d ? -1 : num > d ? 1 : 0;
  }
  return typeof a === 'number' ? cmp : -cmp;
}

function show(value: unknown): string {
  try {
    return EJSON.stringify(value as never, { relaxed: true });
  } catch {
    return String(value);
  }
}

function regexParts(value: unknown): { pattern: string; options: string } | undefined {
  if (value instanceof RegExp) {
    const map: Record<string, string> = { i: 'i', m: 'm', s: 's', u: 'u' };
    const options = [...value.flags].map((f) => map[f] ?? '').join('');
    return { pattern: value.source, options: [...options].sort().join('') };
  }
  if ((value as { _bsontype?: string } | null)?._bsontype === 'BSONRegExp') {
    const r = value as { pattern: string; options: string };
    return { pattern: r.pattern, options: [...r.options].sort().join('') };
  }
  return undefined;
}

function bytesOf(value: unknown): Uint8Array | undefined {
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if ((value as { _bsontype?: string } | null)?._bsontype === 'Binary') {
    const b = value as { buffer: Uint8Array; position: number };
    return b.buffer.subarray(0, b.position);
  }
  return undefined;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Equality of two values that are neither documents nor arrays: same BSON type (int32, int64 and
 * double count as one numeric type) and same value. Returns a reason when they differ.
 */
function scalarMismatch(expected: unknown, actual: unknown): string | undefined {
  const te = bsonTypeName(expected);
  const ta = bsonTypeName(actual);
  if (NUMERIC.has(te) && NUMERIC.has(ta)) {
    return compareNumeric(numericValue(expected)!, numericValue(actual)!) === 0 ? undefined : `expected ${show(expected)}, got ${show(actual)}`;
  }
  if (te !== ta) return `expected type ${te} (${show(expected)}), got ${ta} (${show(actual)})`;
  let equal: boolean;
  switch (te) {
    case 'null':
    case 'undefined':
    case 'minKey':
    case 'maxKey':
      equal = true;
      break;
    case 'string':
    case 'bool':
      equal = expected === actual;
      break;
    case 'date':
      equal = (expected as Date).getTime() === (actual as Date).getTime();
      break;
    case 'decimal':
    case 'objectId':
    case 'timestamp':
    case 'symbol':
      equal = String(expected) === String(actual) && show(expected) === show(actual);
      break;
    case 'binData': {
      const se = (expected as { sub_type?: number }).sub_type ?? 0;
      const sa = (actual as { sub_type?: number }).sub_type ?? 0;
      equal = se === sa && bytesEqual(bytesOf(expected)!, bytesOf(actual)!);
      break;
    }
    case 'regex': {
      const re = regexParts(expected)!;
      const ra = regexParts(actual)!;
      equal = re.pattern === ra.pattern && re.options === ra.options;
      break;
    }
    case 'javascript':
    case 'javascriptWithScope': {
      const ce = expected as { code: string; scope?: unknown };
      const ca = actual as { code: string; scope?: unknown };
      equal = ce.code === ca.code && exactMismatch(ce.scope ?? null, ca.scope ?? null, '') === undefined;
      break;
    }
    default:
      equal = show(expected) === show(actual);
  }
  return equal ? undefined : `expected ${show(expected)}, got ${show(actual)}`;
}

/** The single `$$` operator of `value`, when it is an operator document. */
function operatorOf(value: unknown): string | undefined {
  if (!isDocument(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0]!.startsWith('$$') ? keys[0] : undefined;
}

const TYPE_ALIASES: Record<string, readonly string[]> = {
  number: ['int', 'long', 'double', 'decimal'],
};

function hexOf(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/**
 * Asserts that `actual` matches `expected` under the unified format's rules; throws MatchError.
 * `isRoot` says whether `actual` is a root-level document (extra fields allowed).
 */
export function matchValue(expected: unknown, actualValue: unknown, ctx: MatchContext, path = '', isRoot = true): void {
  // The driver builds some command fields (a sort) as Maps: they are documents on the wire.
  const actual = actualValue instanceof Map ? Object.fromEntries(actualValue) : actualValue;
  const op = operatorOf(expected);
  if (op !== undefined) {
    matchOperator(op, (expected as Record<string, unknown>)[op], actual, ctx, path, isRoot);
    return;
  }
  if (isDocument(expected)) {
    if (!isDocument(actual)) throw new MatchError(path, `expected a document ${show(expected)}, got ${bsonTypeName(actual)} ${show(actual)}`);
    for (const [key, value] of Object.entries(expected)) {
      const sub = path ? `${path}.${key}` : key;
      const keyOp = operatorOf(value);
      const present = Object.prototype.hasOwnProperty.call(actual, key) && actual[key] !== undefined;
      if (keyOp === '$$exists') {
        const want = (value as Record<string, unknown>).$$exists;
        if (typeof want !== 'boolean') throw new Error(`$$exists needs a boolean at ${sub}`);
        if (want !== present) throw new MatchError(sub, want ? 'expected the field to exist' : `expected no field, got ${show(actual[key])}`);
        continue;
      }
      if (keyOp === '$$unsetOrMatches') {
        if (!present) continue;
        matchValue((value as Record<string, unknown>).$$unsetOrMatches, actual[key], ctx, sub, false);
        continue;
      }
      if (keyOp !== undefined) {
        matchOperator(keyOp, (value as Record<string, unknown>)[keyOp], present ? actual[key] : undefined, ctx, sub, false);
        continue;
      }
      if (!present) throw new MatchError(sub, `expected ${show(value)}, the field is missing`);
      matchValue(value, actual[key], ctx, sub, false);
    }
    if (!isRoot) {
      const extra = Object.keys(actual).filter((k) => actual[k] !== undefined && !Object.prototype.hasOwnProperty.call(expected, k));
      if (extra.length > 0) throw new MatchError(path, `unexpected field(s) ${extra.join(', ')} in ${show(actual)}`);
    }
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) throw new MatchError(path, `expected an array ${show(expected)}, got ${bsonTypeName(actual)} ${show(actual)}`);
    if (actual.length !== expected.length) {
      throw new MatchError(path, `expected ${expected.length} element(s), got ${actual.length}: ${show(actual)}`);
    }
    expected.forEach((el, i) => matchValue(el, actual[i], ctx, `${path}[${i}]`, false));
    return;
  }
  if (actual === undefined) throw new MatchError(path, `expected ${show(expected)}, got nothing`);
  const why = scalarMismatch(expected, actual);
  if (why) throw new MatchError(path, why);
}

function matchOperator(op: string, arg: unknown, actual: unknown, ctx: MatchContext, path: string, isRoot: boolean): void {
  switch (op) {
    case '$$exists':
      // At the root or as an array element there is no key: "exists" means "is set".
      if ((actual !== undefined) !== arg) throw new MatchError(path, arg ? 'expected a value' : `expected nothing, got ${show(actual)}`);
      return;
    case '$$type': {
      const wanted = (Array.isArray(arg) ? arg : [arg]) as string[];
      if (actual === undefined) throw new MatchError(path, `expected a value of type ${wanted.join('|')}, got nothing`);
      const type = bsonTypeName(actual);
      const ok = wanted.some((t) => t === type || (TYPE_ALIASES[t]?.includes(type) ?? false));
      if (!ok) throw new MatchError(path, `expected type ${wanted.join('|')}, got ${type} ${show(actual)}`);
      return;
    }
    case '$$unsetOrMatches':
      if (actual === undefined) return;
      matchValue(arg, actual, ctx, path, isRoot);
      return;
    case '$$matchesEntity':
      matchValue(ctx.entity(arg as string), actual, ctx, path, isRoot);
      return;
    case '$$matchesHexBytes': {
      if (typeof arg !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(arg)) throw new Error(`malformed $$matchesHexBytes ${String(arg)}`);
      const bytes = bytesOf(actual);
      if (!bytes) throw new MatchError(path, `expected bytes, got ${bsonTypeName(actual)}`);
      if (hexOf(bytes) !== arg.toLowerCase()) throw new MatchError(path, `expected bytes ${arg.toLowerCase()}, got ${hexOf(bytes)}`);
      return;
    }
    case '$$sessionLsid': {
      const lsid = ctx.sessionLsid(arg as string);
      if (actual === undefined) throw new MatchError(path, 'expected an lsid, got nothing');
      const why = exactMismatch(lsid, actual, path);
      if (why) throw new MatchError(path, `lsid of session ${String(arg)}: ${why}`);
      return;
    }
    case '$$lte': {
      const limit = numericValue(arg);
      const value = numericValue(actual);
      if (limit === undefined) throw new Error(`$$lte needs a number at ${path}`);
      if (value === undefined) throw new MatchError(path, `expected a number <= ${show(arg)}, got ${bsonTypeName(actual)} ${show(actual)}`);
      const cmp = compareNumeric(value, limit);
      if (cmp === undefined || cmp > 0) throw new MatchError(path, `expected <= ${show(arg)}, got ${show(actual)}`);
      return;
    }
    case '$$matchAsDocument': {
      if (typeof actual !== 'string') throw new MatchError(path, `expected an Extended JSON string, got ${bsonTypeName(actual)}`);
      const parsed = EJSON.parse(actual, { relaxed: false });
      matchValue(arg, parsed, ctx, path, false);
      return;
    }
    case '$$matchAsRoot':
      matchValue(arg, actual, ctx, path, true);
      return;
    default:
      throw new Error(`unsupported special operator ${op} at ${path || '<root>'}`);
  }
}

/**
 * The exact comparison of `outcome` data: the same keys (any order), arrays of the same length,
 * scalars equal as in `matchValue` (numeric types compare numerically). Returns a reason or
 * undefined when equal.
 */
export function exactMismatch(expected: unknown, actualValue: unknown, path: string): string | undefined {
  const actual = actualValue instanceof Map ? Object.fromEntries(actualValue) : actualValue;
  if (isDocument(expected)) {
    if (!isDocument(actual)) return `${path || '<root>'}: expected a document ${show(expected)}, got ${show(actual)}`;
    const ek = Object.keys(expected).filter((k) => expected[k] !== undefined);
    const ak = Object.keys(actual).filter((k) => actual[k] !== undefined);
    const missing = ek.filter((k) => !ak.includes(k));
    const extra = ak.filter((k) => !ek.includes(k));
    if (missing.length > 0 || extra.length > 0) {
      return `${path || '<root>'}: keys differ (missing: ${missing.join(', ') || '-'}; extra: ${extra.join(', ') || '-'}) in ${show(actual)}`;
    }
    for (const k of ek) {
      const why = exactMismatch(expected[k], actual[k], path ? `${path}.${k}` : k);
      if (why) return why;
    }
    return undefined;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path || '<root>'}: expected an array ${show(expected)}, got ${show(actual)}`;
    if (actual.length !== expected.length) return `${path || '<root>'}: expected ${expected.length} element(s), got ${actual.length}: ${show(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const why = exactMismatch(expected[i], actual[i], `${path}[${i}]`);
      if (why) return why;
    }
    return undefined;
  }
  const why = scalarMismatch(expected, actual);
  return why ? `${path || '<root>'}: ${why}` : undefined;
}

/** Extended JSON text of a value, for messages. */
export function describeValue(value: unknown): string {
  return show(value);
}
