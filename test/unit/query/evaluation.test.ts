import { describe, expect, test } from 'vitest';
import { BSONRegExp, BSONSymbol, Decimal128, Double, Long, type Document } from '../../../src/bson/library.js';
import { compileFilter } from '../../../src/storage/query/compile_filter.js';
import { matches } from './helpers.js';

type Row = [Document, Document, boolean];
const run = (rows: Row[]) =>
  test.each(rows)('%j matches %j → %s', (doc, filter, expected) => {
    expect(matches(doc, filter)).toBe(expected);
  });

describe('regular expressions', () => {
  run([
    [{ a: 'abc' }, { a: /^ab/ }, true],
    [{ a: 'xabc' }, { a: /^ab/ }, false],
    [{ a: 'ABC' }, { a: /^ab/i }, true],
    [{ a: 'ABC' }, { a: new BSONRegExp('^ab', 'i') }, true],
    [{ a: 'ABC' }, { a: { $regex: '^ab', $options: 'i' } }, true],
    [{ a: 'ABC' }, { a: { $options: 'i', $regex: '^ab' } }, true],
    [{ a: 'ABC' }, { a: { $regex: new BSONRegExp('^ab', 'i') } }, true],
    [{ a: 'ABC' }, { a: { $regex: /^ab/, $options: 'i' } }, true],
    [{ a: 'abc' }, { a: { $regex: 'b' } }, true],
    [{ a: ['x', 'abc'] }, { a: /^ab/ }, true],
    [{ a: 5 }, { a: /5/ }, false],
    [{}, { a: /x/ }, false],
    [{ a: new BSONSymbol('abc') }, { a: /^ab/ }, true],
    [{ a: new BSONRegExp('^ab', 'i') }, { a: new BSONRegExp('^ab', 'i') }, true],
    [{ a: new BSONRegExp('^ab', '') }, { a: new BSONRegExp('^ab', 'i') }, false],
    [{ a: 'line1\nline2' }, { a: /^line2/ }, false],
    [{ a: 'line1\nline2' }, { a: { $regex: '^line2', $options: 'm' } }, true],
    [{ a: 'a\nb' }, { a: { $regex: 'a.b' } }, false],
    [{ a: 'a\nb' }, { a: { $regex: 'a.b', $options: 's' } }, true],
    [{ a: 'a\rb' }, { a: { $regex: 'a.b' } }, true],
    [{ a: 'abc\n' }, { a: { $regex: 'abc$' } }, true],
    [{ a: 'abc\nx' }, { a: { $regex: 'abc$' } }, false],
    [{ a: 'abc' }, { a: { $regex: 'a b c # spaced', $options: 'x' } }, true],
    [{ a: 'abc' }, { a: { $regex: '(?i)ABC' } }, true],
    [{ a: 'abc' }, { a: { $regex: '\\Aabc\\z' } }, true],
    [{ a: 'abc\n' }, { a: { $regex: '\\Aabc\\z' } }, false],
    [{ a: 'abc\n' }, { a: { $regex: 'abc\\Z' } }, true],
    [{ a: '2024-01' }, { a: { $regex: '(?P<y>\\d{4})-(?P=y)?' } }, true],
    [{ a: 'ab' }, { a: { $regex: '[]a]b' } }, true],
    [{ a: 'héllo' }, { a: { $regex: '^h.llo$' } }, true],
    [{ a: '😀' }, { a: { $regex: '^.$' } }, true],
  ]);
});

describe('$mod', () => {
  run([
    [{ a: 10 }, { a: { $mod: [3, 1] } }, true],
    [{ a: 10 }, { a: { $mod: [3, 2] } }, false],
    [{ a: -10 }, { a: { $mod: [3, -1] } }, true],
    [{ a: 10.9 }, { a: { $mod: [3, 1] } }, true],
    [{ a: -10.9 }, { a: { $mod: [3, -1] } }, true],
    [{ a: Long.fromString('9007199254740993') }, { a: { $mod: [2, 1] } }, true],
    [{ a: Decimal128.fromString('10.5') }, { a: { $mod: [3, 1] } }, true],
    [{ a: new Double(4) }, { a: { $mod: [2, 0] } }, true],
    [{ a: NaN }, { a: { $mod: [2, 0] } }, false],
    [{ a: Infinity }, { a: { $mod: [2, 0] } }, false],
    [{ a: 1e300 }, { a: { $mod: [2, 0] } }, false],
    [{ a: '10' }, { a: { $mod: [3, 1] } }, false],
    [{ a: [1, 10] }, { a: { $mod: [3, 1] } }, true],
    [{ a: 10 }, { a: { $mod: [3.9, 1.2] } }, true],
    [{ a: 10 }, { a: { $mod: [-3, 1] } }, true],
    [{ a: Long.MIN_VALUE }, { a: { $mod: [-1, 0] } }, true],
  ]);
});

describe('top-level operators that always answer', () => {
  run([
    [{ a: 1 }, { $alwaysTrue: 1 }, true],
    [{ a: 1 }, { $alwaysFalse: 1 }, false],
    [{ a: 1 }, { $sampleRate: 1 }, true],
    [{ a: 1 }, { $sampleRate: 0 }, false],
    [{ a: 1 }, { $comment: { any: 'thing' } }, true],
  ]);
  test('$expr is compiled by a plugged-in engine', () => {
    const p = compileFilter({ $expr: { x: 1 } }, { compileExpr: (e) => (doc) => doc.flag === (e as Document).x });
    expect(p({ flag: 1 })).toBe(true);
    expect(p({ flag: 2 })).toBe(false);
  });
});
