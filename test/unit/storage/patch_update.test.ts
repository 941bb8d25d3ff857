/**
 * Updates stored as patches (`Collection.patchFields`, `Collection.patch`, `patchStored`): an
 * update that names only top-level fields reads those fields (and the fields of the indexes they
 * affect), applies itself to that part of the document, and patches the stored bytes, copying
 * every other field as it is. Checked against the whole-document path (decode, apply, encode)
 * on thousands of seeded random documents, updates and index sets: the same stored bytes, the
 * same index entries, the same errors.
 */
import { describe, expect, test } from 'vitest';
import { Code, Decimal128, Double, Long, ObjectId, type Document } from '../../../src/bson/library.js';
import { decodeStored, encodeStored, patchStored } from '../../../src/storage/record_format.js';
import { Collection } from '../../../src/storage/collection.js';
import { documentFields, type StoredDocument } from '../../../src/storage/record.js';
import { compileUpdate } from '../../../src/storage/update/compile_update.js';
import { keyString } from '../../../src/storage/values/key_string.js';
import { elem, f64, i32, mulberry32, str } from '../bson/random_bson.js';
import { treeEntries } from '../indexes/tree_entries.js';

const NOW = 1_700_000_000_000;
const rand = mulberry32(20261130);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

// No integer-like name: a JS object lists those first, so the whole-document path moves such a
// field to the front, where the patch keeps it in place, as mongod does (tested on its own below).
const NAMES = ['a', 'b', 'n', 's', 'k', 'arr', 'sub', 'héllo', '__proto__'];
const SCALARS: unknown[] = [
  0, 1, -7, 2147483647, new Double(2.5), new Double(-0), new Long(5), Long.fromString('9007199254740993'),
  Decimal128.fromString('1.10'), 'x', 'héllo wörld', '', null, true, false, new Date(NOW), new ObjectId('64b7f0c2a1b2c3d4e5f60718'),
];
const value = (depth = 0): unknown => {
  const r = rand();
  if (depth < 2 && r < 0.12) return [value(depth + 1), value(depth + 1)];
  if (depth < 2 && r < 0.22) return { x: value(depth + 1), y: value(depth + 1) };
  return pick(SCALARS);
};

/** A document with `_id` first, some of NAMES, and a `k` of its own (unique in some index sets). */
function randomDocument(id: number): Document {
  const doc: Document = { _id: id };
  for (const name of NAMES) {
    const v = name === 'k' ? (id - 1) * 1000 : value();
    if (name === 'k' || rand() < 0.5) Object.defineProperty(doc, name, { value: v, writable: true, enumerable: true, configurable: true });
  }
  return doc;
}

/** A random operator update on top-level and dotted paths: operator → path → argument. */
function randomUpdate(): Record<string, Document> {
  const path = () => (rand() < 0.2 ? pick(['sub.x', 'sub.z', 'arr.0', 'arr.5']) : pick(NAMES.filter((n) => n !== '__proto__')));
  const update: Record<string, Document> = {};
  const ops = 1 + Math.floor(rand() * 2);
  const used = new Set<string>();
  for (let i = 0; i < ops; i++) {
    const op = pick(['$set', '$unset', '$inc', '$mul', '$min', '$max', '$rename', '$push', '$addToSet', '$pop', '$currentDate', '$setOnInsert']);
    const p = path();
    const top = p.split('.')[0]!;
    if (used.has(top)) continue; // conflicting paths are refused before any document is read
    used.add(top);
    let arg: unknown;
    switch (op) {
      case '$unset': arg = ''; break;
      case '$inc': case '$mul': arg = pick([1, -3, new Double(0.5), new Long(2), Decimal128.fromString('2.5')]); break;
      case '$rename': {
        if (p.includes('.')) continue;
        const to = pick(NAMES.filter((n) => n !== '__proto__' && !used.has(n)));
        used.add(to);
        arg = to;
        break;
      }
      case '$pop': arg = pick([1, -1]); break;
      case '$currentDate': arg = true; break;
      default: arg = value();
    }
    (update[op] ??= {})[p] = arg;
  }
  return Object.keys(update).length > 0 ? update : { $set: { n: 1 } };
}

const INDEX_SETS: Document[][] = [
  [],
  [{ key: { n: 1 }, name: 'n_1' }],
  [{ key: { a: 1, s: -1 }, name: 'a_s' }, { key: { 'sub.x': 1 }, name: 'subx_1' }],
  [{ key: { k: 1 }, name: 'k_1', unique: true }, { key: { héllo: 1 }, name: 'h_1' }],
  [{ key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 60 }, { key: { arr: 1 }, name: 'arr_1' }],
];

/** `[key, _id]` of every entry of every secondary index, index by index. */
const entriesOf = (coll: Collection): unknown[] =>
  coll.indexes.map((index) => [index.name, treeEntries(index.tree).map(([key, rec]) => [key, keyString(decodeStored(rec.bson!)._id)])]);

/** The outcome of `fn`: its error's code and message, or 'ok'. */
function outcome(fn: () => void): unknown {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return [(err as { code?: number }).code, (err as Error).message];
  }
}

const ctx = { now: new Date(NOW + 1000), isUpsertInsert: false };

/** The whole-document path: decode, apply, encode. */
function wholeUpdate(coll: Collection, rec: StoredDocument, update: Document): void {
  const compiled = compileUpdate(update);
  const doc = rec.doc;
  const result = compiled.apply(doc, ctx);
  if (result.modified) coll.update(rec, result.doc, NOW + 1000, compiled.changedFields, doc);
}

/**
 * The patch path, as the update command takes it (`executeUpdate`): when applying the update to
 * the fields read fails, the whole-document path runs instead (its message names the `_id`), and
 * `seen.failedOnPart` is set.
 */
