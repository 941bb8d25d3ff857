import { describe, expect, it } from 'vitest';
import { Decimal128, Double, Long, Timestamp, type Document } from '../../../src/bson/library.js';
import { compileUpdate } from '../../../src/storage/update/compile_update.js';
import { expectExact } from '../aggregation/helpers.js';

const NOW = new Date(1_700_000_000_123);
const CTX = { now: NOW, isUpsertInsert: false };

function apply(doc: Document, update: Document | Document[], ctx = CTX): { doc: Document; modified: boolean } {
  return compileUpdate(update).apply(doc, ctx);
}

type Case = [string, Document, Document, Document, boolean];

function table(cases: Case[]): void {
  for (const [name, doc, update, expected, modified] of cases) {
    it(name, () => {
      const r = apply(doc, update);
      expectExact(r.doc, expected);
      expect(r.modified).toBe(modified);
    });
  }
}

describe('$set', () => {
  table([
    ['replaces a value in place', { _id: 1, a: 1, b: 2 }, { $set: { a: 5 } }, { _id: 1, a: 5, b: 2 }, true],
    ['same value and type is a no-op', { _id: 1, a: 1 }, { $set: { a: 1 } }, { _id: 1, a: 1 }, false],
    ['Int32 over Double 1.0 is a modification', { _id: 1, a: new Double(1) }, { $set: { a: 1 } }, { _id: 1, a: 1 }, true],
    ['Double 1.0 over Int32 1 is a modification', { _id: 1, a: 1 }, { $set: { a: new Double(1) } }, { _id: 1, a: new Double(1) }, true],
    ['Long over Int32 is a modification', { _id: 1, a: 1 }, { $set: { a: Long.fromNumber(1) } }, { _id: 1, a: Long.fromNumber(1) }, true],
    ['same subdocument is a no-op', { _id: 1, a: { b: 1, c: 2 } }, { $set: { a: { b: 1, c: 2 } } }, { _id: 1, a: { b: 1, c: 2 } }, false],
    ['reordered subdocument is a modification', { _id: 1, a: { b: 1, c: 2 } }, { $set: { a: { c: 2, b: 1 } } }, { _id: 1, a: { c: 2, b: 1 } }, true],
    ['creates a missing field at the end', { _id: 1, a: 1 }, { $set: { z: 1 } }, { _id: 1, a: 1, z: 1 }, true],
    ['new fields appear sorted by name, whatever the spec order', { _id: 1 }, { $set: { c: 3, a: 1, b: 2 } }, { _id: 1, a: 1, b: 2, c: 3 }, true],
    ['operators apply in path order across operators', { _id: 1 }, { $set: { z: 1 }, $inc: { m: 1 }, $min: { a: 5 } }, { _id: 1, a: 5, m: 1, z: 1 }, true],
    ['numeric field names order numerically', { _id: 1, a: {} }, { $set: { 'a.10': 1, 'a.9': 2, 'a.x': 3 } }, { _id: 1, a: { '9': 2, '10': 1, x: 3 } }, true],
    ['creates intermediate documents', { _id: 1 }, { $set: { 'a.b.c': 1 } }, { _id: 1, a: { b: { c: 1 } } }, true],
    ['sets into an existing subdocument', { _id: 1, a: { x: 1 } }, { $set: { 'a.y': 2 } }, { _id: 1, a: { x: 1, y: 2 } }, true],
    ['sets an array element by index', { _id: 1, a: [1, 2, 3] }, { $set: { 'a.1': 9 } }, { _id: 1, a: [1, 9, 3] }, true],
    ['pads an array with null', { _id: 1, a: [1] }, { $set: { 'a.3': 4 } }, { _id: 1, a: [1, null, null, 4] }, true],
    ['creates a document inside an array', { _id: 1, a: [1] }, { $set: { 'a.2.b': 1 } }, { _id: 1, a: [1, null, { b: 1 }] }, true],
    ['sets a field of a document in an array', { _id: 1, a: [{ b: 1 }] }, { $set: { 'a.0.b': 2 } }, { _id: 1, a: [{ b: 2 }] }, true],
    ['$-prefixed names inside values are fine', { _id: 1 }, { $set: { a: { $b: 1 } } }, { _id: 1, a: { $b: 1 } }, true],
    ['$_id to the same value is a no-op', { _id: 1, a: 1 }, { $set: { _id: 1 } }, { _id: 1, a: 1 }, false],
    ['empty operator document is a no-op', { _id: 1, a: 1 }, { $set: {} }, { _id: 1, a: 1 }, false],
  ]);
  it('never mutates its input', () => {
    const input = { _id: 1, a: { b: [1] } };
    apply(input, { $set: { 'a.b.1': 2, c: 1 } });
    expectExact(input, { _id: 1, a: { b: [1] } });
  });
  it('returns the input itself when nothing changed', () => {
    const input = { _id: 1, a: 1 };
    expect(apply(input, { $set: { a: 1 } }).doc).toBe(input);
  });
});

