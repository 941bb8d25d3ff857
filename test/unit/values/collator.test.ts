import { describe, expect, test } from 'vitest';
import { BSONRegExp, BSONSymbol, type Document } from '../../../src/bson/library.js';
import { CommandError } from '../../../src/errors/command_error.js';
import { collatorOf, normaliseCollation } from '../../../src/storage/indexes/collation.js';
import { compileFilter } from '../../../src/storage/query/compile_filter.js';
import { compileSort } from '../../../src/storage/query/sort.js';
import { Collator, localeTag } from '../../../src/storage/values/collator.js';
import { compareValues, valuesEqual } from '../../../src/storage/values/compare.js';
import { collationKeyString, keyString } from '../../../src/storage/values/key_string.js';

/** The collator of a command's `collation` argument. */
function collator(spec: Document): Collator {
  return collatorOf(normaliseCollation(spec))!;
}

/** Sorts `values` under `spec`. */
function sorted(spec: Document, values: string[]): string[] {
  const c = collator(spec);
  return [...values].sort(c.compare);
}

function failure(fn: () => unknown): [number, string] {
  try {
    fn();
  } catch (err) {
    if (err instanceof CommandError) return [err.code, err.message];
    throw err;
  }
  throw new Error('expected an error');
}

describe('locale spellings', () => {
  test.each([
    ['en', 'en'],
    ['en_US', 'en-US'],
    ['en_US_POSIX', 'en-US-u-va-posix'],
    ['zh_Hant', 'zh-Hant'],
    ['sr_Latn', 'sr-Latn'],
    ['de@collation=phonebook', 'de-u-co-phonebk'],
    ['es@collation=traditional', 'es-u-co-trad'],
    ['zh@collation=stroke', 'zh-u-co-stroke'],
    ['si@collation=dictionary', 'si-u-co-dict'],
  ])('%s → %s', (mongod, tag) => {
    expect(localeTag(mongod)).toBe(tag);
  });

  test('a collation keyword changes the order (German phone book: ü as ue)', () => {
    expect(sorted({ locale: 'de' }, ['Müller', 'Mueller', 'Muffler'])).toEqual(['Mueller', 'Muffler', 'Müller']);
    expect(sorted({ locale: 'de@collation=phonebook' }, ['Müller', 'Mueller', 'Muffler'])).toEqual(['Mueller', 'Müller', 'Muffler']);
  });
});

describe('strength, case and accents', () => {
  test('strength 2 ignores case, not accents', () => {
    const c = collator({ locale: 'en', strength: 2 });
    expect(c.compare('abc', 'ABC')).toBe(0);
    expect(c.compare('Abc', 'aBC')).toBe(0);
    expect(c.compare('abc', 'ábc')).toBe(-1);
    // ICU weighs ß against ss at the secondary level.
    expect(c.equals('straße', 'STRASSE')).toBe(false);
    expect(collator({ locale: 'de', strength: 1 }).equals('straße', 'STRASSE')).toBe(true);
  });

  test('strength 1 ignores accents and case', () => {
    const c = collator({ locale: 'en', strength: 1 });
    expect(c.compare('café', 'CAFE')).toBe(0);
    expect(c.compare('résumé', 'Resume')).toBe(0);
    expect(c.compare('a', 'b')).toBe(-1);
  });

  test('strength 3 (the default) orders lower case first, then caseFirst decides', () => {
    expect(sorted({ locale: 'en' }, ['B', 'b', 'A', 'a'])).toEqual(['a', 'A', 'b', 'B']);
    expect(sorted({ locale: 'en', caseFirst: 'upper' }, ['b', 'B', 'a', 'A'])).toEqual(['A', 'a', 'B', 'b']);
    expect(sorted({ locale: 'en', caseFirst: 'lower' }, ['B', 'b', 'A', 'a'])).toEqual(['a', 'A', 'b', 'B']);
    expect(collator({ locale: 'en' }).compare('a', 'A')).toBe(-1);
  });

  test('caseLevel adds case to strength 1 and 2', () => {
    const s1 = collator({ locale: 'en', strength: 1, caseLevel: true });
    expect(s1.compare('a', 'á')).toBe(0);
    expect(s1.compare('a', 'A')).toBe(-1);
    const s2 = collator({ locale: 'en', strength: 2, caseLevel: true });
    expect(s2.compare('a', 'á')).toBe(-1);
    expect(s2.compare('a', 'A')).toBe(-1);
    expect(s2.compare('á', 'A')).toBe(1);
  });

  test('strength 5 breaks ties by code points', () => {
    const s3 = collator({ locale: 'en' });
    const s5 = collator({ locale: 'en', strength: 5 });
    // U+00E9 and e + U+0301 are canonically equivalent: equal even at the identical level.
    expect(s3.compare('\u00e9', 'e\u0301')).toBe(0);
    expect(s5.compare('\u00e9', 'e\u0301')).toBe(0);
    expect(s5.compare('a', 'a')).toBe(0);
  });
});

