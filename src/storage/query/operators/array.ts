/**
 * Array operators: $all, $elemMatch (value and object forms) and $size. $elemMatch and $size
 * look at arrays only and do not expand a leaf array into its elements.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import type { Collator } from '../../values/collator.js';
import { isDocument } from '../../values/paths.js';
import { parseIntegerToNonNegativeInt } from '../../values/numeric.js';
import { clauseValueTest } from '../path_predicate.js';
import { and, constant, leaf, ParseLevel, type Clause, type Predicate } from '../types.js';
import { equalityTest, isExpressionDocument, isRegexValue } from './comparison.js';
import { parseRegexValue } from './evaluation.js';

/** The parts of the parser that array operators recurse into. */
export interface SubParser {
  /** Parses an operator document on `name` (null: the $elemMatch value case). */
  parseSub(name: string | null, sub: Document, level: ParseLevel): Clause;
  /** Parses a full filter document at `level`. */
  parseDocument(filter: Document, level: ParseLevel): Predicate;
  /** True when `$name` is a top-level (path-less) operator. */
  isPathlessOperator(name: string): boolean;
  /** True when `$name` is a known field operator. */
  isFieldOperator(name: string): boolean;
  /** The query's collation (null: simple). */
  readonly collator: Collator | null;
}

function firstKey(obj: Document): string | undefined {
  for (const k in obj) return k;
  return undefined;
}

/** `{path: {$size: n}}`. */
export function parseSize(rhs: unknown): Clause {
  const parsed = parseIntegerToNonNegativeInt('$size', rhs);
  if (!parsed.ok) throw new CommandError('BadValue', `Failed to parse $size. ${parsed.reason}`);
  const size = Number(parsed.value);
  return leaf((v) => Array.isArray(v) && v.length === size, false);
}

/** `{path: {$elemMatch: {...}}}`. */
export function parseElemMatch(name: string | null, rhs: unknown, parser: SubParser): Clause {
  if (!isDocument(rhs)) throw new CommandError('BadValue', '$elemMatch needs an Object');
  let valueCase = false;
  if (isExpressionDocument(rhs, true)) {
    const first = firstKey(rhs)!;
    valueCase = !parser.isPathlessOperator(first);
  }
  if (valueCase) {
    const test = clauseValueTest(parser.parseSub(name, rhs, ParseLevel.subDocument));
    return leaf((v) => {
      if (!Array.isArray(v)) return false;
      for (let i = 0; i < v.length; i++) if (test(v[i])) return true;
      return false;
    }, false);
  }
  const sub = parser.parseDocument(rhs, ParseLevel.subDocument);
  return leaf((v) => {
    if (!Array.isArray(v)) return false;
    for (let i = 0; i < v.length; i++) {
      const el = v[i];
      if ((isDocument(el) || Array.isArray(el)) && sub(el as Document)) return true;
    }
    return false;
  }, false);
}

/** `{path: {$all: [...]}}`. */
export function parseAll(name: string | null, rhs: unknown, parser: SubParser): Clause {
  if (!Array.isArray(rhs)) throw new CommandError('BadValue', '$all needs an array');
  const first = rhs[0];
  if (isDocument(first) && firstKey(first) === '$elemMatch') {
    const clauses: Clause[] = [];
    for (const e of rhs) {
      if (!isDocument(e) || firstKey(e) !== '$elemMatch') {
        throw new CommandError('BadValue', '$all/$elemMatch has to be consistent');
      }
      clauses.push(parseElemMatch(name, e.$elemMatch, parser));
    }
    return and(clauses);
  }
  const clauses: Clause[] = [];
  for (const e of rhs) {
    if (isRegexValue(e)) {
      clauses.push(parseRegexValue(e));
    } else if (isDocument(e) && parser.isFieldOperator(firstKey(e) ?? '')) {
      throw new CommandError('BadValue', 'no $ expressions in $all');
    } else {
      if (e === undefined) throw new CommandError('BadValue', 'cannot compare to undefined');
      clauses.push(leaf(equalityTest(e, parser.collator)));
    }
  }
  if (clauses.length === 0) return constant(false);
  return and(clauses);
}