describe('$setOnInsert', () => {
  it('is a no-op on an update', () => {
    const r = apply({ _id: 1 }, { $setOnInsert: { a: 1 } });
    expectExact(r.doc, { _id: 1 });
    expect(r.modified).toBe(false);
  });
  it('sets on an upsert insert', () => {
    const r = apply({ _id: 1 }, { $setOnInsert: { a: 1 } }, { now: NOW, isUpsertInsert: true });
    expectExact(r.doc, { _id: 1, a: 1 });
  });
});

describe('$unset', () => {
  table([
    ['removes a field', { _id: 1, a: 1, b: 2 }, { $unset: { a: '' } }, { _id: 1, b: 2 }, true],
    ['removes a nested field', { _id: 1, a: { b: 1, c: 2 } }, { $unset: { 'a.b': 1 } }, { _id: 1, a: { c: 2 } }, true],
    ['sets an array element to null', { _id: 1, a: [1, 2] }, { $unset: { 'a.0': 1 } }, { _id: 1, a: [null, 2] }, true],
    ['a missing field is a no-op', { _id: 1 }, { $unset: { a: 1 } }, { _id: 1 }, false],
    ['a path through a scalar is a no-op', { _id: 1, a: 1 }, { $unset: { 'a.b': 1 } }, { _id: 1, a: 1 }, false],
  ]);
});

describe('$inc and $mul', () => {
  table([
    ['Int32 + Int32 stays Int32', { _id: 1, a: 1 }, { $inc: { a: 2 } }, { _id: 1, a: 3 }, true],
    ['Int32 overflow becomes Int64', { _id: 1, a: 2147483647 }, { $inc: { a: 1 } }, { _id: 1, a: Long.fromString('2147483648') }, true],
    ['Int32 + Int64 is Int64', { _id: 1, a: 1 }, { $inc: { a: Long.fromNumber(1) } }, { _id: 1, a: Long.fromNumber(2) }, true],
    ['Int32 + Double is Double', { _id: 1, a: 1 }, { $inc: { a: 0.5 } }, { _id: 1, a: 1.5 }, true],
    ['Double result integral stays Double', { _id: 1, a: 0.5 }, { $inc: { a: 0.5 } }, { _id: 1, a: new Double(1) }, true],
    ['Decimal128 wins', { _id: 1, a: 1 }, { $inc: { a: Decimal128.fromString('1.5') } }, { _id: 1, a: Decimal128.fromString('2.5') }, true],
    ['+0 is a no-op', { _id: 1, a: 5 }, { $inc: { a: 0 } }, { _id: 1, a: 5 }, false],
    ['+Int64 0 changes the type', { _id: 1, a: 5 }, { $inc: { a: Long.fromNumber(0) } }, { _id: 1, a: Long.fromNumber(5) }, true],
    ['creates a missing field with the increment', { _id: 1 }, { $inc: { a: new Double(2) } }, { _id: 1, a: new Double(2) }, true],
    ['$mul multiplies', { _id: 1, a: 3 }, { $mul: { a: 4 } }, { _id: 1, a: 12 }, true],
    ['$mul by 1 is a no-op', { _id: 1, a: 3 }, { $mul: { a: 1 } }, { _id: 1, a: 3 }, false],
    ['$mul overflow to Int64', { _id: 1, a: 65536 }, { $mul: { a: 65536 } }, { _id: 1, a: Long.fromString('4294967296') }, true],
    ['$mul on a missing field gives zero of the multiplier type (Int32)', { _id: 1 }, { $mul: { a: 5 } }, { _id: 1, a: 0 }, true],
    ['$mul on a missing field gives zero of the multiplier type (Int64)', { _id: 1 }, { $mul: { a: Long.fromNumber(5) } }, { _id: 1, a: Long.fromNumber(0) }, true],
    ['$mul on a missing field gives zero of the multiplier type (Double)', { _id: 1 }, { $mul: { a: 2.5 } }, { _id: 1, a: new Double(0) }, true],
    ['increments inside an array', { _id: 1, a: [1, 2] }, { $inc: { 'a.1': 1 } }, { _id: 1, a: [1, 3] }, true],
  ]);
});

