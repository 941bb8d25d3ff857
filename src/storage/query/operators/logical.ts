/**
 * Logical operators: $and, $or, $nor (top level, over whole filters) and $not (field level,
 * over an operator document or a regex).
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { isDocument } from '../../values/paths.js';
import { allOf, anyOf } from '../path_predicate.js';
import { not, type Clause, type ParseLevel, type Predicate } from '../types.js';
import type { SubParser } from './array.js';
import { isRegexValue } from './comparison.js';
import { parseRegexValue } from './evaluation.js';

/** The tree operators. */
export type TreeOp = '$and' | '$or' | '$nor';

/** `{$and|$or|$nor: [filter, ...]}`. */
export function parseTree(op: TreeOp, rhs: unknown, level: ParseLevel, parser: SubParser): Predicate {
  if (!Array.isArray(rhs)) throw new CommandError('BadValue', `${op} argument must be an array`);
  if (rhs.length === 0) throw new CommandError('BadValue', `${op} argument must be a non-empty array`);
  const children: Predicate[] = [];
  for (const e of rhs) {
    if (!isDocument(e)) throw new CommandError('BadValue', `${op} argument's entries must be objects`);
    children.push(parser.parseDocument(e as Document, level));
  }
  switch (op) {
    case '$and':
      return allOf(children);
    case '$or':
      return anyOf(children);
    default: {
      const any = anyOf(children);
      return (doc) => !any(doc);
    }
  }
}

/** `{path: {$not: {...} | /re/}}`. */
export function parseNot(name: string | null, rhs: unknown, level: ParseLevel, parser: SubParser): Clause {
  if (isRegexValue(rhs)) return not(parseRegexValue(rhs));
  if (!isDocument(rhs)) throw new CommandError('BadValue', '$not argument must be a regex or an object');
  let empty = true;
  for (const _ in rhs) {
    empty = false;
    break;
  }
  if (empty) throw new CommandError('BadValue', '$not argument must be a non-empty object');
  return not(parser.parseSub(name, rhs as Document, level));
}
