/**
 * `$regexFind`, `$regexFindAll` and `$regexMatch` (mongod 8.2, PCRE2 in UTF mode): results with
 * `idx` in code points and null for a group that took no part, options and their errors, the
 * PCRE syntax that JavaScript spells differently, and `$regexMatch` inside `$match`'s `$expr`.
 */
import { describe, it } from 'vitest';
import { BSONRegExp } from '../../../../src/bson/library.js';
import { newPipelineContext } from '../../../../src/storage/aggregation/pipeline_context.js';
import { compilePipeline } from '../../../../src/storage/aggregation/pipeline.js';
import { expectExact } from '../../aggregation/helpers.js';
import { errorRows, evaluate, valueRows } from '../helpers.js';

const find = (input: unknown, regex: unknown, options?: unknown) =>
  ({ $regexFind: options === undefined ? { input, regex } : { input, regex, options } });
const all = (input: unknown, regex: unknown, options?: unknown) =>
  ({ $regexFindAll: options === undefined ? { input, regex } : { input, regex, options } });
const match = (input: unknown, regex: unknown, options?: unknown) =>
  ({ $regexMatch: options === undefined ? { input, regex } : { input, regex, options } });
const m = (text: string, idx: number, captures: unknown[] = []) => ({ match: text, idx, captures });

describe('$regexFind', () => valueRows([
  ['the first match', find('hello world', 'o'), m('o', 4)],
  ['no match is null', find('hello', 'z'), null],
  ['captures, in order', find('John Smith', '(\\w+) (\\w+)'), m('John Smith', 0, ['John', 'Smith'])],
  ['a group that took no part is null', find('dog', '(cat)|(dog)'), m('dog', 0, [null, 'dog'])],
  ['an empty capture is the empty string', find('abc', '()abc'), m('abc', 0, [''])],
  ['nested groups by their opening parenthesis', find('abc', '((a)(b))c'), m('abc', 0, ['ab', 'a', 'b'])],
  ['a non-capturing group is not a capture', find('abc123', '(?:abc)([0-9]+)'), m('abc123', 0, ['123'])],
  ['idx counts code points', find('日本語テキスト', '語'), m('語', 2)],
  ['idx counts an emoji as one', find('😀😀x', 'x'), m('x', 2)],
  ['a BSON regex with its flags', find('HELLO', new BSONRegExp('hello', 'i')), m('HELLO', 0)],
  ['options i', find('HELLO', 'hello', 'i'), m('HELLO', 0)],
  ['null input', find(null, 'a'), null],
  ['missing input', find('$nope', 'a'), null],
  ['null regex', find('abc', null), null],
  ['a null regex reads no options', find('abc', null, 'z'), null],
  ['the empty regex matches at 0', find('abc', ''), m('', 0)],
  ['named groups (?P<name>) are captures', find('abc123', '(?P<word>[a-z]+)(?P<num>[0-9]+)'), m('abc123', 0, ['abc', '123'])],
  ['a lookahead capture', find('foobar', 'foo(?=(bar))'), m('foo', 0, ['bar'])],
]));

describe('$regexFindAll', () => valueRows([
  ['every match, not overlapping', all('aaa', 'aa'), [m('aa', 0)]],
  ['with captures', all('a1 b2', '([a-z])([0-9])'), [m('a1', 0, ['a', '1']), m('b2', 3, ['b', '2'])]],
  ['empty matches advance one code point, none at the very end', all('ab', 'x*'), [m('', 0), m('', 1)]],
  ['an empty match after a match', all('ab', 'a*'), [m('a', 0), m('', 1)]],
  ['the empty input is tried once', all('', 'a*'), [m('', 0)]],
  ['code point indexes through emoji', all('😀a😀a', 'a'), [m('a', 1), m('a', 3)]],
  ['empty matches step over a whole emoji', all('😀', '(?=.)'), [m('', 0)]],
  ['null input is the empty array', all(null, 'a'), []],
  ['null regex is the empty array', all('abc', null), []],
  ['no match is the empty array', all('abc', 'z'), []],
]));

describe('$regexMatch', () => valueRows([
  ['a match', match('hello', '^h'), true],
  ['no match', match('hello', '^e'), false],
  ['null input is false', match(null, 'a'), false],
  ['null regex is false', match('a', null), false],
  ['options from a constant $literal', match('A', 'a', { $literal: 'i' }), true],
  ['a regex from a field', { $regexMatch: { input: 'abc', regex: '$r' } }, true],
], { r: 'b' }));

