/**
 * Index key patterns: the fields, their directions and the index kind (`IndexNames::findPluginName`
 * in mongod): a B-tree for numeric directions, or a special kind named by a string value
 * (`hashed`, `text`, `2dsphere`, `2d`, wildcard `$**`).
 */
import type { Document } from '../../bson/library.js';
import { isNumber, toDouble } from '../values/numeric.js';
import { valuesEqual } from '../values/compare.js';

/** Kinds of index mongod knows, as `findPluginName` names them ('' is a B-tree). */
export const IndexKinds = {
  btree: '',
  hashed: 'hashed',
  text: 'text',
  geo2dsphere: '2dsphere',
  geo2d: '2d',
  wildcard: 'wildcard',
} as const;
/** One of `IndexKinds`. */
export type IndexKind = (typeof IndexKinds)[keyof typeof IndexKinds];

/** A parsed key pattern. */
export interface KeyPattern {
  readonly fields: readonly string[];
  /** 1 or -1 per field (special fields count as 1). */
  readonly directions: readonly (1 | -1)[];
  readonly kind: IndexKind;
}

/** The plugin name of a key pattern (the first string value; `$**` makes a wildcard index). */
export function pluginName(key: Document): IndexKind {
  for (const [field, value] of Object.entries(key)) {
    if (typeof value === 'string') {
      if (value === 'hashed' || value === 'text' || value === '2dsphere' || value === '2d') return value;
      return value as IndexKind;
    }
    if (field === '$**' || field.endsWith('.$**')) return IndexKinds.wildcard;
  }
  return IndexKinds.btree;
}

/** Parses a (validated) key pattern. */
export function parseKeyPattern(key: Document): KeyPattern {
  const fields = Object.keys(key);
  const directions = fields.map((f) => {
    const v = key[f];
    return isNumber(v) && toDouble(v) < 0 ? -1 : 1;
  }) as (1 | -1)[];
  return { fields, directions, kind: pluginName(key) };
}

/** mongod's default index name for a key pattern (`a_1_b_-1`). */
export function defaultIndexName(key: Document): string {
  return Object.entries(key)
    .map(([f, v]) => `${f}_${typeof v === 'string' ? v : String(isNumber(v) ? toDouble(v) : v)}`)
    .join('_');
}

/** Key patterns with the same fields in the same order and numerically equal values. */
export function keyPatternsEqual(a: Document, b: Document): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && valuesEqual(a[k], b[k]));
}
