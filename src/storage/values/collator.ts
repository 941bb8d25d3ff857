/**
 * String comparison under a MongoDB collation, on Node's ICU (`Intl.Collator`, full ICU in
 * Node 20). A collation spec (already validated and spelled out, `../indexes/collation.ts`) is
 * compiled once into a comparison function; collators of the same spec share it.
 *
 * mongod's options map onto ICU as follows:
 *
 * - `locale`: mongod's spelling (`en_US`, `zh_Hant`, `en_US_POSIX`, `de@collation=phonebook`)
 *   turned into a BCP 47 tag (`en-US`, `zh-Hant`, `en-US-u-va-posix`, `de-u-co-phonebk`);
 * - `strength` 1/2/3 are ICU's primary (base letters), secondary (+ accents) and tertiary
 *   (+ case and variants) levels; 4 adds, with `alternate: 'shifted'`, the punctuation the
 *   shifted levels ignored; 5 (identical) breaks the remaining ties on the code points of the NFD
 *   forms, as ICU's identical level does;
 * - `caseLevel`: ICU's case level between the secondary and tertiary levels;
 * - `caseFirst`, `numericOrdering`, `alternate: 'shifted'` (`maxVariable: 'punct'`) are
 *   Intl's `caseFirst`, `numeric` and `ignorePunctuation`; `maxVariable: 'space'` ignores only
 *   white space;
 * - `backwards`: French secondary order (accents compared from the end of the string). ICU's
 *   `fr-CA` data has it; elsewhere it is emulated by comparing the secondary level of the
 *   strings with their base+accent clusters reversed, which agrees with ICU wherever the
 *   strings' base letters map one to one onto primary weights (contractions may differ).
 *
 * Intl does not expose ICU's attributes directly, so levels that Intl cannot combine
 * (`caseLevel` with strength 2 or 3, quaternary) are compared one after the other, which is
 * ICU's own level order. Every comparison is a total preorder, so equal-under-collation is an
 * equivalence: `key` maps each string to the first string seen of its class.
 */
import type { Document } from '../../bson/library.js';
import { BTree } from './btree.js';

/** Compares two strings: -1, 0 or 1. */
export type StringComparator = (a: string, b: string) => number;

const COMPARATORS = new Map<string, StringComparator>();

/** A collation compiled for comparisons (one per command, index or collection default). */
export class Collator {
  /** The spelled-out spec (as listIndexes and listCollections show it). */
  readonly spec: Document;
  /** Compares two strings under the collation: -1, 0 or 1. */
  readonly compare: StringComparator;
  private keys: Map<string, string> | null = null;
  private classes: BTree<string, true> | null = null;

  /** A collator for a spelled-out spec (`normaliseCollation`'s output). */
  constructor(spec: Document) {
    this.spec = spec;
    const id = JSON.stringify(spec);
    let compare = COMPARATORS.get(id);
    if (compare === undefined) {
      compare = compileComparator(spec);
      COMPARATORS.set(id, compare);
    }
    this.compare = compare;
  }

  /** True when the two strings are equal under the collation. */
  equals(a: string, b: string): boolean {
    return a === b || this.compare(a, b) === 0;
  }

  /**
   * A canonical key of `s`: the same for every string equal to it under the collation (the
   * first such string this collator was asked about), distinct otherwise. For hashing (distinct,
   * `$group` keys, `$addToSet`); it remembers what it saw, so use one collator per command.
   */
  key(s: string): string {
    let keys = this.keys;
    if (keys === null) {
      keys = this.keys = new Map();
      const compare = this.compare;
      this.classes = new BTree<string, true>((a, _x, b) => compare(a, b));
    }
    const known = keys.get(s);
    if (known !== undefined) return known;
    const compare = this.compare;
    const classes = this.classes!;
    let { leaf, index } = classes.seek((k) => compare(k, s) >= 0);
    if (index >= leaf.keys.length && leaf.next) {
      leaf = leaf.next;
      index = 0;
    }
    let rep = s;
    if (index < leaf.keys.length && compare(leaf.keys[index]!, s) === 0) rep = leaf.keys[index]!;
    else classes.insert(s, true);
    keys.set(s, rep);
    return rep;
  }
}

/** mongod's locale spelling (`en_US`, `de@collation=phonebook`) as a BCP 47 tag. */
export function localeTag(locale: string): string {
  const at = locale.indexOf('@');
  const base = at < 0 ? locale : locale.slice(0, at);
  const keywords = at < 0 ? '' : locale.slice(at + 1);
  const parts = base.split('_');
  let posix = false;
  const subtags: string[] = [];
  for (const part of parts) {
    if (part.toUpperCase() === 'POSIX') posix = true;
    else subtags.push(part);
  }
  const extension: string[] = [];
  for (const keyword of keywords.split(';')) {
    const [name, value] = keyword.split('=');
    if (name === 'collation' && value) extension.push('co', COLLATION_TYPES[value] ?? value);
  }
  if (posix) extension.push('va', 'posix');
  return extension.length > 0 ? `${subtags.join('-')}-u-${extension.join('-')}` : subtags.join('-');
}

