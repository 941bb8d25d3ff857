/**
 * mongod's text rendering of BSON values in error messages (`BSONElement::toString`):
 * `{ a: 1, b: "x" }`, `[ 1, 2 ]`, doubles with `%.16g` plus `.0` when integral (`5.0`, `nan.0`),
 * `ObjectId('…')`, `new Date(ms)`, `/re/flags`, `Timestamp(t, i)`, `BinData(type, HEX)`.
 */
import { bsonTag, type Binary, type Code, type Timestamp } from '../../bson.js';

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
