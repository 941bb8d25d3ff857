/**
 * `$pull` (pull_node.cpp): removes the elements equal to a value, or matching a condition:
 * `{$gt: 1}` is tested against each element, `{a: 1}` (a query) against each embedded document;
 * under the update's collation.
 */
import type { Document } from '../../../bson/library.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { valuesEqual } from '../../values/compare.js';
import { isDocument } from '../../values/paths.js';
import { compileFilter } from '../../query/compile_filter.js';
import { cullingModifier } from './_internal/culling.js';
import type { ModifierDefinition, ModifierParser } from './types.js';

/** Field names the query parser accepts after a path (`parsePathAcceptingKeyword`). */
const PATH_ACCEPTING_KEYWORDS = new Set([
  '$eq', '$lt', '$lte', '$gte', '$gt', '$in', '$ne', '$size', '$all', '$nin', '$exists', '$mod',
  '$type', '$regex', '$options', '$elemMatch', '$near', '$nearSphere', '$geoWithin', '$within',
  '$geoIntersects', '$not', '$bitsAllSet', '$bitsAllClear', '$bitsAnySet', '$bitsAnyClear',
]);

const WRAP = '__mayfly_pull';

const parsePull: ModifierParser = (_field, arg, collator) => {
  let matches: (el: unknown) => boolean;
  const isRegex = bsonTypeOf(arg) === 'regex';
  if (isDocument(arg) && !PATH_ACCEPTING_KEYWORDS.has(Object.keys(arg)[0] ?? '')) {
    const pred = compileFilter(arg, { collator });
    matches = (el) => isDocument(el) && pred(el);
  } else if (isDocument(arg) || isRegex) {
    const pred = compileFilter({ [WRAP]: arg }, { collator });
    matches = (el) => pred({ [WRAP]: el } as Document);
  } else {
    matches = (el) => valuesEqual(el, arg, collator);
  }
  return cullingModifier('$pull', matches);
};

/** `$pull`. */
export const pull: ModifierDefinition = { name: '$pull', kind: 'modifier', parse: parsePull };
