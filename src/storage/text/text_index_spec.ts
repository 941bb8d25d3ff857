/**
 * A text index's specification as text search reads it (mongod's `FTSSpec`): the weighted fields
 * (or `$**`, every string), the default language and the field naming a document's own language,
 * the other key fields before and after the text part; and what it makes of a document: the
 * strings it indexes (`forEachIndexedString`) and each term's score (`scoreDocument`, mongod's
 * scoring: per string, a term's frequency with each repeat counting half the one before, times
 * `0.5 + 0.5 × count / words`, times the field's weight, plus a tenth when the string is the term).
 */
import type { Document } from '../../bson/library.js';
import { isDocument } from '../values/paths.js';
import { findLanguage, type TextLanguage } from './language.js';
import { terms } from './tokenizer.js';

/** What a text index keys on. */
export interface TextIndexSpec {
  /** The index's name. */
  readonly name: string;
  /** Weighted field paths ("$**": every string field). */
  readonly weights: ReadonlyMap<string, number>;
  readonly wildcardWeight: number | null;
  readonly defaultLanguage: TextLanguage;
  readonly languageOverride: string;
  /** Key fields before the text part (a `$text` query needs an equality on each). */
  readonly prefixFields: readonly string[];
}

/** The text-search view of a text index's stored spec (`spec`) and key pattern. */
export function textIndexSpec(spec: Document, keyPattern: Document, name: string): TextIndexSpec {
  const weights = new Map<string, number>();
  let wildcardWeight: number | null = null;
  const rawWeights = isDocument(spec.weights) ? spec.weights : {};
  for (const [path, w] of Object.entries(rawWeights)) {
    const weight = Number(typeof w === 'object' && w !== null ? (w as { valueOf(): unknown }).valueOf() : w);
    if (path === '$**') wildcardWeight = weight;
    else weights.set(path, weight);
  }
  const prefixFields: string[] = [];
  for (const field of Object.keys(keyPattern)) {
    if (field === '_fts') break;
    prefixFields.push(field);
  }
  return {
    name,
    weights,
    wildcardWeight,
    defaultLanguage: findLanguage(typeof spec.default_language === 'string' ? spec.default_language : 'english') ?? findLanguage('english')!,
    languageOverride: typeof spec.language_override === 'string' ? spec.language_override : 'language',
    prefixFields,
  };
}

/** One indexed string of a document: its text, the language it is in and its field's weight. */
export interface IndexedString {
  readonly text: string;
  readonly language: TextLanguage;
  readonly weight: number;
}

/**
 * Visits every string of `doc` the index keys on (`FTSElementIterator`): at weighted paths (any
 * path under `$**`), through arrays and embedded documents; a document's (or embedded
 * document's) language-override field, when a known language, sets the language below it.
 */
export function forEachIndexedString(spec: TextIndexSpec, doc: Document, visit: (s: IndexedString) => void): void {
  walk(spec, doc, '', languageOf(spec, doc, spec.defaultLanguage), visit);
}

function languageOf(spec: TextIndexSpec, doc: Document, inherited: TextLanguage): TextLanguage {
  const named = doc[spec.languageOverride];
  if (typeof named !== 'string') return inherited;
  return findLanguage(named) ?? inherited;
}

function weightOf(spec: TextIndexSpec, path: string): number | null {
  return spec.weights.get(path) ?? spec.wildcardWeight;
}

/** True when some weighted path lies below `path`. */
function leadsToWeighted(spec: TextIndexSpec, path: string): boolean {
  if (spec.wildcardWeight !== null) return true;
  const prefix = `${path}.`;
  for (const p of spec.weights.keys()) if (p.startsWith(prefix)) return true;
  return false;
}

function walk(spec: TextIndexSpec, doc: Document, prefix: string, language: TextLanguage, visit: (s: IndexedString) => void): void {
  for (const [name, value] of Object.entries(doc)) {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    visitValue(spec, value, path, language, visit, true);
  }
}

function visitValue(spec: TextIndexSpec, value: unknown, path: string, language: TextLanguage, visit: (s: IndexedString) => void, arraysAllowed: boolean): void {
  if (typeof value === 'string') {
    const weight = weightOf(spec, path);
    if (weight !== null) visit({ text: value, language, weight });
  } else if (Array.isArray(value)) {
    if (!arraysAllowed) return;
    for (const element of value) visitValue(spec, element, path, language, visit, false);
  } else if (isDocument(value) && leadsToWeighted(spec, path)) {
    walk(spec, value, path, languageOf(spec, value, language), visit);
  }
}

/** Each term of `doc` (index form) with its score. */
export function scoreDocument(spec: TextIndexSpec, doc: Document): Map<string, number> {
  const scores = new Map<string, number>();
  forEachIndexedString(spec, doc, ({ text, language, weight }) => scoreString(text, language, weight, scores));
  return scores;
}

/** Adds the scores of the terms of one string to `scores` (mongod's `_scoreStringV2`). */
function scoreString(text: string, language: TextLanguage, weight: number, scores: Map<string, number>): void {
  const found = terms(text, language);
  if (found.length === 0) return;
  const counts = new Map<string, { count: number; freq: number; exp: number }>();
  for (const term of found) {
    let data = counts.get(term);
    if (data === undefined) {
      data = { count: 0, freq: 0, exp: 0 };
      counts.set(term, data);
    }
    data.exp = data.exp === 0 ? 1 : data.exp * 2;
    data.count++;
    data.freq += 1 / data.exp;
  }
  for (const [term, data] of counts) {
    const coefficient = (0.5 * data.count) / found.length + 0.5;
    const adjustment = text.length === term.length && text.toLowerCase() === term ? 1.1 : 1;
    scores.set(term, (scores.get(term) ?? 0) + weight * data.freq * coefficient * adjustment);
  }
}
