/**
 * The one formatter of values inside error messages, exactly as mongod renders them. mongod has
 * two renderings:
 *   - `BSONElement::toString` / `BSONObj::toString` (`formatValue`, `formatElement`: update,
 *     projection, query and stage-parse errors): `{ a: 1, b: "x" }`, `[ 1, 2 ]`, doubles through
 *     `StringBuilder::appendDoubleNice` (`%.16g`, then `.0` unless the text has '.', 'E' or 'N':
 *     `2.0`, `1.5`, `nan.0`), `ObjectId('…')`, `new Date(ms)`, `/re/flags`, `Timestamp(t, i)`,
 *     `BinData(type, HEX)` (`UUID("…")` for a UUID), Decimal128 bare;
 *   - `Value`'s `operator<<` / `Document::toString` (`docValueToString`: aggregation run-time
 *     errors): `{a: 1}`, `[1, 2]`, doubles through `ostream` (`%g`, 6 significant digits: `2`),
 *     ObjectId as bare hex, a missing value as `MISSING`.
 * Sources: mongo/src/mongo/bson/bsonelement.cpp, bsonobj.cpp, util/str.h (appendDoubleNice),
 * db/exec/document_value/value.cpp and document.cpp.
 */
import { bsonTag, type Binary, type Code, type Document, type Timestamp } from '../../bson/library.js';
import { bsonTypeOf } from './bson_type.js';
import { MISSING } from './missing.js';

/** `name: value`, as mongod prints one element. */
export function formatElement(name: string, value: unknown): string {
  return `${name}: ${formatValue(value)}`;
}

/** A value as mongod prints it. */
export function formatValue(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return `"${v}"`;
    case 'number':
      return Number.isInteger(v) && !Object.is(v, -0) && v >= -2147483648 && v <= 2147483647
        ? String(v)
        : formatDoubleNice(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'undefined':
      return 'undefined';
    case 'bigint':
      return String(v);
    case 'object':
      break;
    default:
      return String(v);
  }
  if (v === null) return 'null';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[ ${v.map((x) => formatValue(x)).join(', ')} ]`;
  }
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (v instanceof RegExp) return `/${v.source}/${v.flags}`;
  const tag = bsonTag(v);
  if (typeof tag === 'string') {
    switch (tag) {
      case 'ObjectId':
        return `ObjectId('${(v as { toHexString(): string }).toHexString()}')`;
      case 'Double':
        return formatDoubleNice((v as { value: number }).value);
      case 'Int32':
        return String((v as { value: number }).value);
      case 'Long':
      case 'Decimal128':
        return String(v);
      case 'Binary': {
        const b = v as Binary;
        if (b.sub_type === 4 && b.position === 16) {
          // A UUID prints as mongod's `UUID("…")`.
          const h = Buffer.from(b.buffer.subarray(0, 16)).toString('hex');
          return `UUID("${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}")`;
        }
        let hex = '';
        for (let i = 0; i < b.position; i++) hex += b.buffer[i]!.toString(16).padStart(2, '0');
        return `BinData(${b.sub_type}, ${hex.toUpperCase()})`;
      }
      case 'Timestamp': {
        const t = v as Timestamp;
        return `Timestamp(${t.t}, ${t.i})`;
      }
      case 'BSONRegExp': {
        const r = v as { pattern: string; options: string };
        return `/${r.pattern}/${r.options}`;
      }
      case 'BSONSymbol':
        return `"${String((v as { value: unknown }).value)}"`;
      case 'Code': {
        const c = v as Code;
        return c.scope != null ? `CodeWScope( ${c.code}, ${formatValue(c.scope)})` : c.code;
      }
      case 'MinKey':
        return 'MinKey';
      case 'MaxKey':
        return 'MaxKey';
    }
  }
  const entries = Object.keys(v as object);
  if (entries.length === 0) return '{}';
  const obj = v as Record<string, unknown>;
  return `{ ${entries.map((k) => formatElement(k, obj[k])).join(', ')} }`;
}

/** C's `%.16g` followed by `.0` when the text has no '.', 'E' or 'N' (mongod's appendDoubleNice). */
export function formatDoubleNice(x: number): string {
  const s = formatG(x, 16);
  return s.includes('.') || s.includes('E') || s.includes('N') ? s : s + '.0';
}

/** C's `%g` (default precision 6), as `str::stream() << double` prints. */
export function formatDoubleShort(x: number): string {
  return formatG(x, 6);
}

/** C's `%.<precision>g` for a double. */
export function formatG(x: number, precision: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  // toExponential gives the decimal exponent after rounding to `precision` digits.
  const e = x.toExponential(precision - 1);
  const [mant, expText] = e.split('e') as [string, string];
  const X = Number(expText);
  if (X < -4 || X >= precision) {
    let m = mant;
    if (m.includes('.')) m = m.replace(/0+$/, '').replace(/\.$/, '');
    const sign = X < 0 ? '-' : '+';
    const digits = Math.abs(X) < 10 ? '0' + Math.abs(X) : String(Math.abs(X));
    return `${m}e${sign}${digits}`;
  }
  let f = x.toFixed(Math.max(0, precision - 1 - X));
  if (f.includes('.')) f = f.replace(/0+$/, '').replace(/\.$/, '');
  return f;
}

function hexUpper(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex').toUpperCase();
}

/** A value as mongod's `Value` stream operator writes it (aggregation run-time messages). */
export function docValueToString(v: unknown): string {
  if (v === MISSING) return 'MISSING';
  switch (bsonTypeOf(v)) {
    case 'int':
      return String(v);
    case 'double':
      return formatG(typeof v === 'number' ? v : (v as { value: number }).value, 6);
    case 'long':
    case 'decimal':
      return String(v);
    case 'string':
      return `"${v as string}"`;
    case 'symbol':
      return `Symbol("${String((v as { value: unknown }).value)}")`;
    case 'bool':
      return v ? 'true' : 'false';
    case 'null':
      return 'null';
    case 'undefined':
      return 'undefined';
    case 'minKey':
      return 'MinKey';
    case 'maxKey':
      return 'MaxKey';
    case 'date':
      return (v as Date).toISOString();
    case 'objectId':
      return (v as { toHexString(): string }).toHexString();
    case 'timestamp': {
      const t = v as { t: number; i: number };
      return `Timestamp(${t.t}, ${t.i})`;
    }
    case 'regex': {
      const r = v as { pattern?: string; options?: string; source?: string; flags?: string };
      return `/${r.pattern ?? r.source}/${r.options ?? r.flags ?? ''}`;
    }
    case 'binData': {
      const b = v as Binary;
      return `BinData(${b.sub_type}, "${hexUpper(b.buffer.subarray(0, b.position))}")`;
    }
    case 'javascript':
    case 'javascriptWithScope':
      return `Code("${String((v as { code: string }).code)}")`;
    case 'array':
      return `[${(v as unknown[]).map(docValueToString).join(', ')}]`;
    default: {
      const doc = v as Document;
      return `{${Object.keys(doc)
        .map((k) => `${k}: ${docValueToString(doc[k])}`)
        .join(', ')}}`;
    }
  }
}