describe('numericOrdering, alternate, backwards', () => {
  test('numericOrdering compares digit runs as numbers', () => {
    expect(sorted({ locale: 'en' }, ['item10', 'item9', 'item100'])).toEqual(['item10', 'item100', 'item9']);
    expect(sorted({ locale: 'en', numericOrdering: true }, ['item10', 'item9', 'item100'])).toEqual(['item9', 'item10', 'item100']);
    expect(collator({ locale: 'en', numericOrdering: true }).compare('01', '1')).toBe(0);
  });

  test("alternate 'shifted' ignores punctuation and spaces; maxVariable 'space' only spaces", () => {
    const punct = collator({ locale: 'en', alternate: 'shifted' });
    expect(punct.compare('a-b', 'ab')).toBe(0);
    expect(punct.compare('a b', 'ab')).toBe(0);
    const space = collator({ locale: 'en', alternate: 'shifted', maxVariable: 'space' });
    expect(space.compare('a b', 'ab')).toBe(0);
    expect(space.compare('a-b', 'ab')).toBe(-1);
    expect(collator({ locale: 'en' }).compare('a-b', 'ab')).toBe(-1);
    // Strength 4 tells the ignored characters apart again.
    expect(collator({ locale: 'en', alternate: 'shifted', strength: 4 }).compare('a-b', 'ab')).toBe(-1);
  });

  test('backwards compares accents from the end of the string (French)', () => {
    const words = ['cote', 'côte', 'coté', 'côté'];
    expect(sorted({ locale: 'fr' }, words)).toEqual(['cote', 'coté', 'côte', 'côté']);
    expect(sorted({ locale: 'fr_CA' }, words)).toEqual(['cote', 'côte', 'coté', 'côté']);
    expect(sorted({ locale: 'fr', backwards: true }, words)).toEqual(['cote', 'côte', 'coté', 'côté']);
    expect(sorted({ locale: 'en', backwards: true }, words)).toEqual(['cote', 'côte', 'coté', 'côté']);
    expect(sorted({ locale: 'fr_CA', backwards: false }, words)).toEqual(['cote', 'coté', 'côte', 'côté']);
  });
});

describe('normaliseCollation', () => {
  test('the locale defaults ICU fills in', () => {
    expect(normaliseCollation({ locale: 'da' })).toMatchObject({ caseFirst: 'upper', alternate: 'non-ignorable', backwards: false });
    expect(normaliseCollation({ locale: 'th' })).toMatchObject({ caseFirst: 'off', alternate: 'shifted' });
    expect(normaliseCollation({ locale: 'fr_CA' })).toMatchObject({ backwards: true });
    expect(normaliseCollation({ locale: 'simple' })).toBeNull();
  });

  test('invalid combinations, versions and locales', () => {
    expect(failure(() => normaliseCollation({ locale: 'da', strength: 1 }))).toEqual([
      2,
      '\'caseFirst\' is invalid unless \'caseLevel\' is on or \'strength\' is greater than 2 in: { locale: "da", strength: 1 }',
    ]);
    expect(failure(() => normaliseCollation({ locale: 'fr_CA', strength: 1 }))).toEqual([2, '\'backwards\' is invalid with \'strength\' of 1 in: { locale: "fr_CA", strength: 1 }']);
    expect(normaliseCollation({ locale: 'en', version: '57.1' })).toMatchObject({ version: '57.1' });
    expect(failure(() => normaliseCollation({ locale: 'en', version: 5 }))).toEqual([14, "BSON field 'collation.version' is the wrong type 'int', expected type 'string'"]);
    expect(failure(() => normaliseCollation({ locale: 'en_us' }))).toEqual([2, 'Field \'locale\' is invalid in: { locale: "en_us" }. Did you mean \'en_US\'?']);
    expect(failure(() => normaliseCollation({ locale: 'en_GB' }))).toEqual([2, 'Field \'locale\' is invalid in: { locale: "en_GB" }. Did you mean \'en\'?']);
    expect(failure(() => normaliseCollation({ locale: 'zz' }))).toEqual([2, 'Field \'locale\' is invalid in: { locale: "zz" }']);
    expect(failure(() => normaliseCollation({ locale: 'e\0n' }))).toEqual([2, 'Field \'locale\' cannot contain null byte. Collation spec: { locale: "e\0n" }']);
  });
});

