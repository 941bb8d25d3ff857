/**
 * `$convert` (mongod 8.2, conformance cases of core/operator/expressions/type/convert): its
 * arguments, `to` as a name, a number or `{type, subtype}`, `onNull` before anything else,
 * `onError` for 241 only, BinData⇄string formats and BinData⇄number byte orders, and the
 * 8.x checks of `format`, `byteOrder` and `subtype`.
 */
import { describe, expect, it } from 'vitest';
import { Binary, Double, Long, ObjectId, Timestamp } from '../../../../src/bson/library.js';
import type { CommandError } from '../../../../src/errors/command_error.js';
import { expectExact } from '../../aggregation/helpers.js';
import { compile, errorRows, valueRows } from '../helpers.js';

const conv = (spec: Record<string, unknown>) => ({ $convert: spec });
const bin = (hex: string, subtype = 0) => new Binary(Buffer.from(hex, 'hex'), subtype);

describe('$convert: arguments and nullish values', () => {
  valueRows([
    ['to by name', conv({ input: '42', to: 'int' }), 42],
    ['to by BSON type number', conv({ input: 42, to: 2 }), '42'],
    ['to as a document', conv({ input: 42, to: { type: 'long' } }), Long.fromNumber(42)],
    ['extra fields of the document are ignored', conv({ input: 42, to: { type: 'int', extra: 1 } }), 42],
    ['a null input gives null', conv({ input: null, to: 'int' }), null],
    ['a null input gives onNull', conv({ input: '$nope', to: 'int', onNull: 'n' }), 'n'],
    ['onNull comes before an unsupported target', conv({ input: null, to: 'regex', onNull: 'n' }), 'n'],
    ['onNull comes before a bad subtype', conv({ input: null, to: { type: 'binData', subtype: 999 } }), null],
    ['a null to gives null, not onNull', conv({ input: 'x', to: null, onNull: 'n' }), null],
    ['a null to skips a bad format', conv({ input: 'x', to: null, format: 12345 }), null],
    ['onError replaces a conversion failure', conv({ input: 'abc', to: 'int', onError: 'e' }), 'e'],
    ['onError is an expression', conv({ input: 'abc', to: 'int', onError: { $add: [1, 2] } }), 3],
    ['false is not nullish', conv({ input: false, to: 'bool', onNull: 'n' }), false],
    ['an empty array is true', conv({ input: [], to: 'bool' }), true],
  ]);
  errorRows([
    ['a non-object argument', { $convert: 'x' }, 9, '$convert expects an object of named arguments but found: string'],
    ['an array argument', { $convert: ['x'] }, 9, '$convert expects an object of named arguments but found: array'],
    ['an unknown argument', conv({ input: 1, to: 'int', Format: 'hex' }), 9, '$convert found an unknown argument: Format'],
    ['no input', conv({ to: 'int' }), 9, "Missing 'input' parameter to $convert"],
    ['no to', conv({ input: 1 }), 9, "Missing 'to' parameter to $convert"],
    ['an unknown type name', conv({ input: 1, to: 'integer' }), 2, 'Unknown type name: integer'],
    ['to is read before a null input is seen', conv({ input: null, to: 'integer', onNull: 'n' }), 2, 'Unknown type name: integer'],
    ['a fractional number', conv({ input: 1, to: 2.5 }), 9, "In $convert, numeric 'to' argument is not an integer"],
    ['a number that is no BSON type', conv({ input: 1, to: 99 }), 9, "In $convert, numeric value for 'to' does not correspond to a BSON type: 99"],
    ['a bool to', conv({ input: 1, to: true }), 9, "$convert's 'to' argument must be a string or number, but is bool"],
    ['a document without type', conv({ input: 1, to: { subtype: 5 } }), 9, "$convert's 'to' argument must have a 'type' field"],
    ['type number 0 is an unsupported target', conv({ input: 1, to: 0 }), 241, 'Unsupported conversion from int to missing in $convert with no onError value'],
    ['an object target', conv({ input: 1, to: 'object' }), 241, 'Unsupported conversion from int to object in $convert with no onError value'],
    ['onError does not replace a parse failure of to', conv({ input: 1, to: 'nope', onError: 'e' }), 2, 'Unknown type name: nope'],
  ]);
});

