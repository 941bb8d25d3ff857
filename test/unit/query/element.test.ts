import { describe, expect, test } from 'vitest';
import { Binary, BSONRegExp, Code, Decimal128, Double, Long, MaxKey, MinKey, ObjectId, Timestamp, type Document } from '../../../src/bson/library.js';
import { matches } from './helpers.js';

type Row = [Document, Document, boolean];
const run = (rows: Row[]) =>
  test.each(rows)('%j matches %j → %s', (doc, filter, expected) => {
    expect(matches(doc, filter)).toBe(expected);
  });

describe('$exists', () => {
  run([
    [{ a: 1 }, { a: { $exists: true } }, true],
    [{ a: null }, { a: { $exists: true } }, true],
    [{ a: undefined }, { a: { $exists: true } }, true],
    [{}, { a: { $exists: true } }, false],
    [{}, { a: { $exists: false } }, true],
    [{ a: 1 }, { a: { $exists: false } }, false],
    [{ a: [] }, { a: { $exists: true } }, true],
    [{ a: [] }, { 'a.0': { $exists: true } }, false],
    [{ a: [7] }, { 'a.0': { $exists: true } }, true],
    [{ a: [{ b: 1 }, { c: 1 }] }, { 'a.b': { $exists: true } }, true],
    [{ a: [{ b: 1 }, { c: 1 }] }, { 'a.b': { $exists: false } }, false],
    [{ a: [{ c: 1 }] }, { 'a.b': { $exists: false } }, true],
    [{ a: 1 }, { a: { $exists: 1 } }, true],
    [{ a: 1 }, { a: { $exists: 0 } }, false],
    [{ a: 1 }, { a: { $exists: null } }, false],
    [{ a: 1 }, { a: { $exists: 'false' } }, true],
    [{ a: 1 }, { a: { $exists: Long.fromNumber(0) } }, false],
    [{ a: 1 }, { a: { $exists: Decimal128.fromString('0.0') } }, false],
    [{ a: 1 }, { a: { $exists: new Double(0) } }, false],
  ]);
});

describe('$type', () => {
  run([
    [{ a: 1 }, { a: { $type: 'int' } }, true],
    [{ a: 1 }, { a: { $type: 16 } }, true],
    [{ a: 1 }, { a: { $type: 16.0 } }, true],
    [{ a: 1 }, { a: { $type: Long.fromNumber(16) } }, true],
    [{ a: 1 }, { a: { $type: 'double' } }, false],
    [{ a: new Double(1) }, { a: { $type: 'double' } }, true],
    [{ a: 1.5 }, { a: { $type: 1 } }, true],
    [{ a: Long.fromNumber(1) }, { a: { $type: 'long' } }, true],
    [{ a: Decimal128.fromString('1') }, { a: { $type: 'decimal' } }, true],
    [{ a: Decimal128.fromString('1') }, { a: { $type: 'number' } }, true],
    [{ a: 'x' }, { a: { $type: 'number' } }, false],
    [{ a: 'x' }, { a: { $type: ['number', 'string'] } }, true],
    [{ a: 'x' }, { a: { $type: 2 } }, true],
    [{ a: {} }, { a: { $type: 'object' } }, true],
    [{ a: [] }, { a: { $type: 'array' } }, true],
    [{ a: [1] }, { a: { $type: 'array' } }, true],
    [{ a: [1] }, { a: { $type: 'int' } }, true],
    [{ a: [[1]] }, { a: { $type: 'array' } }, true],
    [{ a: 1 }, { a: { $type: 'array' } }, false],
    [{ a: null }, { a: { $type: 'null' } }, true],
    [{}, { a: { $type: 'null' } }, false],
    [{ a: undefined }, { a: { $type: 'undefined' } }, true],
    [{ a: true }, { a: { $type: 'bool' } }, true],
    [{ a: new Date(0) }, { a: { $type: 'date' } }, true],
    [{ a: new ObjectId() }, { a: { $type: 'objectId' } }, true],
    [{ a: new Binary(new Uint8Array(1)) }, { a: { $type: 'binData' } }, true],
    [{ a: new BSONRegExp('a', '') }, { a: { $type: 'regex' } }, true],
    [{ a: new Code('x') }, { a: { $type: 'javascript' } }, true],
    [{ a: new Code('x', {}) }, { a: { $type: 'javascriptWithScope' } }, true],
    [{ a: new Timestamp({ t: 1, i: 1 }) }, { a: { $type: 'timestamp' } }, true],
    [{ a: new MinKey() }, { a: { $type: 'minKey' } }, true],
    [{ a: new MinKey() }, { a: { $type: -1 } }, true],
    [{ a: new MaxKey() }, { a: { $type: 127 } }, true],
    [{ a: [{ b: 'x' }] }, { 'a.b': { $type: 'string' } }, true],
  ]);
});