describe('$min, $max', () => {
  table([
    ['$min lowers', { _id: 1, a: 5 }, { $min: { a: 3 } }, { _id: 1, a: 3 }, true],
    ['$min keeps a lower value', { _id: 1, a: 5 }, { $min: { a: 7 } }, { _id: 1, a: 5 }, false],
    ['$min equal across types is a no-op', { _id: 1, a: 5 }, { $min: { a: new Double(5) } }, { _id: 1, a: 5 }, false],
    ['$max raises', { _id: 1, a: 5 }, { $max: { a: 7 } }, { _id: 1, a: 7 }, true],
    ['$max compares across types by BSON order', { _id: 1, a: 5 }, { $max: { a: 'x' } }, { _id: 1, a: 'x' }, true],
    ['$max creates a missing field', { _id: 1 }, { $max: { a: 1 } }, { _id: 1, a: 1 }, true],
  ]);
});

describe('$rename', () => {
  table([
    ['renames to a new field at the end', { _id: 1, a: 1, b: 2 }, { $rename: { a: 'z' } }, { _id: 1, b: 2, z: 1 }, true],
    ['overwrites an existing target in place', { _id: 1, a: 1, b: 2 }, { $rename: { b: 'a' } }, { _id: 1, a: 2 }, true],
    ['moves into a subdocument', { _id: 1, a: 1, s: {} }, { $rename: { a: 's.a' } }, { _id: 1, s: { a: 1 } }, true],
    ['a missing source is a no-op', { _id: 1, b: 2 }, { $rename: { a: 'z' } }, { _id: 1, b: 2 }, false],
  ]);
});

describe('$currentDate', () => {
  it('sets a date from the injected clock', () => {
    expectExact(apply({ _id: 1 }, { $currentDate: { d: true } }).doc, { _id: 1, d: NOW });
  });
  it('sets a date with {$type: "date"}', () => {
    expectExact(apply({ _id: 1 }, { $currentDate: { d: { $type: 'date' } } }).doc, { _id: 1, d: NOW });
  });
  it('sets a timestamp with {$type: "timestamp"}', () => {
    const r = apply({ _id: 1 }, { $currentDate: { t: { $type: 'timestamp' } } });
    const t = r.doc.t as Timestamp;
    expect(t).toBeInstanceOf(Timestamp);
    expect(t.t).toBe(1_700_000_000);
  });
  it('is a modification even when the value is the same', () => {
    expect(apply({ _id: 1, d: NOW }, { $currentDate: { d: true } }).modified).toBe(true);
  });
});

