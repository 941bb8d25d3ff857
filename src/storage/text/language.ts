/**
 * The languages of text search (mongod's `FTSLanguage` for textIndexVersion 3): each by its name
 * and its ISO 639-1 code, with its stemmer and stop words. English has the Snowball English
 * stemmer and its stop words; "none" (and the other languages, for now) neither stems nor drops
 * stop words. A name not in the table is refused (`unsupportedLanguage`).
 */
import { CommandError } from '../../errors/command_error.js';
import { stemEnglish } from './porter2.js';
import { ENGLISH_STOP_WORDS } from './stop_words.js';

/** One text-search language. */
export interface TextLanguage {
  /** The canonical name ("english", "none"). */
  readonly name: string;
  /** The stem of a word (as given: lower case unless the search is case sensitive). */
  readonly stem: (word: string) => string;
  /** True for a stop word (given in lower case). */
  readonly isStopWord: (lowerWord: string) => boolean;
  /** The apostrophe joins the letters around it into one word (English). */
  readonly apostropheInWords: boolean;
}

const NO_STOP_WORDS = (): boolean => false;
const NO_STEM = (word: string): string => word;

function plain(name: string): TextLanguage {
  return { name, stem: NO_STEM, isStopWord: NO_STOP_WORDS, apostropheInWords: false };
}

const ENGLISH: TextLanguage = {
  name: 'english',
  stem: stemEnglish,
  isStopWord: (w) => ENGLISH_STOP_WORDS.has(w),
  apostropheInWords: true,
};

/** Every language mongod 8.2 knows for text search, by name and by code (lower case). */
const LANGUAGES: ReadonlyMap<string, TextLanguage> = (() => {
  const table = new Map<string, TextLanguage>();
  const add = (language: TextLanguage, ...names: string[]): void => {
    for (const n of names) table.set(n, language);
  };
  add(ENGLISH, 'english', 'en');
  add(plain('none'), 'none');
  const others: readonly (readonly [string, string])[] = [
    ['danish', 'da'],
    ['dutch', 'nl'],
    ['finnish', 'fi'],
    ['french', 'fr'],
    ['german', 'de'],
    ['hungarian', 'hu'],
    ['italian', 'it'],
    ['norwegian', 'nb'],
    ['portuguese', 'pt'],
    ['romanian', 'ro'],
    ['russian', 'ru'],
    ['spanish', 'es'],
    ['swedish', 'sv'],
    ['turkish', 'tr'],
  ];
  for (const [name, code] of others) add(plain(name), name, code);
  return table;
})();

/** The language named `name` (case-insensitive), or null when mongod does not know it. */
export function findLanguage(name: string): TextLanguage | null {
  return LANGUAGES.get(name.toLowerCase()) ?? null;
}

/** The language named `name`, or mongod's BadValue for one it does not know. */
export function textLanguage(name: string): TextLanguage {
  const language = findLanguage(name);
  if (language === null) throw unsupportedLanguage(name);
  return language;
}

/** mongod's error for a language text search does not support. */
export function unsupportedLanguage(name: string): CommandError {
  return new CommandError('BadValue', `unsupported language: "${name}" for text index version 3`);
}
