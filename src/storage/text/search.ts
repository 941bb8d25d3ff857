/**
 * The parsed `$search` string of a `$text` query (mongod's `FTSQueryImpl::parse`): words
 * separated by whitespace; a double-quoted run is a phrase (its words are also positive terms);
 * a `-` right after whitespace (or at the start) negates the next word (up to whitespace or
 * punctuation) or phrase. Terms are
 * folded and stemmed in the query's language, stop words dropped; phrases are kept as written.
 */
import type { TextLanguage } from './language.js';
import { foldText, terms, type FoldOptions } from './tokenizer.js';

/** A `$search` string, parsed. */
export interface TextSearch {
  /** Terms a matching document has one of (as the query compares them: case kept when case sensitive). */
  readonly positiveTerms: ReadonlySet<string>;
  /** Terms a matching document has none of. */
  readonly negatedTerms: ReadonlySet<string>;
  /** Phrases a matching document contains, every one. */
  readonly positivePhrases: readonly string[];
  /** Phrases a matching document contains none of. */
  readonly negatedPhrases: readonly string[];
  /** The positive terms in the index's form (lower case, no diacritics): what the index is read for. */
  readonly termsForBounds: ReadonlySet<string>;
}

const WHITESPACE = /\s/u;
/** ASCII punctuation but the apostrophe (which English words hold), '-' and '"' (handled apart). */
const PUNCTUATION = /[!#-&(-,./:-@[-`{-~]/;

/** Parses `search` in `language` with the query's case and diacritic sensitivity. */
export function parseTextSearch(search: string, language: TextLanguage, fold: FoldOptions): TextSearch {
  const positiveTerms = new Set<string>();
  const negatedTerms = new Set<string>();
  const termsForBounds = new Set<string>();
  const positivePhrases: string[] = [];
  const negatedPhrases: string[] = [];
  const addTerms = (text: string, negated: boolean): void => {
    for (const term of terms(text, language, fold)) {
      if (negated) {
        negatedTerms.add(term);
      } else {
        positiveTerms.add(term);
        termsForBounds.add(foldText(term, { caseSensitive: false, diacriticSensitive: false }));
      }
    }
  };
  let inNegation = false;
  let inPhrase = false;
  let phraseStart = 0;
  let previousWhitespace = true;
  let i = 0;
  while (i < search.length) {
    const c = search[i]!;
    if (WHITESPACE.test(c)) {
      previousWhitespace = true;
      i++;
      continue;
    }
    if (c === '-') {
      if (!inPhrase && previousWhitespace) inNegation = true;
      previousWhitespace = false;
      i++;
      continue;
    }
    if (c === '"') {
      if (inPhrase) {
        const phrase = search.slice(phraseStart, i);
        (inNegation ? negatedPhrases : positivePhrases).push(phrase);
        inNegation = false;
        inPhrase = false;
      } else {
        inPhrase = true;
        // A '-' negates a phrase only when it stands right before the quote.
        if (inNegation && previousWhitespace) inNegation = false;
        phraseStart = i + 1;
      }
      previousWhitespace = false;
      i++;
      continue;
    }
    // Other punctuation delimits the text runs (it neither negates nor quotes, but ends a negation).
    if (PUNCTUATION.test(c)) {
      previousWhitespace = false;
      i++;
      continue;
    }
    // A run of text up to the next whitespace or punctuation.
    let end = i + 1;
    while (end < search.length && !WHITESPACE.test(search[end]!) && !PUNCTUATION.test(search[end]!) && search[end] !== '-' && search[end] !== '"') end++;
    const text = search.slice(i, end);
    if (!(inPhrase && inNegation)) addTerms(text, inNegation);
    if (inNegation && !inPhrase) inNegation = false;
    previousWhitespace = false;
    i = end;
  }
  return { positiveTerms, negatedTerms, positivePhrases, negatedPhrases, termsForBounds };
}
