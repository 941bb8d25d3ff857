/**
 * Renders values inside error messages exactly as mongod does. Two renderings exist in mongod:
 *   - `BSONElement::toString` / `BSONObj::toString` (update, projection and stage-parse errors):
 *     `{ a: 1, b: "x" }`, `[ 1, 2 ]`, doubles through `StringBuilder::appendDoubleNice`
 *     (`%.16g`, then `.0` unless the text has '.', 'E' or 'N': `2.0`, `1.5`, `nan.0`),
 *     `ObjectId('…')`, `new Date(ms)`, Decimal128 bare;
 *   - `Value`'s `operator<<` / `Document::toString` (aggregation run-time errors): `{a: 1}`,
 *     `[1, 2]`, doubles through `ostream` (`%g`, 6 significant digits: `2`), ObjectId as bare hex,
 *     a missing value as `MISSING`.
 * Sources: mongo/src/mongo/bson/bsonelement.cpp, bsonobj.cpp, util/str.h (appendDoubleNice),
 * db/exec/document_value/value.cpp and document.cpp.
 */
import type { Binary, Document } from '../../bson.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { formatDoubleNice, formatElement, formatG, formatValue } from '../values/bson_to_string.js';
import { MISSING } from './value.js';

/** `%.16g` with mongod's `.0` rule, and C's `%.<p>g` (from the value layer). */
export { formatDoubleNice, formatG };

function hexUpper(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex').toUpperCase();
}

/** A value as `BSONElement::toString(false)` writes it (`{ a: 1 }`, `[ 1, 2 ]`, `2.0`). */
export function bsonValueToString(v: unknown): string {
  return formatValue(v);
}

/** A document as `BSONObj::toString()` writes it: `{ a: 1 }`, `{}`. */
export function bsonObjectToString(doc: Document): string {
  return formatValue(doc);
}

/** An element as `BSONElement::toString()` writes it: `name: value`. */
export function elementToString(name: string, v: unknown): string {
  return formatElement(name, v);
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
