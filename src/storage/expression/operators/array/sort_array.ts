/**
 * `$sortArray` (ExpressionSortArray): the array sorted by mongod's BSON order, strings under the
 * command's collation. `sortBy: 1` or `-1` compares whole values; a sort document compares the
 * named fields in turn (a dotted path reads nested documents, not arrays; a missing field is
 * null, as is any field of a non-document), each ascending (1) or descending (-1). Equal
 * elements keep their order. Null for a null or missing input, 2942504 for another non-array.
 * The codes of a bad `sortBy` (2942505-2942507) are mongod's; the texts of 2942505 and 2942507
 * are Mayfly's (not yet checked against mongod 8.2's wording).
 */
import type { Document } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { compareValues } from '../../../values/compare.js';
import type { Collator } from '../../../values/collator.js';
import { numKind, toDouble } from '../../../values/numeric.js';
import { isDocument } from '../../../values/paths.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** One field of a sort document: its path and direction (1 or -1). */
interface SortKey {
  readonly path: readonly string[];
  readonly direction: number;
}

/** 1 or -1 when `v` is a number equal to one of them, else 0. */
function directionOf(v: unknown): number {
  if (numKind(v) === null) return 0;
  const d = toDouble(v);
  return d === 1 || d === -1 ? d : 0;
}

/** The value at `path` in `v` (documents only), null when absent. */
function keyOf(v: unknown, path: readonly string[]): unknown {
  let cur = v;
  for (const part of path) {
    if (!isDocument(cur) || !Object.prototype.hasOwnProperty.call(cur, part)) return null;
    cur = (cur as Document)[part];
  }
  return cur;
}

/** A comparison of two elements under a collation. */
type Comparison = (a: unknown, b: unknown, collator: Collator | null) => number;

/** The comparison a `sortBy` describes (checked when parsed). */
function comparisonOf(sortBy: unknown): Comparison {
  if (numKind(sortBy) !== null) {
    const direction = directionOf(sortBy);
    if (direction === 0) throw new CommandError(2942506, 'The $sort element value must be either 1 or -1');
    return (a, b, collator) => direction * compareValues(a, b, collator);
  }
  if (typeName(sortBy) !== 'object') {
    throw new CommandError(2942507, `$sortArray requires sortBy to be either an object or a number, found: ${typeName(sortBy)}`);
  }
  const spec = sortBy as Document;
  const keys: SortKey[] = [];
  for (const field of Object.keys(spec)) {
    const direction = directionOf(spec[field]);
    if (direction === 0) throw new CommandError(2942505, '$sortArray sort pattern values must be either 1 or -1');
    keys.push({ path: field.split('.'), direction });
  }
  if (keys.length === 0) throw new CommandError(2942505, '$sortArray sort pattern must not be empty');
  return (a, b, collator) => {
    for (const key of keys) {
      const c = compareValues(keyOf(a, key.path), keyOf(b, key.path), collator);
      if (c !== 0) return key.direction * c;
    }
    return 0;
  };
}

/** `{$sortArray: {input: <array>, sortBy: 1 | -1 | <sort document>}}`. */
export const sortArray: ExpressionOperator = {
  name: '$sortArray',
  parse(arg, scope) {
    if (!isDocument(arg)) throw new CommandError(2942500, `$sortArray requires an object as an argument, found: ${typeName(arg)}`);
    let inputRaw: unknown;
    let hasInput = false;
    let sortBy: unknown;
    let hasSortBy = false;
    for (const key of Object.keys(arg)) {
      if (key === 'input') {
        inputRaw = arg[key];
        hasInput = true;
      } else if (key === 'sortBy') {
        sortBy = arg[key];
        hasSortBy = true;
      } else throw new CommandError(2942501, `$sortArray found an unknown argument: ${key}`);
    }
    if (!hasInput) throw new CommandError(2942502, "$sortArray requires 'input' to be specified");
    if (!hasSortBy) throw new CommandError(2942503, "$sortArray requires 'sortBy' to be specified");
    const input = scope.parse(inputRaw);
    const compare = comparisonOf(sortBy);
    // The comparator handed to sort, made once per collator (one per command), not per document.
    let comparatorCollator: Collator | null = null;
    let comparator = (a: unknown, b: unknown): number => compare(a, b, null);
    return (frame) => {
      const v = input(frame);
      if (isNullish(v)) return null;
      if (!Array.isArray(v)) {
        throw new CommandError(2942504, `The input argument to $sortArray must be an array, but was of type: ${typeName(v)}`);
      }
      if (v.length < 2) return v;
      const collator = frame.runtime.collator;
      if (collator !== comparatorCollator) {
        comparatorCollator = collator;
        comparator = (a, b) => compare(a, b, collator);
      }
      return v.slice().sort(comparator);
    };
  },
};