describe('PCRE semantics', () => valueRows([
  ['$ matches before a final newline', match('abc\n', 'c$'), true],
  ['$ without m does not match before an inner newline', match('abc\nd', 'c$'), false],
  ['$ with m matches before an inner newline', match('abc\nd', 'c$', 'm'), true],
  ['^ with m matches after a newline', find('a\nb', '^b', 'm'), m('b', 2)],
  ['. does not match LF', match('a\nb', 'a.b'), false],
  ['. matches CR (only LF is a newline)', match('a\rb', 'a.b'), true],
  ['s: . matches LF', match('a\nb', 'a.b', 's'), true],
  ['x: white space and comments are dropped', match('hello', 'hel lo # a comment', 'x'), true],
  ['x: escaped space is kept', match('hel lo', 'hel\\ lo', 'x'), true],
  ['u is accepted', match('é', 'é', 'u'), true],
  ['\\s is ASCII white space only', match('\u00a0', '\\s'), false],
  ['\\d is ASCII digits only', match('٣', '\\d'), false],
  ['(?i) inline', match('HELLO', '(?i)hello'), true],
  ['(?i) reaches to the end of its group only', match('aB', '(a(?i)b)'), true],
  ['(?i) ends with its group', match('aBC', '(a(?i)b)c'), false],
  ['(?i) does not reach back', match('Ab', 'a(?i)b'), false],
  ['(?i:...) scoped', find('xABy', 'x(?i:ab)y'), m('xABy', 0)],
  ['(?-i) switches it off', match('ABc', '(?-i)c', 'i'), true],
  ['(?-i) then case matters', match('C', '(?-i)c', 'i'), false],
  ['(?s) inline', match('a\nb', '(?s)a.b'), true],
  ['(?m) inline', match('a\nb', '(?m)a$'), true],
  ['\\A and \\z', match('abc', '\\Aabc\\z'), true],
  ['\\Z matches before a final newline', match('abc\n', 'abc\\Z'), true],
  ['\\z does not', match('abc\n', 'abc\\z'), false],
  ['a possessive quantifier gives nothing back', match('aaa', 'a++a'), false],
  ['a possessive quantifier keeps the capture numbers', find('aab', '(a)*+(b)'), m('aab', 0, ['a', 'b'])],
  ['an atomic group', match('aaab', '(?>a+)b'), true],
  ['an atomic group gives nothing back', match('aaa', '(?>a+)a'), false],
  ['a back-reference', find('abab', '(ab)\\1'), m('abab', 0, ['ab'])],
  ['\\g{-1} is the previous group', match('xx', '(x)\\g{-1}'), true],
  ['(?P=name) is a named back-reference', match('aa', '(?P<c>a)(?P=c)'), true],
  ['a named back-reference may come before its group', match('a', '(?P=c)?(?P<c>a)'), true],
  ['\\k<name> is a named back-reference', find('xyxy', '(?<p>xy)\\k<p>'), m('xyxy', 0, ['xy'])],
  ['\\Q...\\E quotes', match('a.b*', '\\Qa.b*\\E'), true],
  ['\\x{...} is a code point', match('😀', '\\x{1F600}'), true],
  ['\\h is horizontal space', match('\u00a0', '\\h'), true],
  ['\\R is a line break', find('a\r\nb', 'a\\Rb'), m('a\r\nb', 0)],
  ['\\R never splits a CRLF', match('\r\n', '^\\R\\R$'), false],
  ['POSIX classes', match('x9', '^[[:alpha:]][[:digit:]]$'), true],
  ['a negated POSIX class', match('9', '^[[:^alpha:]]$'), true],
  ['a negated POSIX class refuses its members', match('a', '[[:^alpha:]]'), false],
  ['a negated class with a negated POSIX class', match('a', '^[^[:^alpha:]1]$'), true],
  ['\\S inside a class is not a PCRE space', match('\u00a0', '^[\\S]$'), true],
  ['(?i) with [[:upper:]] is any letter', match('a', '(?i)b|[[:upper:]]'), true],
  ['caseless \\p{Lu} is still upper case only', match('a', '\\p{Lu}', 'i'), false],
  ['caseless letters around a property still fold', match('Aé', '^a\\p{Ll}$', 'i'), true],
  ['\\X takes a character with all its marks', match('e\u0301', '^\\X.'), false],
  ['] first in a class is a literal', match(']', '[]a]'), true],
  ['a lone { is a literal', match('a{', 'a{'), true],
  ['a lone } is a literal', match('}', '}'), true],
  ['\\pL is a property', match('é', '^\\pL$'), true],
  ['a script property', match('α', '\\p{Greek}'), true],
  ['(?# comments )', match('ab', 'a(?# nothing)b'), true],
  ['a fixed-length lookbehind', find('ab', '(?<=a)b'), m('b', 1)],
  ['an atomic group has its length inside a lookbehind', find('abc', '(?<=(?>ab))c'), m('c', 2)],
  ['a lookahead inside a lookbehind adds no length', find('abc', '(?<=(?=b)b)c'), m('c', 2)],
  ['a lookbehind whose branches differ in fixed length', match('xab', '(?<=a|xa)b'), true],
  ['case-insensitive matching is Unicode', match('É', 'é', 'i'), true],
  ['an escaped non-alphanumeric is itself', match('-"', '\\-\\"'), true],
  ['octal escapes', match('A', '\\101'), true],
  ['an escaped underscore is itself', match('_', '^\\_$'), true],
  ['\\N{U+...} is a code point', match('é', '\\N{U+E9}'), true],
  ['\\G anchors at the search position', all('aab', '\\Ga'), [m('a', 0), m('a', 1)]],
  ['\\G: no match away from it', find('ba', '\\Ga'), null],
  ['\\G after flags is still the start', all('aab', '(?i)\\GA'), [m('a', 0), m('a', 1)]],
  ['a hyphen after a class escape at the end of a class is a literal', match('-', '[\\w-]'), true],
]));

