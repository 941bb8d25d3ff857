/**
 * `$text` search and text indexes end to end, through the driver: index creation and listing,
 * matching (terms, stemming, stop words, phrases, negations, case and diacritic sensitivity,
 * languages, wildcard and weighted fields), the text score (mongod's formula, worked out by hand
 * below) through `{$meta: "textScore"}` in find and aggregation, and mongod's errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Collection, Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ compat: 'mongodb' });
});
afterAll(async () => {
  await h.close();
});

async function fresh(name: string, docs: Document[], key: Document, options: Document = {}): Promise<Collection> {
  const coll = h.db.collection(name);
  await coll.drop().catch(() => undefined);
  await coll.createIndex(key, options);
  if (docs.length > 0) await coll.insertMany(docs);
  return coll;
}

async function ids(coll: Collection, search: { $search: string; $language?: string; $caseSensitive?: boolean; $diacriticSensitive?: boolean }, filter: Document = {}): Promise<unknown[]> {
  const docs = await coll.find({ ...filter, $text: search }).sort({ _id: 1 }).toArray();
  return docs.map((d) => d._id);
}

describe('text indexes', () => {
  it('are listed in mongod form: _fts/_ftsx key, weights, languages, textIndexVersion 3', async () => {
    const coll = await fresh('ti_list', [], { a: 1, title: 'text', body: 'text', z: -1 }, { weights: { title: 10 }, name: 'ti' });
    const indexes = await coll.listIndexes().toArray();
    expect(indexes[1]).toEqual({
      v: 2,
      key: { a: 1, _fts: 'text', _ftsx: 1, z: -1 },
      name: 'ti',
      weights: { body: 1, title: 10 },
      default_language: 'english',
      language_override: 'language',
      textIndexVersion: 3,
    });
  });

  it('refuses what mongod refuses (67 CannotCreateIndex)', async () => {
    const coll = h.db.collection('ti_bad');
    const cases: Array<[Document, Document, string]> = [
      [{ a: 'text', b: 1, c: 'text' }, {}, "'text' fields in index must all be adjacent"],
      [{ a: 'text' }, { weights: 'a' }, "text index option 'weights' must be an object"],
      [{ a: 'text' }, { weights: { a: 'x' } }, 'weight for text index needs numeric type'],
      [{ a: 'text' }, { weights: { a: 0 } }, 'score for word too high'],
      [{ a: 'text' }, { textIndexVersion: 4 }, 'Currently only textIndexVersion 1, 2 and 3 are supported, got: 4'],
      [{ a: 'text' }, { default_language: 'klingon' }, 'default_language is not valid'],
    ];
    for (const [key, options, message] of cases) {
      const err = await errorOf(() => coll.createIndex(key, options));
      expect([err.code, err.errmsg]).toEqual([67, message]);
    }
  });
});

describe('$text matching', () => {
  let coll: Collection;
  beforeAll(async () => {
    coll = await fresh(
      'tm',
      [
        { _id: 1, content: 'The quick brown fox jumps' },
        { _id: 2, content: 'I was running every morning' },
        { _id: 3, content: 'Café au lait' },
        { _id: 4, content: 'a well-known fact about Foxes' },
        { _id: 5, content: 'quick thinking' },
        { _id: 6, content: ['quick', 7, { x: 'fox' }] },
        { _id: 7, other: 'fox' },
      ],
      { content: 'text' },
    );
  });

  it('matches any positive term, stemmed, stop words ignored', async () => {
    expect(await ids(coll, { $search: 'fox' })).toEqual([1, 4]);
    expect(await ids(coll, { $search: 'runs' })).toEqual([2]);
    expect(await ids(coll, { $search: 'quick fox' })).toEqual([1, 4, 5, 6]);
    expect(await ids(coll, { $search: 'the was' })).toEqual([]);
    expect(await ids(coll, { $search: 'known' })).toEqual([4]);
  });

  it('phrases must all be present; negated terms and phrases must be absent', async () => {
    expect(await ids(coll, { $search: '"quick brown"' })).toEqual([1]);
    expect(await ids(coll, { $search: '"quick" "thinking"' })).toEqual([5]);
    expect(await ids(coll, { $search: 'quick -fox' })).toEqual([5, 6]);
    expect(await ids(coll, { $search: 'quick -"brown fox"' })).toEqual([5, 6]);
    expect(await ids(coll, { $search: '-fox' })).toEqual([]);
    // A '-' inside a word joins nothing and negates nothing.
    expect(await ids(coll, { $search: 'well-known' })).toEqual([4]);
  });

  it('is case and diacritic insensitive unless asked', async () => {
    expect(await ids(coll, { $search: 'cafe' })).toEqual([3]);
    expect(await ids(coll, { $search: 'cafe', $diacriticSensitive: true })).toEqual([]);
    expect(await ids(coll, { $search: 'café', $diacriticSensitive: true })).toEqual([3]);
    expect(await ids(coll, { $search: 'FOX' })).toEqual([1, 4]);
    expect(await ids(coll, { $search: 'Foxes', $caseSensitive: true })).toEqual([4]);
    expect(await ids(coll, { $search: 'foxes', $caseSensitive: true })).toEqual([1]);
  });

  it('$language "none" parses the search without stemming or stop words (the index keeps English terms)', async () => {
    expect(await ids(coll, { $search: 'running', $language: 'none' })).toEqual([]);
    expect(await ids(coll, { $search: 'run', $language: 'none' })).toEqual([2]);
    expect(await ids(coll, { $search: 'the', $language: 'none' })).toEqual([]);
  });

  it('combines with other predicates, and count, update and delete read it too', async () => {
    expect(await ids(coll, { $search: 'quick' }, { _id: { $gt: 1 } })).toEqual([5, 6]);
    expect(await coll.countDocuments({ $text: { $search: 'fox' } })).toBe(2);
    const updated = await coll.updateMany({ $text: { $search: 'fox' } }, { $set: { tagged: true } });
    expect(updated.modifiedCount).toBe(2);
    expect(await coll.find({ tagged: true }, { projection: { _id: 1 } }).toArray()).toEqual([{ _id: 1 }, { _id: 4 }]);
    const other = await fresh('tm_delete', [{ _id: 1, s: 'red apple' }, { _id: 2, s: 'green pear' }], { s: 'text' });
    expect((await other.deleteMany({ $text: { $search: 'apples' } })).deletedCount).toBe(1);
    expect(await other.find().toArray()).toEqual([{ _id: 2, s: 'green pear' }]);
  });

  it('reads weighted, wildcard and per-document language fields', async () => {
    const wild = await fresh(
      'tm_wild',
      [
        { _id: 1, a: { b: 'running shoes' } },
        { _id: 2, tags: ['red', 'apples'] },
        { _id: 3, language: 'none', a: 'running' },
      ],
      { '$**': 'text' },
    );
    expect(await ids(wild, { $search: 'run' })).toEqual([1]);
    expect(await ids(wild, { $search: 'apple' })).toEqual([2]);
    // Document 3 is in no language: its term is "running" itself.
    expect(await ids(wild, { $search: 'running', $language: 'none' })).toEqual([3]);
  });
});

describe('text score', () => {
  let coll: Collection;
  beforeAll(async () => {
    coll = await fresh(
      'ts',
      [
        { _id: 1, title: 'Coffee', body: 'coffee and more coffee' },
        { _id: 2, title: 'Tea', body: 'tea or coffee' },
        { _id: 3, title: 'Water', body: 'plain water' },
      ],
      { title: 'text', body: 'text' },
      { weights: { title: 2 } },
    );
  });

  // Per string: each term's frequency (a repeat counts half the one before), times
  // 0.5 + 0.5 × count / words, times the field weight, × 1.1 when the string is the term itself.
  // Doc 1: title "Coffee" → coffe 2 × 1 × 1; body: coffe twice in two words → 1 × 1.5 × 1.
  const doc1Coffee = 2 * 1 * 1 * 1 + 1 * 1.5 * 1 * 1;
  // Doc 2: title "Tea" is its term → tea 2 × 1 × 1 × 1.1; body "tea or coffee": two words, once each → 0.75 each.
  const doc2Coffee = 1 * 1 * 0.75 * 1;
  const doc2Tea = 2 * 1 * 1 * 1.1 + 1 * 1 * 0.75 * 1;

  it('is projected and sorted by {$meta: "textScore"} in find', async () => {
    const docs = await coll
      .find({ $text: { $search: 'coffee tea' } }, { projection: { _id: 1, score: { $meta: 'textScore' } } })
      .sort({ score: { $meta: 'textScore' } })
      .toArray();
    expect(docs).toEqual([
      { _id: 2, score: doc2Coffee + doc2Tea },
      { _id: 1, score: doc1Coffee },
    ]);
  });

  it('is read by $meta in $project, $addFields and $sort of an aggregation', async () => {
    const docs = await coll
      .aggregate([
        { $match: { $text: { $search: 'coffee' } } },
        { $addFields: { s: { $meta: 'textScore' } } },
        { $sort: { s: -1 } },
        { $project: { _id: 1, s: 1, t: { $meta: 'textScore' } } },
      ])
      .toArray();
    expect(docs).toEqual([
      { _id: 1, s: doc1Coffee, t: doc1Coffee },
      { _id: 2, s: doc2Coffee, t: doc2Coffee },
    ]);
    const sorted = await coll.aggregate([{ $match: { $text: { $search: 'tea coffee' } } }, { $sort: { x: { $meta: 'textScore' } } }, { $project: { _id: 1 } }]).toArray();
    expect(sorted).toEqual([{ _id: 2 }, { _id: 1 }]);
  });

  it('is 40218 without $text', async () => {
    const message = 'query requires text score metadata, but it is not available';
    let err = await errorOf(() => coll.find({}, { projection: { s: { $meta: 'textScore' } } }).toArray());
    expect([err.code, err.errmsg]).toEqual([40218, message]);
    err = await errorOf(() => coll.find({}).sort({ s: { $meta: 'textScore' } }).toArray());
    expect([err.code, err.errmsg]).toEqual([40218, message]);
    err = await errorOf(() => coll.aggregate([{ $project: { s: { $meta: 'textScore' } } }]).toArray());
    expect(err.code).toBe(40218);
  });
});

describe('$text errors and placement', () => {
  let coll: Collection;
  beforeAll(async () => {
    coll = await fresh('te', [{ _id: 1, content: 'hello world', status: 'a' }], { content: 'text' });
    await coll.createIndex({ status: 1 });
  });

  async function failure(filter: Document, options: Document = {}): Promise<[unknown, unknown]> {
    const err = await errorOf(() => h.db.command({ find: 'te', filter, ...options }));
    return [err.code, err.errmsg];
  }

  it('needs a text index (27)', async () => {
    await h.db.collection('te_none').insertOne({ content: 'hello' });
    const err = await errorOf(() => h.db.collection('te_none').find({ $text: { $search: 'hello' } }).toArray());
    expect([err.code, err.errmsg]).toEqual([27, 'text index required for $text query']);
  });

  it('checks its argument and where it stands', async () => {
    expect(await failure({ $text: {} })).toEqual([4, 'Missing expected field "$search"']);
    expect(await failure({ $text: { $search: 'x', $foo: 1 } })).toEqual([2, 'extra fields in $text']);
    expect(await failure({ $text: { $search: 'x', $language: 'xx' } })).toEqual([2, 'unsupported language: "xx" for text index version 3']);
    expect(await failure({ $and: [{ $text: { $search: 'a' } }, { $text: { $search: 'b' } }] })).toEqual([2, 'Too many text expressions']);
    expect(await failure({ $nor: [{ $text: { $search: 'a' } }] })).toEqual([2, 'text expression not allowed in nor']);
    expect(await failure({ a: { $elemMatch: { $text: { $search: 'a' } } } })).toEqual([2, '$text can only be applied to the top-level document']);
    expect(await failure({ $text: { $search: 'hello' } }, { hint: { status: 1 } })).toEqual([2, 'text and hint not allowed in same query']);
    expect(await failure({ $text: { $search: 'hello' } }, { sort: { $natural: 1 } })).toEqual([2, 'text expression not allowed with $natural sort order']);
  });

  it('under $or needs the other branches indexed (291)', async () => {
    const [code] = await failure({ $or: [{ $text: { $search: 'hello' } }, { other: 1 }] });
    expect(code).toBe(291);
    const docs = await coll.find({ $or: [{ $text: { $search: 'nothing' } }, { status: 'a' }] }).toArray();
    expect(docs).toEqual([{ _id: 1, content: 'hello world', status: 'a' }]);
  });

  it('in a pipeline only in the first $match (17313)', async () => {
    const err = await errorOf(() => coll.aggregate([{ $project: { content: 1 } }, { $match: { $text: { $search: 'hello' } } }]).toArray());
    expect([err.code, err.errmsg]).toEqual([17313, '$match with $text is only allowed as the first pipeline stage']);
  });

  it('a compound text index needs equalities on its prefix fields', async () => {
    const compound = await fresh('te_prefix', [{ _id: 1, shop: 'x', s: 'blue cup' }, { _id: 2, shop: 'y', s: 'blue plate' }], { shop: 1, s: 'text' });
    expect(await ids(compound, { $search: 'blue' }, { shop: 'y' })).toEqual([2]);
    const err = await errorOf(() => compound.find({ $text: { $search: 'blue' } }).toArray());
    expect(err.code).toBe(2);
    expect(err.errmsg).toContain('are equality predicates given for all prefix fields?');
  });
});
