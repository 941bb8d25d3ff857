import { describe, expect, test } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { CommandError } from '../../../src/errors/command_error.js';
import {
  collectPathValues,
  getField,
  MISSING,
  parsePath,
  setField,
  unsetField,
  walkPath,
} from '../../../src/storage/values/paths.js';

describe('getField', () => {
  const doc = { a: { b: [{ c: 1 }, { c: 2 }], d: null }, e: [10, 20], f: 'x' };
  test.each([
    ['a.d', null],
    ['a.b.1.c', 2],
    ['e.0', 10],
    ['e.1', 20],
    ['e.2', undefined],
    ['a.b.c', undefined],
    ['f.length', undefined],
    ['missing', undefined],
    ['a.missing.x', undefined],
    ['e.01', undefined],
  ] as Array<[string, unknown]>)('%s → %j', (path, expected) => {
    expect(getField(doc, path)).toEqual(expected);
  });
  test('returns the subdocument itself', () => {
    expect(getField(doc, 'a')).toBe(doc.a);
  });
});

describe('collectPathValues (what the query language sees)', () => {
  test.each([
    [{ a: 1 }, 'a', [1]],
    [{ a: [1, 2] }, 'a', [1, 2, [1, 2]]],
    [{ a: [[1, 2], 3] }, 'a', [[1, 2], 3, [[1, 2], 3]]],
    [{ a: { b: 5 } }, 'a.b', [5]],
    [{ a: [{ b: 1 }, { b: [2, 3] }] }, 'a.b', [1, 2, 3, [2, 3]]],
    [{ a: [{ b: 1 }, { c: 1 }] }, 'a.b', [1]],
    [{ a: [1, 2] }, 'a.b', []],
    [{ a: [5, 6] }, 'a.1', [6]],
    [{ a: [[5, 6]] }, 'a.0', [[5, 6]]],
    [{ a: [[5, 6]] }, 'a.0.1', [6]],
    [{ a: [{ 0: 'x' }, 'y'] }, 'a.0', ['x', { 0: 'x' }]],
    [{ a: [{ b: [{ c: 1 }, { c: 2 }] }] }, 'a.b.c', [1, 2]],
    [{}, 'a', []],
    [{ a: 1 }, 'a.b', []],
  ] as Array<[Document, string, unknown[]]>)('%j at %s → %j', (doc, path, expected) => {
    expect(collectPathValues(doc, path)).toEqual(expected);
  });
});

describe('walkPath reports missing fields where mongod sees EOO', () => {
  const seen = (doc: Document, path: string, expand = true): unknown[] => {
    const out: unknown[] = [];
    walkPath(doc, parsePath(path), expand, (v) => {
      out.push(v === MISSING ? 'MISSING' : v);
      return false;
    });
    return out;
  };
  test.each([
    [{}, 'a', ['MISSING']],
    [{ a: 1 }, 'a.b', ['MISSING']],
    [{ a: [{ b: 1 }, { c: 1 }] }, 'a.b', [1, 'MISSING']],
    [{ a: [1, 2] }, 'a.b', []],
    [{ a: [] }, 'a.b', []],
    [{ a: [] }, 'a', [[]]],
  ] as Array<[Document, string, unknown[]]>)('%j at %s → %j', (doc, path, expected) => {
    expect(seen(doc, path)).toEqual(expected);
  });
  test('without leaf expansion the array is seen once', () => {
    expect(seen({ a: [1, 2] }, 'a', false)).toEqual([[1, 2]]);
    expect(seen({ a: [{ b: [1] }, { b: [2] }] }, 'a.b', false)).toEqual([[1], [2]]);
  });
  test('stops at the first true visit', () => {
    const out: unknown[] = [];
    const found = walkPath({ a: [1, 2, 3] }, parsePath('a'), true, (v) => {
      out.push(v);
      return v === 2;
    });
    expect(found).toBe(true);
    expect(out).toEqual([1, 2]);
  });
});

describe('setField', () => {
  test('sets top-level and creates intermediate documents', () => {
    const doc: Document = { a: 1 };
    setField(doc, 'b.c.d', 5);
    setField(doc, 'a', 2);
    expect(doc).toEqual({ a: 2, b: { c: { d: 5 } } });
  });
  test('indexes arrays with numeric components and pads with null', () => {
    const doc: Document = { a: [1] };
    setField(doc, 'a.3', 'x');
    setField(doc, 'a.0', 0);
    expect(doc).toEqual({ a: [0, null, null, 'x'] });
    const doc2: Document = { a: [{ b: 1 }] };
    setField(doc2, 'a.0.b', 2);
    setField(doc2, 'a.2.c', 3);
    expect(doc2).toEqual({ a: [{ b: 2 }, null, { c: 3 }] });
  });
  test('a numeric component on a document is a field name', () => {
    const doc: Document = { a: {} };
    setField(doc, 'a.0', 1);
    expect(doc).toEqual({ a: { 0: 1 } });
  });
  test.each([
    [{ a: 5 }, 'a.b', "Cannot create field 'b' in element {a: 5}"],
    [{ a: 'x' }, 'a.b.c', 'Cannot create field \'b\' in element {a: "x"}'],
    [{ a: [1, 2] }, 'a.b', "Cannot create field 'b' in element {a: [ 1, 2 ]}"],
    [{ a: { b: null } }, 'a.b.c', "Cannot create field 'c' in element {b: null}"],
    [{ a: [1] }, 'a.0.x', "Cannot create field 'x' in element {0: 1}"],
  ] as Array<[Document, string, string]>)('%j at %s → 28 PathNotViable', (doc, path, message) => {
    let err: unknown;
    try {
      setField(doc, path, 1);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CommandError);
    expect((err as CommandError).code).toBe(28);
    expect((err as CommandError).message).toBe(message);
  });
});

describe('unsetField', () => {
  test('removes fields and reports whether something was there', () => {
    const doc: Document = { a: { b: 1, c: 2 }, d: [1, 2, 3] };
    expect(unsetField(doc, 'a.b')).toBe(true);
    expect(unsetField(doc, 'a.b')).toBe(false);
    expect(unsetField(doc, 'x.y')).toBe(false);
    expect(unsetField(doc, 'd.1')).toBe(true);
    expect(unsetField(doc, 'd.7')).toBe(false);
    expect(unsetField(doc, 'd.x')).toBe(false);
    expect(doc).toEqual({ a: { c: 2 }, d: [1, null, 3] });
  });
});

describe('inherited property names', () => {
  test('are not read from the prototype', () => {
    expect(getField({}, 'constructor')).toBeUndefined();
    expect(collectPathValues({ a: {} }, 'a.toString')).toEqual([]);
    expect(unsetField({}, 'constructor')).toBe(false);
  });
  test('setField creates an own __proto__ field', () => {
    const doc: Document = {};
    setField(doc, '__proto__.x', 1);
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.keys(doc)).toEqual(['__proto__']);
    expect(getField(doc, '__proto__.x')).toBe(1);
  });
});