describe('$convert: BinData', () => {
  valueRows([
    ['an Int32 as 4 little-endian bytes', conv({ input: 99, to: 'binData' }), bin('63000000')],
    ['an Int32 big-endian', conv({ input: 42, to: 'binData', byteOrder: 'big' }), bin('0000002a')],
    ['an Int64 as 8 bytes', conv({ input: Long.fromNumber(42), to: 'binData' }), bin('2a00000000000000')],
    ['a double as 8 bytes', conv({ input: new Double(42), to: 'binData' }), bin('0000000000004540')],
    ['a subtype', conv({ input: 42, to: { type: 'binData', subtype: 5 } }), bin('2a000000', 5)],
    ['subtype 9 (vector)', conv({ input: 42, to: { type: 'binData', subtype: 9 } }), bin('2a000000', 9)],
    ['a subtype given as a Double', conv({ input: 42, to: { type: 'binData', subtype: new Double(128) } }), bin('2a000000', 128)],
    ['a base64 string', conv({ input: 'aGVsbG8=', to: 'binData', format: 'base64' }), bin('68656c6c6f')],
    ['a base64url string, padding allowed', conv({ input: 'aGVsbG8=', to: 'binData', format: 'base64url' }), bin('68656c6c6f')],
    ['a hex string', conv({ input: 'ABcd', to: 'binData', format: 'hex' }), bin('abcd')],
    ['a utf8 string', conv({ input: 'hi', to: 'binData', format: 'utf8' }), bin('6869')],
    [
      'a UUID string with subtype 4',
      conv({ input: '550e8400-e29b-41d4-a716-446655440000', to: { type: 'binData', subtype: 4 }, format: 'uuid' }),
      bin('550e8400e29b41d4a716446655440000', 4),
    ],
    ['a BinData to string in hex', conv({ input: bin('abcd'), to: 'string', format: 'hex' }), 'ABCD'],
    ['a BinData to string in base64url', conv({ input: bin('fbff'), to: 'string', format: 'base64url' }), '-_8'],
    ['a BinData to string in utf8', conv({ input: bin('6869'), to: 'string', format: 'utf8' }), 'hi'],
    ['a BinData of the same subtype', conv({ input: bin('01', 5), to: { type: 'binData', subtype: 5 } }), bin('01', 5)],
  ]);
  errorRows([
    ['a string without format', conv({ input: 'x', to: 'binData' }), 4341115, "Format must be speficied when converting from 'string' to 'binData'"],
    ['a BinData to string without format', conv({ input: bin('01'), to: 'string' }), 4341115, "Format must be speficied when converting from 'binData' to 'string'"],
    ['a format that is not a string', conv({ input: 'x', to: 'binData', format: 42 }), 4341114, "$convert requires that 'format' be a string, found: int with value 42"],
    ['an unknown format', conv({ input: 'x', to: 'binData', format: 'BASE64' }), 4341125, "Invalid 'format' argument for $convert: BASE64"],
    ['a byteOrder that is not a string', conv({ input: 1, to: 'binData', byteOrder: 1 }), 9130001, "$convert requires that 'byteOrder' be a string, found: int with value 1"],
    ['an unknown byteOrder', conv({ input: 1, to: 'binData', byteOrder: 'BIG' }), 9130002, "Invalid 'byteOrder' argument for $convert: BIG"],
    ['a fractional subtype', conv({ input: 1, to: { type: 'binData', subtype: 1.5 } }), 4341106, "In $convert, numeric 'subtype' argument is not an integer"],
    ['a subtype in the gap', conv({ input: 1, to: { type: 'binData', subtype: 10 } }), 4341107, "In $convert, numeric value for 'subtype' does not correspond to a BinData type: 10"],
    ['a string subtype', conv({ input: 1, to: { type: 'binData', subtype: 'five' } }), 4341108, "For BinData, $convert's 'subtype' argument must be a number, but is string"],
    ['format auto to BinData', conv({ input: 'aGVsbG8=', to: 'binData', format: 'auto' }), 241, "Failed to parse BinData 'aGVsbG8=' in $convert with no onError value: Invalid format 'auto'"],
    ['base64 without padding', conv({ input: 'aGVsbG8', to: 'binData', format: 'base64' }), 241, "Failed to parse BinData 'aGVsbG8' in $convert with no onError value: invalid base64"],
    ['hex of odd length', conv({ input: 'abc', to: 'binData', format: 'hex' }), 241, "Failed to parse BinData 'abc' in $convert with no onError value: string passed in is not a valid hex string"],
    ['uuid without subtype 4', conv({ input: '550e8400-e29b-41d4-a716-446655440000', to: 'binData', format: 'uuid' }), 241, "Failed to parse BinData '550e8400-e29b-41d4-a716-446655440000' in $convert with no onError value: Only the 'uuid' format is allowed with the UUID subtype"],
    ['another subtype of BinData', conv({ input: bin('0102', 3), to: { type: 'binData', subtype: 0 } }), 241, 'Conversions between different BinData subtypes are not supported'],
    ['a bool to BinData', conv({ input: true, to: 'binData' }), 241, 'Unsupported conversion from bool to binData in $convert with no onError value'],
  ]);
});

