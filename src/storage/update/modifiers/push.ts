/**
 * `$push` (push_node.cpp): appends one value, or with `$each` several, optionally at
 * `$position`, then sorts (`$sort`: 1/-1 on whole elements or `{field: 1/-1}` on embedded
 * fields, missing as null) and trims (`$slice`: from the front when positive, the back when
 * negative). A missing field becomes the resulting array; a non-array field is an error.
 * `$sort` compares strings under the update's collation (push_sorter.h).
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isNumber, toDouble, parseIntegerToLong } from '../../values/numeric.js';
import { cloneValue } from '../../values/clone.js';
import { compareValues } from '../../values/compare.js';
import type { Collator } from '../../values/collator.js';
import { getField, isDocument } from '../../values/paths.js';
import { idText } from './_internal/id_text.js';
import { NOOP, type ModifierDefinition, type ModifierParser } from './types.js';

const CLAUSES = new Set(['$each', '$slice', '$sort', '$position']);

type ElementComparator = (a: unknown, b: unknown) => number;

function checkSortPattern(pattern: Document): void {
  const keys = Object.keys(pattern);
  if (keys.length === 0) throw new CommandError('BadValue', 'The $sort pattern is empty when it should be a set of fields.');
  for (const key of keys) {
    const v = pattern[key];
    const order = isNumber(v) ? toDouble(v) : 0;
    if (order !== 1 && order !== -1) throw new CommandError('BadValue', 'The $sort element value must be either 1 or -1');
    if (key.length === 0) throw new CommandError('BadValue', 'The $sort field cannot be empty');
    if (key.split('.').some((p) => p.length === 0)) {
      throw new CommandError('BadValue', `The $sort field is a dotted field but has an empty part: ${key}`);
    }
  }
}

function patternComparator(pattern: Document, collator: Collator | null): ElementComparator {
  const keys = Object.keys(pattern).map((k) => ({ path: k, dir: toDouble(pattern[k]) }));
  const keyOf = (el: unknown, path: string): unknown => {
    if (!isDocument(el)) return null;
    const v = getField(el, path);
    return v === undefined && !hasPath(el, path) ? null : v;
  };
  return (a, b) => {
    for (const { path, dir } of keys) {
      const c = compareValues(keyOf(a, path), keyOf(b, path), collator);
      if (c !== 0) return dir < 0 ? -c : c;
    }
    return 0;
  };
}

function hasPath(doc: Document, path: string): boolean {
  const parts = path.split('.');
  let cur: unknown = doc;
  for (const p of parts) {
    if (isDocument(cur)) {
      if (!Object.prototype.hasOwnProperty.call(cur, p)) return false;
      cur = cur[p];
    } else if (Array.isArray(cur) && /^[0-9]+$/.test(p)) {
      if (Number(p) >= cur.length) return false;
      cur = cur[Number(p)];
    } else {
      return false;
    }
  }
  return true;
}

const parsePush: ModifierParser = (_field, arg, collator) => {
  let values: unknown[];
  let slice: bigint | null = null;
  let position: bigint | null = null;
  let sort: ElementComparator | null = null;
  if (isDocument(arg) && Object.prototype.hasOwnProperty.call(arg, '$each')) {
    for (const key of Object.keys(arg)) {
      if (!CLAUSES.has(key)) throw new CommandError('BadValue', `Unrecognized clause in $push: ${key}`);
    }
    const each = arg.$each;
    if (!Array.isArray(each)) {
      throw new CommandError(
        'BadValue',
        `The argument to $each in $push must be an array but it was of type: ${bsonTypeOf(each)}`,
      );
    }
    values = each;
    if ('$slice' in arg) {
      const r = parseIntegerToLong('$slice', arg.$slice);
      if (!r.ok) {
        throw new CommandError(
          'BadValue',
          `The value for $slice must be an integer value but was given type: ${bsonTypeOf(arg.$slice)}`,
        );
      }
      slice = r.value;
    }
    if ('$sort' in arg) {
      const s = arg.$sort;
      if (isDocument(s)) {
        checkSortPattern(s);
        sort = patternComparator(s, collator);
      } else if (isNumber(s)) {
        const order = toDouble(s);
        if (order !== 1 && order !== -1) throw new CommandError('BadValue', 'The $sort element value must be either 1 or -1');
        if (collator === null) sort = order === 1 ? compareValues : (a, b) => -compareValues(a, b);
        else sort = order === 1 ? (a, b) => compareValues(a, b, collator) : (a, b) => -compareValues(a, b, collator);
      } else {
        throw new CommandError(
          'BadValue',
          'The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields',
        );
      }
    }
    if ('$position' in arg) {
      const r = parseIntegerToLong('$position', arg.$position);
      if (!r.ok) {
        throw new CommandError(
          'BadValue',
          `The value for $position must be an integer value, not of type: ${bsonTypeOf(arg.$position)}`,
        );
      }
      position = r.value;
    }
  } else {
    values = [arg];
  }

  const push = (array: unknown[]): { out: unknown[]; changed: boolean } => {
    const toPush = values.map(cloneValue);
    let out = array.slice();
    let changed = false;
    if (toPush.length > 0) {
      changed = true;
      const size = BigInt(out.length);
      const pos = position ?? size;
      let at: number;
      if (out.length === 0 || pos > size) at = out.length;
      else if (pos > 0n) at = Number(pos);
      else if (pos < 0n && -pos < size) at = Number(size + pos);
      else at = 0;
      out.splice(at, 0, ...toPush);
    }
    if (sort !== null) {
      changed = true;
      out.sort(sort);
    }
    if (slice !== null) {
      const abs = slice < 0n ? -slice : slice;
      if (BigInt(out.length) > abs) {
        changed = true;
        out = slice >= 0n ? out.slice(0, Number(abs)) : out.slice(out.length - Number(abs));
      }
    }
    return { out, changed };
  };

  return {
    op: '$push',
    allowCreation: true,
    updateExisting(current, mc) {
      if (!Array.isArray(current)) {
        throw new CommandError(
          'BadValue',
          `The field '${mc.pathTaken.join('.')}' must be an array but is of type ${bsonTypeOf(current)} in document {${idText(mc.doc)}}`,
        );
      }
      const { out, changed } = push(current);
      return changed ? out : NOOP;
    },
    createValue: () => push([]).out,
  };
};

/** `$push`. */
export const push: ModifierDefinition = { name: '$push', kind: 'modifier', parse: parsePush };
