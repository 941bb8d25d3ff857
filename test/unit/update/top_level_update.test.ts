/**
 * The short form of top-level operator updates (src/storage/update/top_level_update.ts) against
 * the update tree it stands in for: the same documents byte for byte (types and field order),
 * the same `modified` flag and the same errors, over random documents and updates.
 */
import { describe, expect, test } from 'vitest';
import { Decimal128, Double, Long, ObjectId, type Document } from '../../../src/bson/library.js';
import { serialize } from '../../../src/bson/encode.js';
import { CommandError } from '../../../src/errors/command_error.js';
import { compileUpdate } from '../../../src/storage/update/compile_update.js';
import { applyOperatorUpdate, parseOperatorUpdate } from '../../../src/storage/update/operator_update.js';
import { compileTopLevelUpdate } from '../../../src/storage/update/top_level_update.js';
import { cloneValue } from '../../../src/storage/values/clone.js';
import { mulberry32 } from '../bson/random_bson.js';

const CTX = { now: new Date(1_700_000_000_123), isUpsertInsert: false };

type Outcome = { bytes: string; modified: boolean } | { error: [number, string] };

/** The outcome of `run`, with the document as its BSON bytes (exact types and order). */
function outcome(run: () => { doc: Document; modified: boolean }): Outcome {
  try {
    const r = run();
    return { bytes: Buffer.from(serialize(r.doc)).toString('hex'), modified: r.modified };
  } catch (err) {
    if (!(err instanceof CommandError)) throw err;
    return { error: [err.code, err.message] };
  }
}

/** What the update tree makes of `update` on `doc` (the path compileUpdate took before). */
function viaTree(doc: Document, update: Document): Outcome {
  return outcome(() => {
    const parsed = parseOperatorUpdate(update);
    const work = cloneValue(doc);
    return applyOperatorUpdate(work, parsed, CTX) ? { doc: work, modified: true } : { doc, modified: false };
  });
}

function viaShortForm(doc: Document, update: Document): Outcome {
  return outcome(() => {
    const short = compileTopLevelUpdate(update, null);
    if (short === null) throw new Error(`not taken by the short form: ${JSON.stringify(update)}`);
    return short.apply(doc, CTX);
  });
}

const NAMES = ['a', 'b', 'n', 'z', '9', '10', 'name', 'Zed', 'é'];
const VALUES: Array<() => unknown> = [
  () => 1,
  () => -7,
  () => 2147483647,
  () => 2.5,
  () => new Double(3),
  () => Long.fromNumber(5),
  () => Long.fromString('9223372036854775807'),
  () => Decimal128.fromString('1.50'),
  () => 'text',
  () => '',
  () => null,
  () => true,
  () => new Date(1_600_000_000_000),
  () => new ObjectId('64b7f0c2a1b2c3d4e5f60718'),
  () => ({ x: 1, y: [1, 2] }),
  () => [3, 'a'],
];
const OPERATORS = ['$set', '$unset', '$inc', '$mul', '$min', '$max'];

describe('top-level updates: the short form against the update tree', () => {
  test('400 random documents and updates give the same bytes, flags and errors', () => {
    const rnd = mulberry32(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    let taken = 0;
    let errors = 0;
    for (let i = 0; i < 400; i++) {
      const doc: Document = { _id: i };
      for (const name of NAMES) if (rnd() < 0.5) doc[name] = pick(VALUES)();
      const update: Document = {};
      const used = new Set<string>();
      const ops = 1 + Math.floor(rnd() * 3);
      for (let o = 0; o < ops; o++) {
        const op = pick(OPERATORS);
        const fields: Document = (update[op] as Document | undefined) ?? {};
        for (let f = 0; f < 1 + Math.floor(rnd() * 3); f++) {
          const name = pick(NAMES);
          if (used.has(name)) continue;
          used.add(name);
          fields[name] = op === '$unset' ? '' : pick(VALUES)();
        }
        update[op] = fields;
      }
      if (used.size === 0) continue;
      const expected = viaTree(doc, update);
      // Every generated update qualifies (top-level names, each once): an argument error is
      // thrown while compiling, as the tree throws it while parsing.
      expect(viaShortForm(doc, update), JSON.stringify({ doc, update })).toEqual(expected);
      taken++;
      if ('error' in expected) errors++;
    }
    expect(taken).toBeGreaterThan(300);
    expect(errors).toBeGreaterThan(10);
  });

  test('argument errors are the tree’s (thrown while compiling)', () => {
    const err = (() => {
      try {
        compileTopLevelUpdate({ $inc: { a: 'x' } }, null);
      } catch (e) {
        return e as CommandError;
      }
      return null;
    })();
    expect([err?.code, err?.message]).toEqual([14, "Cannot increment with non-numeric argument: {a: \"x\"}"]);
  });

  test('created fields are appended in path order, as the tree appends them', () => {
    const doc = { _id: 1, z: 0 };
    const update = { $set: { name: 1, b: 1 }, $inc: { a: 1 } };
    const r = compileTopLevelUpdate(update, null)!.apply(doc, CTX);
    expect(Object.keys(r.doc)).toEqual(['_id', 'z', 'a', 'b', 'name']);
    expect(viaShortForm(doc, update)).toEqual(viaTree(doc, update));
  });

  test('a no-op leaves the very same document', () => {
    const doc = { _id: 1, a: 5, b: 'x' };
    const r = compileTopLevelUpdate({ $set: { a: 5 }, $max: { a: 1 }, $unset: { c: '' } }, null);
    expect(r).toBeNull(); // `a` twice: the tree reports the conflict
    const ok = compileTopLevelUpdate({ $set: { a: 5 }, $unset: { c: '' } }, null)!.apply(doc, CTX);
    expect(ok.doc).toBe(doc);
    expect(ok.modified).toBe(false);
  });

  test('the input document is never changed', () => {
    const doc = { _id: 1, a: { x: 1 }, n: 1 };
    const r = compileTopLevelUpdate({ $inc: { n: 1 }, $unset: { a: '' } }, null)!.apply(doc, CTX);
    expect(doc).toEqual({ _id: 1, a: { x: 1 }, n: 1 });
    expect(r.doc).toEqual({ _id: 1, n: 2 });
  });

  test('what the short form leaves to the tree', () => {
    for (const update of [
      { $set: { 'a.b': 1 } },
      { $set: { _id: 1 } },
      { $set: { $x: 1 } },
      { $set: { '': 1 } },
      { $push: { a: 1 } },
      { $rename: { a: 'b' } },
      { $currentDate: { a: true } },
      { $setOnInsert: { a: 1 } },
      { $set: { a: 1 }, $inc: { a: 1 } },
      { $set: 5 },
      { $set: {} },
    ] as Document[]) {
      expect(compileTopLevelUpdate(update, null), JSON.stringify(update)).toBeNull();
    }
  });

  test('compileUpdate takes the short form for top-level updates and the tree otherwise', () => {
    const short = compileUpdate({ $inc: { n: 1 } });
    expect([short.kind, short.positional, [...short.changedFields!]]).toEqual(['operators', false, ['n']]);
    expect(short.apply({ _id: 1, n: 1 }, CTX).doc).toEqual({ _id: 1, n: 2 });
    // With array filters the tree must see the update (it reports an unused filter).
    expect(() => compileUpdate({ $inc: { n: 1 } }, { arrayFilters: [{ x: 1 }] })).toThrow(
      'The array filter for identifier \'x\' was not used in the update { $inc: { n: 1 } }',
    );
  });
});