describe('argument errors', () => errorRows([
  ['not an object', { $regexFind: 'abc' }, 51103, '$regexFind expects an object of named arguments but found: string'],
  ['an unknown argument', { $regexMatch: { input: 'a', regex: 'a', flags: 'i' } }, 31024, '$regexMatch found an unknown argument: flags'],
  ['no input', { $regexFindAll: { regex: 'a' } }, 31022, "$regexFindAll requires 'input' parameter"],
  ['no regex', { $regexFind: { input: 'a' } }, 31023, "$regexFind requires 'regex' parameter"],
  ['a non-string input', find(1, 'a'), 51104, "$regexFind needs 'input' to be of type string"],
  ['a non-string regex', find('a', 1), 51105, "$regexFind needs 'regex' to be of type string or regex"],
  ['a non-string regex wins over a bad input (constant regex first)', find(1, 1), 51105, "$regexFind needs 'regex' to be of type string or regex"],
  ['a bad regex from a field wins over a bad input too', find(1, '$n'), 51105, "$regexFind needs 'regex' to be of type string or regex"],
  ['a bad option from a field wins over a bad input', { $regexMatch: { input: 1, regex: 'a', options: '$o' } }, 51108, '$regexMatch invalid flag in regex options: z'],
  ['non-string options', match('a', 'a', 1), 51106, "$regexMatch needs 'options' to be of type string"],
  ['options in both places', find('a', new BSONRegExp('a', 'i'), 'i'), 51107, "$regexFind: found regex option(s) specified in both 'regex' and 'option' fields"],
  ['an unknown option', all('a', 'a', 'z'), 51108, '$regexFindAll invalid flag in regex options: z'],
  ['an unknown option of a BSON regex', find('a', new BSONRegExp('a', 'l')), 51108, '$regexFind invalid flag in regex options: l'],
  ['a NUL in the pattern', find('a', 'a\0b'), 51109, '$regexFind: regular expression cannot contain an embedded null byte'],
  ['a NUL in the options', find('a', 'a', 'i\0'), 51110, '$regexFind: regular expression options cannot contain an embedded null byte'],
], { n: 5, o: 'z' }));

/** Invalid patterns: always 51111, whatever the reason's wording. */
const INVALID_PATTERNS: Array<[string, string]> = [
  ['an unclosed class', '[invalid'],
  ['an unclosed group', '(unclosed'],
  ['an unmatched parenthesis', 'a)'],
  ['a quantifier of nothing', '*a'],
  ['a variable-length lookbehind', '(?<=a+)b'],
  ['a lookbehind with a back-reference', '(a)(?<=\\1)'],
  ['an unknown escape', '\\i'],
  ['a reference to a group that does not exist', '(a)\\2'],
  ['a reference to a name that does not exist', '(?<a>x)\\k<b>'],
  ['a range out of order', '[z-a]'],
  ['a range from a class escape', '[\\d-z]'],
  ['a range to a class escape', '[a-\\w]'],
  ['an unknown property', '\\p{Nope}'],
  ['a pattern over 16KB', 'a'.repeat(16 * 1024 + 1)],
];

describe("invalid patterns (51111, mongod's reason after the prefix)", () => {
  for (const [name, pattern] of INVALID_PATTERNS) {
    it(name, () => {
      let caught: unknown;
      try {
        evaluate(find('abc', pattern));
      } catch (err) {
        caught = err;
      }
      const e = caught as { code?: number; message?: string } | undefined;
      expectExact({ code: e?.code, prefix: e?.message?.startsWith('Invalid Regex in $regexFind: ') }, { code: 51111, prefix: true });
    });
  }
});

describe('$regexMatch in $match', () => {
  it('filters by $expr', () => {
    const docs = [
      { _id: 1, s: 'apple' },
      { _id: 2, s: 'Banana' },
      { _id: 3, s: 'cherry' },
      { _id: 4 },
    ];
    const run = compilePipeline([{ $match: { $expr: { $regexMatch: { input: '$s', regex: '^b', options: 'i' } } } }], newPipelineContext({ now: new Date(0) }));
    expectExact(Array.from(run(docs)), [{ _id: 2, s: 'Banana' }]);
  });

  it('a regex read from each document compiles per value', () => {
    const docs = [
      { _id: 1, s: 'abc', r: 'b' },
      { _id: 2, s: 'abc', r: 'z' },
      { _id: 3, s: 'xyz', r: 'z' },
    ];
    const run = compilePipeline([{ $match: { $expr: { $regexMatch: { input: '$s', regex: '$r' } } } }], newPipelineContext({ now: new Date(0) }));
    expectExact(Array.from(run(docs)).map((d) => (d as { _id: number })._id), [1, 3]);
  });
});
