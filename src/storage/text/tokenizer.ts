/**
 * Splitting text into words, as mongod's text index version 3 tokenizer does: a word is a run of
 * letters, digits and combining marks (and, in English, apostrophes); everything else delimits.
 * Words are folded to lower case and stripped of diacritics unless the search asks otherwise.
 */
import type { TextLanguage } from './language.js';

/** How a search compares words. */
export interface FoldOptions {
  readonly caseSensitive: boolean;
  readonly diacriticSensitive: boolean;
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const WORD_WITH_APOSTROPHE = /[\p{L}\p{N}\p{M}']+/gu;
const MARKS = /\p{M}/gu;

/** `text` without its diacritics (canonical decomposition, combining marks dropped). */
export function removeDiacritics(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').normalize('NFC');
}

/** `text` folded as `options` ask: lower case unless case sensitive, diacritics dropped unless diacritic sensitive. */
export function foldText(text: string, options: FoldOptions): string {
  let out = options.caseSensitive ? text : text.toLowerCase();
  if (!options.diacriticSensitive) out = removeDiacritics(out);
  return out;
}

/** The raw words of `text` in `language`, in order. */
export function words(text: string, language: TextLanguage): string[] {
  const found = text.match(language.apostropheInWords ? WORD_WITH_APOSTROPHE : WORD) ?? [];
  const out: string[] = [];
  for (const w of found) {
    // Apostrophes only join letters: leading and trailing ones delimit.
    const trimmed = language.apostropheInWords ? w.replace(/^'+|'+$/g, '') : w;
    if (trimmed.length > 0) out.push(trimmed);
  }
  return out;
}

/**
 * The terms of `text`: its words that are not stop words, folded and stemmed. `options` absent:
 * the index's form (lower case, no diacritics).
 */
export function terms(text: string, language: TextLanguage, options: FoldOptions = INDEX_FOLD): string[] {
  const out: string[] = [];
  for (const w of words(text, language)) {
    const lower = w.toLowerCase();
    if (language.isStopWord(lower)) continue;
    out.push(language.stem(foldText(w, options)));
  }
  return out;
}

/** The index's folding: case and diacritics ignored. */
export const INDEX_FOLD: FoldOptions = { caseSensitive: false, diacriticSensitive: false };