describe('values under a collation', () => {
  const ci = collator({ locale: 'en', strength: 2 });

  test('strings nested in documents and arrays compare by it; field names, regexes and numbers do not', () => {
    expect(compareValues({ a: 'X' }, { a: 'x' }, ci)).toBe(0);
    expect(compareValues({ A: 'x' }, { a: 'x' }, ci)).toBe(-1);
    expect(compareValues(['a', 'B'], ['A', 'b'], ci)).toBe(0);
    expect(compareValues(new BSONSymbol('ABC'), 'abc', ci)).toBe(0);
    expect(compareValues(new BSONRegExp('A', ''), new BSONRegExp('a', ''), ci)).toBe(-1);
    expect(compareValues(1, 'a', ci)).toBe(-1);
    expect(valuesEqual('Hello', 'hELLO', ci)).toBe(true);
    expect(valuesEqual('Hello', 'hELLO')).toBe(false);
  });

  test('keys: one per class, the first string seen stands for it', () => {
    const c = collator({ locale: 'en', strength: 2 });
    expect(c.key('Ping')).toBe('Ping');
    expect(c.key('PING')).toBe('Ping');
    expect(c.key('pong')).toBe('pong');
    expect(c.key('ping')).toBe('Ping');
    expect(collationKeyString({ a: ['X', 'ping'] }, c)).toBe(collationKeyString({ a: ['x', 'PING'] }, c));
    expect(collationKeyString({ a: ['X'] }, c)).not.toBe(collationKeyString({ a: ['Y'] }, c));
    expect(collationKeyString('abc', null)).toBe(keyString('abc'));
  });

  test('filters: $eq, $ne, $in, $nin, $gt, $all, $elemMatch follow it; $regex does not', () => {
    const match = (filter: Document, doc: Document) => compileFilter(filter, { collator: ci })(doc);
    expect(match({ s: 'ABC' }, { s: 'abc' })).toBe(true);
    expect(match({ s: { $ne: 'ABC' } }, { s: 'abc' })).toBe(false);
    expect(match({ s: { $in: ['x', 'ABC', 'y'] } }, { s: 'abc' })).toBe(true);
    expect(match({ s: { $in: [{ k: 'V' }] } }, { s: { k: 'v' } })).toBe(true);
    expect(match({ s: { $nin: ['ABC'] } }, { s: 'abc' })).toBe(false);
    expect(match({ s: { $gte: 'ABC' } }, { s: 'abc' })).toBe(true);
    expect(match({ s: { $gt: 'ABC' } }, { s: 'abc' })).toBe(false);
    expect(match({ s: { $lt: 'b' } }, { s: 'A' })).toBe(true);
    expect(match({ s: { $all: ['A', 'B'] } }, { s: ['b', 'a'] })).toBe(true);
    expect(match({ s: { $elemMatch: { $eq: 'B' } } }, { s: ['b'] })).toBe(true);
    expect(match({ s: /^ABC$/ }, { s: 'abc' })).toBe(false);
    expect(match({ s: { $in: [/^ABC$/] } }, { s: 'abc' })).toBe(false);
    expect(compileFilter({ s: 'ABC' })({ s: 'abc' })).toBe(false);
  });

  test('sorts: strings by it, arrays by their smallest element under it', () => {
    const docs = [{ s: 'b' }, { s: 'B' }, { s: 'a' }, { s: ['C', 'A'] }];
    const order = [...docs].sort(compileSort({ s: 1 }, collator({ locale: 'en' })));
    expect(order).toEqual([{ s: 'a' }, { s: ['C', 'A'] }, { s: 'b' }, { s: 'B' }]);
    expect([...docs].sort(compileSort({ s: 1 }))).toEqual([{ s: ['C', 'A'] }, { s: 'B' }, { s: 'a' }, { s: 'b' }]);
  });
});