/** ICU's `@collation=` keyword values → their BCP 47 `co` types. */
const COLLATION_TYPES: Readonly<Record<string, string>> = {
  phonebook: 'phonebk',
  traditional: 'trad',
  dictionary: 'dict',
  gb2312han: 'gb2312',
};

/** The ICU defaults of a locale that listings spell out. */
export interface LocaleDefaults {
  readonly caseFirst: 'upper' | 'lower' | 'off';
  readonly alternate: 'shifted' | 'non-ignorable';
}

const DEFAULTS = new Map<string, LocaleDefaults>();

/** The ICU defaults of `locale` (caseFirst, alternate), e.g. Danish upper case first. */
export function localeDefaults(locale: string): LocaleDefaults {
  let defaults = DEFAULTS.get(locale);
  if (defaults === undefined) {
    const r = intlCollator(localeTag(locale), {}).resolvedOptions();
    defaults = {
      caseFirst: r.caseFirst === 'upper' || r.caseFirst === 'lower' ? r.caseFirst : 'off',
      alternate: r.ignorePunctuation ? 'shifted' : 'non-ignorable',
    };
    DEFAULTS.set(locale, defaults);
  }
  return defaults;
}

function intlCollator(tag: string, options: Intl.CollatorOptions): Intl.Collator {
  try {
    return new Intl.Collator(tag, options);
  } catch {
    // A tag Intl refuses (mongod validated the locale already): its language alone.
    return new Intl.Collator(tag.split('-')[0], options);
  }
}

const WHITE_SPACE = /\p{White_Space}+/gu;

/** The base+combining-mark clusters of the NFD form of `s`, in reverse order. */
function reversedClusters(s: string): string {
  const clusters = s.normalize('NFD').match(/\P{M}\p{M}*|\p{M}+/gu);
  return clusters === null ? '' : clusters.reverse().join('');
}

/** Code point order of the NFD forms (ICU's identical level). */
function compareCodePoints(a: string, b: string): number {
  const x = a.normalize('NFD');
  const y = b.normalize('NFD');
  if (x === y) return 0;
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    let ca = x.charCodeAt(i);
    let cb = y.charCodeAt(i);
    if (ca !== cb) {
      if (ca >= 0xd800 && cb >= 0xd800) {
        ca = ca >= 0xe000 ? ca - 0x800 : ca + 0x2000;
        cb = cb >= 0xe000 ? cb - 0x800 : cb + 0x2000;
      }
      return ca < cb ? -1 : 1;
    }
  }
  return x.length < y.length ? -1 : x.length > y.length ? 1 : 0;
}

/** Compiles a spelled-out collation spec into a string comparison. */
function compileComparator(spec: Document): StringComparator {
  const locale = String(spec.locale);
  const tag = localeTag(locale);
  const strength = typeof spec.strength === 'number' ? spec.strength : 3;
  const caseLevel = spec.caseLevel === true;
  const shifted = spec.alternate === 'shifted';
  const spaceOnly = shifted && spec.maxVariable === 'space';
  const backwards = spec.backwards === true;
  // fr-CA's data differs from fr only by backwards secondary order.
  const icuBackwards = tag === 'fr-CA';
  const useTag = icuBackwards && !backwards ? 'fr' : tag;
  const emulateBackwards = backwards && !icuBackwards;
  const base: Intl.CollatorOptions = {
    usage: 'sort',
    numeric: spec.numericOrdering === true,
    caseFirst: spec.caseFirst === 'upper' || spec.caseFirst === 'lower' ? spec.caseFirst : 'false',
    ignorePunctuation: shifted && !spaceOnly,
  };
  const level = (sensitivity: 'base' | 'accent' | 'case' | 'variant', options: Intl.CollatorOptions = {}): StringComparator =>
    intlCollator(useTag, { ...base, sensitivity, ...options }).compare;

  const levels: StringComparator[] = [];
  if (strength === 1) {
    levels.push(level(caseLevel ? 'case' : 'base'));
  } else {
    if (emulateBackwards) {
      const accent = level('accent');
      levels.push(level('base'), (a, b) => accent(reversedClusters(a), reversedClusters(b)));
    } else if (strength === 2 || caseLevel) {
      levels.push(level('accent'));
    }
    if (caseLevel) levels.push(level('case'));
    if (strength >= 3) levels.push(level('variant'));
  }
  let compare = chain(levels);
  if (spaceOnly) {
    const inner = compare;
    compare = (a, b) => inner(a.replace(WHITE_SPACE, ''), b.replace(WHITE_SPACE, ''));
  }
  const tieBreaks: StringComparator[] = [compare];
  if (strength >= 4 && shifted) tieBreaks.push(level('variant', { ignorePunctuation: false }));
  if (strength === 5) tieBreaks.push(compareCodePoints);
  const all = chain(tieBreaks);
  return (a, b) => (a === b ? 0 : all(a, b));
}

/** The comparisons one after the other (the first non-zero result), normalised to -1/0/1. */
function chain(levels: StringComparator[]): StringComparator {
  if (levels.length === 1) {
    const only = levels[0]!;
    return (a, b) => {
      const c = only(a, b);
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    };
  }
  return (a, b) => {
    for (let i = 0; i < levels.length; i++) {
      const c = levels[i]!(a, b);
      if (c !== 0) return c < 0 ? -1 : 1;
    }
    return 0;
  };
}
