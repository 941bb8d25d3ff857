/**
 * `$addToSet`, `$pop`, `$pull` and `$pullAll` (addtoset_node.cpp, pop_node.cpp,
 * pull_node.cpp, pullall_node.cpp, array_culling_node.cpp).
 *   - `$addToSet` appends values (or `$each` values) not already equal to an element;
 *   - `$pop` removes the first (-1) or last (1) element;
 *   - `$pull` removes elements equal to a value, or matching a condition: `{$gt: 1}` is tested
 *     against each element, `{a: 1}` (a query) against each embedded document;
 *   - `$pullAll` removes elements equal to any of a list.
 * Every comparison (the dedupe of `$addToSet`'s values too, the first of equal ones kept) and
 * every condition is under the update's collation.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { cloneValue } from '../../values/clone.js';
import { valuesEqual } from '../../values/compare.js';
import { collationKeyString } from '../../values/key_string.js';
import { isDocument } from '../../values/paths.js';
import { compileFilter } from '../../query/compile_filter.js';
import { parseIntegerToLong } from '../../values/numeric.js';
import { formatValue } from '../../values/format.js';
import { fieldName } from './id_text.js';
import { NOOP, type ModifierParser } from './types.js';

/** `$addToSet`. */
export const parseAddToSet: ModifierParser = (_field, arg, collator) => {
  let values: unknown[] = [arg];
  if (isDocument(arg)) {
    const keys = Object.keys(arg);
    if (keys[0] === '$each') {
      const each = arg.$each;
      if (!Array.isArray(each)) {
        throw new CommandError(
          'TypeMismatch',
          `The argument to $each in $addToSet must be an array but it was of type ${bsonTypeOf(each)}`,
        );
      }
      if (keys.length > 1) {
        throw new CommandError('BadValue', `Found unexpected fields after $each in $addToSet: ${formatValue(arg)}`);
      }
      values = each;
    }
  }
  const seen = new Set<string>();
  const unique = values.filter((v) => {
    const k = collationKeyString(v, collator);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return {
    op: '$addToSet',
    allowCreation: true,
    updateExisting(current, mc) {
      if (!Array.isArray(current)) {
        throw new CommandError(
          'BadValue',
          `Cannot apply $addToSet to non-array field. Field named '${fieldName(mc.pathTaken)}' has non-array type ${bsonTypeOf(current)}`,
        );
      }
      const toAdd = unique.filter((v) => !current.some((el) => valuesEqual(el, v, collator)));
      if (toAdd.length === 0) return NOOP;
      return [...current, ...toAdd.map(cloneValue)];
    },
    createValue: () => unique.map(cloneValue),
  };
};

/** `$pop`. */
export const parsePop: ModifierParser = (field, arg) => {
  const r = parseIntegerToLong(field, arg);
  if (!r.ok) throw new CommandError('FailedToParse', r.reason);
  if (r.value !== 1n && r.value !== -1n) {
    throw new CommandError('FailedToParse', `$pop expects 1 or -1, found: ${r.value}`);
  }
  const fromFront = r.value === -1n;
  return {
    op: '$pop',
    allowCreation: false,
    updateExisting(current, mc) {
      if (!Array.isArray(current)) {
        throw new CommandError(
          'TypeMismatch',
          `Path '${mc.pathTaken.join('.')}' contains an element of non-array type '${bsonTypeOf(current)}'`,
        );
      }
      if (current.length === 0) return NOOP;
      return fromFront ? current.slice(1) : current.slice(0, -1);
    },
    createValue: () => null,
  };
};

/** Field names the query parser accepts after a path (`parsePathAcceptingKeyword`). */
const PATH_ACCEPTING_KEYWORDS = new Set([
  '$eq', '$lt', '$lte', '$gte', '$gt', '$in', '$ne', '$size', '$all', '$nin', '$exists', '$mod',
  '$type', '$regex', '$options', '$elemMatch', '$near', '$nearSphere', '$geoWithin', '$within',
  '$geoIntersects', '$not', '$bitsAllSet', '$bitsAllClear', '$bitsAnySet', '$bitsAnyClear',
]);

const WRAP = '__mayfly_pull';

function cullingModifier(op: '$pull' | '$pullAll', matches: (el: unknown) => boolean): ReturnType<ModifierParser> {
  return {
    op,
    allowCreation: false,
    updateExisting(current) {
      if (!Array.isArray(current)) throw new CommandError('BadValue', 'Cannot apply $pull to a non-array value');
      const kept = current.filter((el) => !matches(el));
      return kept.length === current.length ? NOOP : kept;
    },
    createValue: () => null,
  };
}

/** `$pull`. */
export const parsePull: ModifierParser = (_field, arg, collator) => {
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

/** `$pullAll`. */
export const parsePullAll: ModifierParser = (_field, arg, collator) => {
  if (!Array.isArray(arg)) {
    throw new CommandError('BadValue', `$pullAll requires an array argument but was given a ${bsonTypeOf(arg)}`);
  }
  return cullingModifier('$pullAll', (el) => arg.some((v) => valuesEqual(el, v, collator)));
};
