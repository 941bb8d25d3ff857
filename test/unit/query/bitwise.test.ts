import { describe, expect, test } from 'vitest';
import { Binary, Decimal128, Long, type Document } from '../../../src/bson/library.js';
import { matches } from './helpers.js';

type Row = [Document, Document, boolean];
const run = (rows: Row[]) =>
  test.each(rows)('%j matches %j → %s', (doc, filter, expected) => {
    expect(matches(doc, filter)).toBe(expected);
  });

describe('bitwise operators', () => {
  run([
    [{ a: 0b1010 }, { a: { $bitsAllSet: [1, 3] } }, true],
    [{ a: 0b1010 }, { a: { $bitsAllSet: [0, 1] } }, false],
    [{ a: 0b1010 }, { a: { $bitsAllSet: 10 } }, true],
    [{ a: 0b1010 }, { a: { $bitsAllClear: [0, 2] } }, true],
    [{ a: 0b1010 }, { a: { $bitsAllClear: [0, 1] } }, false],
    [{ a: 0b1010 }, { a: { $bitsAnySet: [0, 1] } }, true],
    [{ a: 0b1010 }, { a: { $bitsAnySet: 5 } }, false],
    [{ a: 0b1010 }, { a: { $bitsAnyClear: [1, 3] } }, false],
    [{ a: 0b1010 }, { a: { $bitsAnyClear: [1, 2] } }, true],
    [{ a: -1 }, { a: { $bitsAllSet: [0, 63, 200] } }, true],
    [{ a: -2 }, { a: { $bitsAllSet: [0] } }, false],
    [{ a: Long.fromString('-9223372036854775808') }, { a: { $bitsAllSet: [63] } }, true],
    [{ a: 4.0 }, { a: { $bitsAllSet: [2] } }, true],
    [{ a: 4.5 }, { a: { $bitsAllSet: [2] } }, false],
    [{ a: Decimal128.fromString('4') }, { a: { $bitsAllSet: [2] } }, true],
    [{ a: 'x' }, { a: { $bitsAnySet: [0] } }, false],
    [{ a: new Binary(new Uint8Array([0b00000101])) }, { a: { $bitsAllSet: [0, 2] } }, true],
    [{ a: new Binary(new Uint8Array([0b00000101])) }, { a: { $bitsAllSet: [0, 9] } }, false],
    [{ a: new Binary(new Uint8Array([0b00000101])) }, { a: { $bitsAllClear: [9, 100] } }, true],
    [{ a: 5 }, { a: { $bitsAllSet: new Binary(new Uint8Array([0b101])) } }, true],
    [{ a: 5 }, { a: { $bitsAllSet: new Binary(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 1])) } }, false],
    [{ a: -1 }, { a: { $bitsAllSet: new Binary(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 1])) } }, true],
  ]);
});
