/**
 * The Snowball English stemmer ("Porter2", https://snowballstem.org/algorithms/english/stemmer.html),
 * the stemmer mongod's text search uses for English (through libstemmer). Written from the
 * algorithm's public description: regions R1 and R2, steps 0 to 5, the exceptional words. Input
 * is one lower-case word; a word of two letters or fewer is its own stem.
 */

/** A consonant y, marked while the word is stemmed (a character no word holds). */
const Y_MARK = '\uE000';
const VOWELS = new Set(['a', 'e', 'i', 'o', 'u', 'y']);
const DOUBLES = new Set(['bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt']);
const LI_ENDINGS = new Set(['c', 'd', 'e', 'g', 'h', 'k', 'm', 'n', 'r', 't']);

/** Words stemmed to a fixed form (or left as they are) before any step. */
const EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  ['skis', 'ski'],
  ['skies', 'sky'],
  ['dying', 'die'],
  ['lying', 'lie'],
  ['tying', 'tie'],
  ['idly', 'idl'],
  ['gently', 'gentl'],
  ['ugly', 'ugli'],
  ['early', 'earli'],
  ['only', 'onli'],
  ['singly', 'singl'],
  ['sky', 'sky'],
  ['news', 'news'],
  ['howe', 'howe'],
  ['atlas', 'atlas'],
  ['cosmos', 'cosmos'],
  ['bias', 'bias'],
  ['andes', 'andes'],
]);

/** Words left as they are after step 1a. */
const AFTER_1A = new Set(['inning', 'outing', 'canning', 'herring', 'earring', 'proceed', 'exceed', 'succeed']);

const STEP2: readonly (readonly [string, string])[] = [
  ['ization', 'ize'],
  ['ational', 'ate'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['iveness', 'ive'],
  ['tional', 'tion'],
  ['biliti', 'ble'],
  ['lessli', 'less'],
  ['entli', 'ent'],
  ['ation', 'ate'],
  ['alism', 'al'],
  ['aliti', 'al'],
  ['ousli', 'ous'],
  ['iviti', 'ive'],
  ['fulli', 'ful'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['abli', 'able'],
  ['izer', 'ize'],
  ['ator', 'ate'],
  ['alli', 'al'],
  ['bli', 'ble'],
  ['ogi', 'og'],
  ['li', ''],
];

const STEP3: readonly (readonly [string, string])[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['alize', 'al'],
  ['icate', 'ic'],
  ['iciti', 'ic'],
  ['ative', ''],
  ['ical', 'ic'],
  ['ness', ''],
  ['ful', ''],
];

const STEP4 = ['ement', 'ance', 'ence', 'able', 'ible', 'ment', 'ant', 'ent', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize', 'ion', 'al', 'er', 'ic'];

function isVowel(c: string | undefined): boolean {
  return c !== undefined && VOWELS.has(c);
}

/** The start of the region after the first non-vowel following a vowel, from `from`. */
function regionAfter(w: string, from: number): number {
  for (let i = from + 1; i < w.length; i++) {
    if (!isVowel(w[i]) && isVowel(w[i - 1])) return i + 1;
  }
  return w.length;
}

/** True when `w` ends, at `end`, in a short syllable. */
function endsShortSyllable(w: string, end: number = w.length): boolean {
  if (end === 2) return isVowel(w[0]) && !isVowel(w[1]);
  if (end < 3) return false;
  const c = w[end - 1]!;
  return !isVowel(w[end - 3]) && isVowel(w[end - 2]) && !isVowel(c) && c !== 'w' && c !== 'x' && c !== Y_MARK;
}

/** The English stem of the lower-case word `word`. */
export function stemEnglish(word: string): string {
  if (word.length <= 2) return word;
  const fixed = EXCEPTIONS.get(word);
  if (fixed !== undefined) return fixed;
  let w = word.startsWith("'") ? word.slice(1) : word;
  // Mark consonant y's (initial, or after a vowel) as Y.
  let marked = '';
  for (let i = 0; i < w.length; i++) {
    const c = w[i]!;
    marked += c === 'y' && (i === 0 || isVowel(w[i - 1])) ? Y_MARK : c;
  }
  w = marked;
  let r1: number;
  if (w.startsWith('gener') || w.startsWith('arsen')) r1 = 5;
  else if (w.startsWith('commun')) r1 = 6;
  else r1 = regionAfter(w, 0);
  const r2 = regionAfter(w, r1);
  const inR1 = (suffix: string): boolean => w.length - suffix.length >= r1;
  const inR2 = (suffix: string): boolean => w.length - suffix.length >= r2;

  // Step 0: apostrophes.
  for (const s of ["'s'", "'s", "'"]) {
    if (w.endsWith(s)) {
      w = w.slice(0, -s.length);
      break;
    }
  }

  // Step 1a.
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ied') || w.endsWith('ies')) w = w.length > 4 ? w.slice(0, -2) : w.slice(0, -1);
  else if (w.endsWith('us') || w.endsWith('ss')) {
    // unchanged
  } else if (w.endsWith('s')) {
    let vowelBefore = false;
    for (let i = 0; i < w.length - 2; i++) if (isVowel(w[i])) vowelBefore = true;
    if (vowelBefore) w = w.slice(0, -1);
  }
  if (AFTER_1A.has(w)) return w;

  // Step 1b.
  const s1b = ['eedly', 'ingly', 'edly', 'eed', 'ing', 'ed'].find((s) => w.endsWith(s));
  if (s1b === 'eed' || s1b === 'eedly') {
    if (inR1(s1b)) w = w.slice(0, -s1b.length) + 'ee';
  } else if (s1b !== undefined) {
    const stem = w.slice(0, -s1b.length);
    if ([...stem].some((c) => isVowel(c))) {
      w = stem;
      if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
      else if (DOUBLES.has(w.slice(-2))) w = w.slice(0, -1);
      else if (r1 >= w.length && endsShortSyllable(w)) w += 'e';
    }
  }

  // Step 1c.
  if (w.length > 2 && (w.endsWith('y') || w.endsWith(Y_MARK)) && !isVowel(w[w.length - 2])) w = w.slice(0, -1) + 'i';

  // Step 2.
  const s2 = STEP2.find(([s]) => w.endsWith(s));
  if (s2 !== undefined && inR1(s2[0])) {
    const [s, r] = s2;
    if (s === 'ogi') {
      if (w[w.length - 4] === 'l') w = w.slice(0, -3) + r;
    } else if (s === 'li') {
      if (LI_ENDINGS.has(w[w.length - 3] ?? '')) w = w.slice(0, -2);
    } else {
      w = w.slice(0, -s.length) + r;
    }
  }

  // Step 3.
  const s3 = STEP3.find(([s]) => w.endsWith(s));
  if (s3 !== undefined && inR1(s3[0])) {
    const [s, r] = s3;
    if (s !== 'ative' || inR2(s)) w = w.slice(0, -s.length) + r;
  }

  // Step 4.
  const s4 = STEP4.find((s) => w.endsWith(s));
  if (s4 !== undefined && inR2(s4)) {
    if (s4 !== 'ion' || w[w.length - 4] === 's' || w[w.length - 4] === 't') w = w.slice(0, -s4.length);
  }

  // Step 5.
  if (w.endsWith('e')) {
    if (inR2('e') || (inR1('e') && !endsShortSyllable(w, w.length - 1))) w = w.slice(0, -1);
  } else if (w.endsWith('l') && inR2('l') && w[w.length - 2] === 'l') {
    w = w.slice(0, -1);
  }
  return w.replaceAll(Y_MARK, 'y');
}