describe('$toBool, $toObjectId, $toUUID', () => {
  valueRows([
    ['zero is false', { $toBool: 0 }, false],
    ['NaN is true', { $toBool: NaN }, true],
    ['any string is true', { $toBool: 'false' }, true],
    ['an ObjectId is true', { $toBool: new ObjectId('507f1f77bcf86cd799439011') }, true],
    ['24 hex digits', { $toObjectId: '507F1F77bcf86cd799439011' }, new ObjectId('507f1f77bcf86cd799439011')],
    ['a UUID string', { $toUUID: '12345678-1234-1234-1234-123456789012' }, bin('12345678123412341234123456789012', 4)],
  ]);
  errorRows([
    ['a short string', { $toObjectId: 'abc' }, 241, "Failed to parse objectId 'abc' in $convert with no onError value: Invalid string length for parsing to OID, expected 24 but found 3"],
    ['a non-hex character', { $toObjectId: 'z07f1f77bcf86cd799439011' }, 241, "Failed to parse objectId 'z07f1f77bcf86cd799439011' in $convert with no onError value: Invalid character found in hex string: z"],
    ['a number to ObjectId', { $toObjectId: 1 }, 241, 'Unsupported conversion from int to objectId in $convert with no onError value'],
  ]);
});

describe('$toDate', () => {
  valueRows([
    ['an Int64 is milliseconds', { $toDate: Long.fromNumber(86400000) }, new Date(86400000)],
    ['a double truncates', { $toDate: 1000.9 }, new Date(1000)],
    ['a string in UTC', { $toDate: '2024-06-15T12:30:45Z' }, new Date(Date.UTC(2024, 5, 15, 12, 30, 45))],
    ['a string with an offset', { $toDate: '2024-06-15T12:30:45+05:00' }, new Date(Date.UTC(2024, 5, 15, 7, 30, 45))],
    ['an ObjectId by its signed seconds', { $toDate: new ObjectId('80000000' + '0'.repeat(16)) }, new Date(-2147483648000)],
    ['a Timestamp by its unsigned seconds', { $toDate: new Timestamp({ t: 4294967295, i: 1 }) }, new Date(4294967295000)],
  ]);
  errorRows([
    ['an Int32', { $toDate: 1 }, 241, 'Unsupported conversion from int to date in $convert with no onError value'],
    ['a bool', { $toDate: true }, 241, 'Unsupported conversion from bool to date in $convert with no onError value'],
    ['NaN', { $toDate: NaN }, 241, 'Attempt to convert NaN value to integer type in $convert with no onError value'],
  ]);
});

describe('$convert: one parsed expression over several documents', () => {
  const run = (expr: unknown, docs: Array<Record<string, unknown>>) => {
    const ev = compile(expr);
    return docs.map((d) => {
      try {
        return ev(d);
      } catch (err) {
        return `error ${(err as CommandError).code}`;
      }
    });
  };
  it('a literal to is read once and still applies to every document', () => {
    expectExact(run(conv({ input: '$v', to: 'int', onNull: 'n' }), [{ v: '1' }, {}, { v: 2.5 }]), [1, 'n', 2]);
  });
  it('a literal to that fails fails on every document that is not nullish', () => {
    expectExact(run(conv({ input: '$v', to: 'integer' }), [{ v: 1 }, { v: 2 }]), ['error 2', 'error 2']);
  });
  it('a to from the document is read per document', () => {
    expectExact(run(conv({ input: '$v', to: '$t' }), [{ v: 1, t: 'string' }, { v: 1, t: 'bool' }, { v: 1 }]), ['1', true, null]);
  });
});

describe('$convert of an ObjectId to a date', () => {
  // ObjectId.id builds a fresh buffer from Node's allocation pool on every read; a conversion
  // that read it twice mixed two buffers whenever the pool turned over between the reads.
  it('reads the timestamp bytes of one buffer, however the allocation pool turns', () => {
    const evaluate = compile({ $convert: { input: '$oid', to: 'date' } });
    const wrong: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const seconds = i % 2 === 0 ? 0x7fffffff : -0x80000000;
      const oid = new ObjectId(i % 2 === 0 ? '7fffffff0000000000000000' : '800000000000000000000000');
      Buffer.allocUnsafe(i % 97); // moves the pool's offset by a varying amount
      const got = evaluate({ oid }) as Date;
      if (got.getTime() !== seconds * 1000) wrong.push(`${i}: ${got.toISOString()}`);
    }
    expect(wrong).toEqual([]);
  });
});
