/** Parsing `$search` (mongod's FTSQueryImpl rules) and tokenizing text, in English. */
import { describe, expect, test } from 'vitest';
import { findLanguage } from '../../../src/storage/text/language.js';
import { parseTextSearch } from '../../../src/storage/text/search.js';
import { terms } from '../../../src/storage/text/tokenizer.js';

const english = findLanguage('english')!;
const insensitive = { caseSensitive: false, diacriticSensitive: false };

function parsed(search: string, fold = insensitive): unknown {
  const s = parseTextSearch(search, english, fold);
  return {
    terms: [...s.positiveTerms],
    negated: [...s.negatedTerms],
    phrases: s.positivePhrases,
    negatedPhrases: s.negatedPhrases,
    bounds: [...s.termsForBounds],
  };
}

describe('parseTextSearch', () => {
  test.each([
    ['Running dogs', { terms: ['run', 'dog'], negated: [], phrases: [], negatedPhrases: [], bounds: ['run', 'dog'] }],
    ['the and', { terms: [], negated: [], phrases: [], negatedPhrases: [], bounds: [] }],
    ['coffee -tea', { terms: ['coffe'], negated: ['tea'], phrases: [], negatedPhrases: [], bounds: ['coffe'] }],
    ['well-known', { terms: ['well', 'known'], negated: [], phrases: [], negatedPhrases: [], bounds: ['well', 'known'] }],
    ['"quick brown" fox', { terms: ['quick', 'brown', 'fox'], negated: [], phrases: ['quick brown'], negatedPhrases: [], bounds: ['quick', 'brown', 'fox'] }],
    ['fox -"brown dog"', { terms: ['fox'], negated: [], phrases: [], negatedPhrases: ['brown dog'], bounds: ['fox'] }],
    // A '-' apart from the quote does not negate the phrase.
    ['fox - "brown dog"', { terms: ['fox', 'brown', 'dog'], negated: [], phrases: ['brown dog'], negatedPhrases: [], bounds: ['fox', 'brown', 'dog'] }],
    // Punctuation ends a negated word.
    ['-hello,world', { terms: ['world'], negated: ['hello'], phrases: [], negatedPhrases: [], bounds: ['world'] }],
  ])('%j', (search, expected) => {
    expect(parsed(search)).toEqual(expected);
  });

  test('a case-sensitive search keeps the case of its terms, and reads the index in lower case', () => {
    expect(parsed('Foxes', { caseSensitive: true, diacriticSensitive: false })).toEqual({ terms: ['Fox'], negated: [], phrases: [], negatedPhrases: [], bounds: ['fox'] });
  });
});

describe('terms', () => {
  test('words are split at punctuation and folded; apostrophes stay inside English words', () => {
    expect(terms("Café's menu: naïve dog's bones, don't", english)).toEqual(['cafe', 'menu', 'naiv', 'dog', 'bone']);
  });
  test('"none" keeps every word as it is, lower-cased', () => {
    expect(terms('The Running', findLanguage('none')!)).toEqual(['the', 'running']);
  });
});