describe('$push', () => {
  table([
    ['appends one value', { _id: 1, a: [1] }, { $push: { a: 2 } }, { _id: 1, a: [1, 2] }, true],
    ['appends an array as one element', { _id: 1, a: [1] }, { $push: { a: [2, 3] } }, { _id: 1, a: [1, [2, 3]] }, true],
    ['creates the array', { _id: 1 }, { $push: { a: 1 } }, { _id: 1, a: [1] }, true],
    ['$each', { _id: 1, a: [1] }, { $push: { a: { $each: [2, 3] } } }, { _id: 1, a: [1, 2, 3] }, true],
    ['$each of nothing is a no-op', { _id: 1, a: [1] }, { $push: { a: { $each: [] } } }, { _id: 1, a: [1] }, false],
    ['$position 0', { _id: 1, a: [1, 2] }, { $push: { a: { $each: [9], $position: 0 } } }, { _id: 1, a: [9, 1, 2] }, true],
    ['$position negative', { _id: 1, a: [1, 2, 3] }, { $push: { a: { $each: [9], $position: -1 } } }, { _id: 1, a: [1, 2, 9, 3] }, true],
    ['$position past the end appends', { _id: 1, a: [1] }, { $push: { a: { $each: [9], $position: 10 } } }, { _id: 1, a: [1, 9] }, true],
    ['$slice positive keeps the front', { _id: 1, a: [1, 2] }, { $push: { a: { $each: [3, 4], $slice: 3 } } }, { _id: 1, a: [1, 2, 3] }, true],
    ['$slice negative keeps the back', { _id: 1, a: [1, 2] }, { $push: { a: { $each: [3, 4], $slice: -2 } } }, { _id: 1, a: [3, 4] }, true],
    ['$slice 0 empties', { _id: 1, a: [1, 2] }, { $push: { a: { $each: [3], $slice: 0 } } }, { _id: 1, a: [] }, true],
    ['$sort whole elements descending', { _id: 1, a: [2, 1] }, { $push: { a: { $each: [3], $sort: -1 } } }, { _id: 1, a: [3, 2, 1] }, true],
    [
      '$sort by embedded field, then $slice',
      { _id: 1, a: [{ s: 3 }, { s: 1 }] },
      { $push: { a: { $each: [{ s: 2 }], $sort: { s: 1 }, $slice: 2 } } },
      { _id: 1, a: [{ s: 1 }, { s: 2 }] },
      true,
    ],
    ['$sort with nothing pushed still modifies', { _id: 1, a: [1, 2] }, { $push: { a: { $each: [], $sort: 1 } } }, { _id: 1, a: [1, 2] }, true],
  ]);
});

describe('$addToSet', () => {
  table([
    ['adds a new value', { _id: 1, a: [1] }, { $addToSet: { a: 2 } }, { _id: 1, a: [1, 2] }, true],
    ['an equal value (across numeric types) is a no-op', { _id: 1, a: [1] }, { $addToSet: { a: new Double(1) } }, { _id: 1, a: [1] }, false],
    ['$each adds the missing ones, deduplicated', { _id: 1, a: [1] }, { $addToSet: { a: { $each: [1, 2, 2, 3] } } }, { _id: 1, a: [1, 2, 3] }, true],
    ['creates the array', { _id: 1 }, { $addToSet: { a: { $each: [1, 1] } } }, { _id: 1, a: [1] }, true],
    ['documents compare by field order', { _id: 1, a: [{ x: 1, y: 2 }] }, { $addToSet: { a: { y: 2, x: 1 } } }, { _id: 1, a: [{ x: 1, y: 2 }, { y: 2, x: 1 }] }, true],
  ]);
});

describe('$pop, $pull, $pullAll', () => {
  table([
    ['$pop 1 removes the last', { _id: 1, a: [1, 2, 3] }, { $pop: { a: 1 } }, { _id: 1, a: [1, 2] }, true],
    ['$pop -1 removes the first', { _id: 1, a: [1, 2, 3] }, { $pop: { a: -1 } }, { _id: 1, a: [2, 3] }, true],
    ['$pop of an empty array is a no-op', { _id: 1, a: [] }, { $pop: { a: 1 } }, { _id: 1, a: [] }, false],
    ['$pop of a missing field is a no-op', { _id: 1 }, { $pop: { a: 1 } }, { _id: 1 }, false],
    ['$pull a value (numeric equivalence)', { _id: 1, a: [1, 2, 1, new Double(1)] }, { $pull: { a: 1 } }, { _id: 1, a: [2] }, true],
    ['$pull with a condition', { _id: 1, a: [1, 5, 8] }, { $pull: { a: { $gte: 5 } } }, { _id: 1, a: [1] }, true],
    ['$pull with a query on documents', { _id: 1, a: [{ x: 1, y: 1 }, { x: 2 }, 3] }, { $pull: { a: { x: 1 } } }, { _id: 1, a: [{ x: 2 }, 3] }, true],
    ['$pull without a match is a no-op', { _id: 1, a: [1] }, { $pull: { a: 2 } }, { _id: 1, a: [1] }, false],
    ['$pull of a missing field is a no-op', { _id: 1 }, { $pull: { a: 2 } }, { _id: 1 }, false],
    ['$pullAll', { _id: 1, a: [1, 2, 3, 1] }, { $pullAll: { a: [1, 3] } }, { _id: 1, a: [2] }, true],
  ]);
});
