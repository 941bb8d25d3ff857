/**
 * Whether a document matches a `$text` query, and its score (mongod's TEXT_OR then TEXT_MATCH):
 * the document has one of the query's positive terms among its index terms (the score is the sum
 * of those terms' scores); when the search is case or diacritic sensitive, one of its words
 * compares equal to a positive term that way too; it has no negated term; it contains every
 * positive phrase and no negated phrase (substrings, folded as the search asks).
 */
import type { Document } from '../../bson/library.js';
import type { TextSearch } from './search.js';
import { forEachIndexedString, scoreDocument, type IndexedString, type TextIndexSpec } from './text_index_spec.js';
import { foldText, terms, type FoldOptions } from './tokenizer.js';

/** The score of `doc` for `search`, or null when it does not match. */
export function textMatchScore(spec: TextIndexSpec, search: TextSearch, fold: FoldOptions, doc: Document): number | null {
  if (search.termsForBounds.size === 0) return null;
  const scores = scoreDocument(spec, doc);
  let score = 0;
  let found = false;
  // The terms in index order, as mongod's TEXT_OR adds up the scores of the keys it reads.
  for (const term of [...search.termsForBounds].sort()) {
    const s = scores.get(term);
    if (s !== undefined) {
      score += s;
      found = true;
    }
  }
  if (!found) return null;
  const strings: IndexedString[] = [];
  forEachIndexedString(spec, doc, (s) => strings.push(s));
  const sensitive = fold.caseSensitive || fold.diacriticSensitive;
  if (sensitive || search.negatedTerms.size > 0) {
    let positive = !sensitive;
    for (const { text, language } of strings) {
      for (const term of terms(text, language, fold)) {
        if (search.negatedTerms.has(term)) return null;
        if (search.positiveTerms.has(term)) positive = true;
      }
    }
    if (!positive) return null;
  }
  if (search.positivePhrases.length > 0 || search.negatedPhrases.length > 0) {
    const folded = strings.map((s) => foldText(s.text, fold));
    const contains = (phrase: string): boolean => {
      const needle = foldText(phrase, fold);
      return folded.some((text) => text.includes(needle));
    };
    for (const phrase of search.positivePhrases) if (!contains(phrase)) return null;
    for (const phrase of search.negatedPhrases) if (contains(phrase)) return null;
  }
  return score;
}