function patchUpdate(coll: Collection, rec: StoredDocument, update: Document, seen: { failedOnPart: boolean }): void {
  const compiled = compileUpdate(update);
  const read = coll.patchFields(compiled.changedFields!);
  expect(read).not.toBeNull();
  const before = documentFields(rec, read);
  let result;
  try {
    result = compiled.apply(before, ctx);
  } catch {
    seen.failedOnPart = true;
    wholeUpdate(coll, rec, update);
    return;
  }
  if (result.modified) coll.patch(rec, compiled.changedFields!, before, result.doc, NOW + 1000);
}

describe('updates stored as patches', () => {
  test('3,000 random updates: the same stored bytes, index entries and errors as the whole-document path', () => {
    let patched = 0;
    let failed = 0;
    for (let round = 0; round < 3000; round++) {
      const specs = INDEX_SETS[round % INDEX_SETS.length]!;
      const whole = new Collection('db', 'whole');
      const patch = new Collection('db', 'patch');
      for (const spec of specs) {
        whole.addIndex({ v: 2, ...spec }, NOW);
        patch.addIndex({ v: 2, ...spec }, NOW);
      }
      for (const id of [1, 2, 3]) {
        // A document an index refuses (parallel arrays under a compound key) is drawn again.
        for (;;) {
          const doc = randomDocument(id);
          if (outcome(() => whole.insert(doc, NOW)) !== 'ok') continue;
          patch.insert(doc, NOW);
          break;
        }
      }
      const update = randomUpdate();
      const id = keyString(pick([1, 2, 3]));
      const context = JSON.stringify({ round, update: Object.keys(update).map((op) => [op, Object.keys(update[op])]) });
      const applyOutcome = outcome(() => compileUpdate(update).apply(whole.rawGet(id)!.doc, ctx));
      const wholeOutcome = outcome(() => wholeUpdate(whole, whole.rawGet(id)!, update));
      const seen = { failedOnPart: false };
      const patchOutcome = outcome(() => patchUpdate(patch, patch.rawGet(id)!, update, seen));
      expect(patchOutcome, context).toEqual(wholeOutcome);
      // An update the whole document refuses is refused on its part too (never stored as a
      // patch), and only such an update.
      expect(seen.failedOnPart, context).toBe(applyOutcome !== 'ok');
      if (wholeOutcome === 'ok') patched++;
      else failed++;
      for (const key of [1, 2, 3].map(keyString)) expect(patch.rawGet(key)!.bson, context).toBe(whole.rawGet(key)!.bson);
      expect(entriesOf(patch), context).toEqual(entriesOf(whole));
    }
    // Both kinds were exercised.
    expect(patched).toBeGreaterThan(1000);
    expect(failed).toBeGreaterThan(100);
  });

  test('an update of `_id`, a row model or a partial index is left to the whole-document path', () => {
    const coll = new Collection('db', 'c');
    expect(coll.patchFields(['_id', 'n'])).toBeNull();
    expect(coll.patchFields(['n'])).toEqual(['n']);
    coll.addIndex({ v: 2, key: { k: 1 }, name: 'k_p', partialFilterExpression: { n: { $gt: 1 } } }, NOW);
    expect(coll.patchFields(['n'])).toBeNull();
    expect(coll.patchFields(['zz'])).toBeNull(); // a partial index depends on every field
    const other = new Collection('db', 'd');
    other.addIndex({ v: 2, key: { a: 1, 'sub.x': 1 }, name: 'a_subx' }, NOW);
    expect(other.patchFields(['sub'])).toEqual(['sub', 'a']); // what the affected index reads too
    expect(other.patchFields(['n'])).toEqual(['n']); // the index is not affected
  });
});

describe('patchStored', () => {
  const base = encodeStored({ _id: 7, a: 1, big: 'x'.repeat(1000), héllo: 'w', z: [1, 2] }, NOW);

  test('replaces a field in place, removes one, appends new ones in order, and sets the time', () => {
    const out = patchStored(base, ['a', 'z', 'new1', 'héllo', 'new2'], { new2: 2, a: 5, héllo: 'v', new1: 1 }, NOW + 5);
    expect(out).toBe(encodeStored({ _id: 7, a: 5, big: 'x'.repeat(1000), héllo: 'v', new2: 2, new1: 1 }, NOW + 5));
    expect(Object.keys(decodeStored(out))).toEqual(['_id', 'a', 'big', 'héllo', 'new2', 'new1']);
  });

  test('an integer-like field keeps its place (decoded into a JS object, it would come first)', () => {
    // `{_id: 1, a: 1, '0': 'zero'}` in that order, stored: `_id`'s type and value, the elements, the time.
    const stored = (a: number, time: number): string =>
      Buffer.concat([Buffer.from([0x10]), i32(1), elem(0x10, 'a', i32(a)), elem(0x02, '0', str('zero')), f64(time)]).toString('latin1');
    expect(patchStored(stored(1, NOW), ['a'], { a: 2 }, NOW + 1)).toBe(stored(2, NOW + 1));
  });

  test('a value only js-bson writes (Code) takes the whole-document way, with the same result', () => {
    const out = patchStored(base, ['a', 'z', 'c'], { a: 5, c: new Code('f()') }, NOW + 5);
    expect(out).toBe(encodeStored({ _id: 7, a: 5, big: 'x'.repeat(1000), héllo: 'w', c: new Code('f()') }, NOW + 5));
  });

  test('a field named in `fields` but absent from the document and from `values` changes nothing else', () => {
    expect(patchStored(base, ['nope'], {}, NOW)).toBe(base);
  });
});
