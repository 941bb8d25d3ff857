/**
 * The `$v: 2` diff of an update's oplog entry (documentDiff, mongod's doc_diff format): removed
 * fields in `d`, changed in `u`, added in `i`, `s<field>` into embedded documents and arrays
 * (`a: true`, `l` the new length, `u<index>`, `s<index>`).
 */
import { describe, expect, it } from 'vitest';
import { Double, type Document } from '../../../src/bson/library.js';
import { documentDiff } from '../../../src/storage/change_log.js';

const cases: [string, Document, Document, Document][] = [
  ['a changed field', { _id: 1, a: 1 }, { _id: 1, a: 2 }, { u: { a: 2 } }],
  ['an added field', { _id: 1 }, { _id: 1, b: 'x' }, { i: { b: 'x' } }],
  ['a removed field', { _id: 1, a: 1 }, { _id: 1 }, { d: { a: false } }],
  ['a type change of the same number', { _id: 1, a: 1 }, { _id: 1, a: new Double(1) }, { u: { a: new Double(1) } }],
  ['nothing changed', { _id: 1, a: { b: 1 } }, { _id: 1, a: { b: 1 } }, {}],
  ['a field inside an embedded document', { _id: 1, a: { b: 1, c: 1 } }, { _id: 1, a: { b: 2, c: 1 } }, { sa: { u: { b: 2 } } }],
  ['every section, in mongod\'s order', { _id: 1, x: 1, y: 1, s: { t: 1 } }, { _id: 1, y: 2, s: { t: 2 }, z: 1 }, { d: { x: false }, u: { y: 2 }, i: { z: 1 }, ss: { u: { t: 2 } } }],
  ['an array element changed', { _id: 1, arr: [1, 2, 3] }, { _id: 1, arr: [1, 5, 3] }, { sarr: { a: true, u1: 5 } }],
  ['an array grown', { _id: 1, arr: [1] }, { _id: 1, arr: [1, 2] }, { sarr: { a: true, u1: 2 } }],
  ['an array shortened', { _id: 1, arr: [1, 2, 3] }, { _id: 1, arr: [1] }, { sarr: { a: true, l: 1 } }],
  ['a document inside an array', { _id: 1, arr: [{ k: 1 }] }, { _id: 1, arr: [{ k: 2 }] }, { sarr: { a: true, s0: { u: { k: 2 } } } }],
  ['an array replaced by a scalar', { _id: 1, arr: [1] }, { _id: 1, arr: 7 }, { u: { arr: 7 } }],
];

describe('documentDiff', () => {
  it.each(cases)('%s', (_name, before, after, expected) => {
    expect(documentDiff(before, after)).toEqual(expected);
    expect(Object.keys(documentDiff(before, after))).toEqual(Object.keys(expected));
  });
});
