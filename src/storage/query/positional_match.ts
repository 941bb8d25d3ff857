/**
 * The array position a query matched ("elemMatchKey" of mongod's MatchDetails), which the
 * positional `$` of updates and find projections resolves to.
 *
 * mongod records it while matching (matcher/expression_leaf.cpp, expression_array.cpp,
 * path traversal in BSONElementIterator): every leaf of the top-level conjunction (and of
 * nested `$and`s) that matches an element reached through an array records the index in the
 * OUTERMOST array it traversed; `$elemMatch` records the index of the matching element unless an
 * outer array overrides it; the last leaf to record wins. Negations (`$ne`, `$nin`, `$not`,
 * `$exists: false`), `$or`, `$nor` and `$expr` record nothing.
 *
 * The filter engine answers "does it match"; this module re-walks the paths of an already
 * matching document to find the position, testing single elements with the filter engine
 * through `{$elemMatch: {<op>: <arg>}}` on a one-element array (mongod's matchesSingleElement),
 * under the query's collation.
 */
import type { Document } from '../../bson/library.js';
import { compileFilter } from './compile_filter.js';
import { isDocument } from '../values/paths.js';
import { bsonTypeOf } from '../values/bson_type.js';
import type { Collator } from '../values/collator.js';

/** Finds the elemMatchKey of a document that matches the filter (undefined when none). */
export type PositionalMatcher = (doc: Document) => string | undefined;

const W = '__mayfly_pos';
const MISSING: unique symbol = Symbol('positional.missing');

interface PathClause {
  readonly parts: readonly string[];
  /** Whether a final array is traversed (false for `$elemMatch` and `$size`). */
  readonly traverseLeafArray: boolean;
  /** Tests one value reached along the path (`MISSING` for an absent field). */
  readonly test: (v: unknown) => boolean;
  /** For `$elemMatch`: tests one element of the array the path leads to. */
  readonly elemTest?: (el: unknown) => boolean;
}

function isRegex(v: unknown): boolean {
  return bsonTypeOf(v) === 'regex';
}

/** A single-element test of `{<op>: <arg>, ...}`, or undefined when the filter engine refuses it. */
function singleElementTest(ops: Document, collator: Collator | null): ((v: unknown) => boolean) | undefined {
  try {
    const single = compileFilter({ [W]: { $elemMatch: ops } }, { collator });
    const missing = compileFilter({ [W]: ops }, { collator });
    const missingMatches = missing({});
    return (v) => (v === MISSING ? missingMatches : single({ [W]: [v] }));
  } catch {
    return undefined;
  }
}

function elemMatchTest(arg: Document, collator: Collator | null): ((el: unknown) => boolean) | undefined {
  try {
    const pred = compileFilter({ [W]: { $elemMatch: arg } }, { collator });
    return (el) => pred({ [W]: [el] });
  } catch {
    return undefined;
  }
}

const NEGATIONS = new Set(['$ne', '$nin', '$not', '$options', '$comment']);

function equalityOps(value: unknown): Document {
  return isRegex(value) ? { $regex: value } : { $eq: value };
}

function clausesOfField(path: string, spec: unknown, out: PathClause[], collator: Collator | null): void {
  const parts = path.split('.');
  const add = (ops: Document, traverseLeafArray = true): void => {
    const test = singleElementTest(ops, collator);
    if (test) out.push({ parts, traverseLeafArray, test });
  };
  const isOperatorDoc = isDocument(spec) && Object.keys(spec).length > 0 && Object.keys(spec)[0]!.charCodeAt(0) === 36;
  if (!isOperatorDoc) {
    add(equalityOps(spec));
    return;
  }
  const ops = spec as Document;
  for (const op of Object.keys(ops)) {
    const arg = ops[op];
    if (NEGATIONS.has(op)) continue;
    switch (op) {
      case '$exists':
        if (arg === false || arg === 0 || arg === null) continue;
        add({ $exists: true });
        break;
      case '$regex':
        add('$options' in ops ? { $regex: arg, $options: ops.$options } : { $regex: arg });
        break;
      case '$all':
        if (Array.isArray(arg)) {
          for (const item of arg) {
            if (isDocument(item) && Object.keys(item)[0] === '$elemMatch') clausesOfField(path, item, out, collator);
            else add(equalityOps(item));
          }
        }
        break;
      case '$elemMatch': {
        if (!isDocument(arg)) break;
        const elemTest = elemMatchTest(arg, collator);
        const test = singleElementTest({ $elemMatch: arg }, collator);
        if (elemTest && test) out.push({ parts, traverseLeafArray: false, test, elemTest });
        break;
      }
      case '$size':
        add({ $size: arg }, false);
        break;
      default:
        add({ [op]: arg });
    }
  }
}

function collect(filter: Document, out: PathClause[], collator: Collator | null): void {
  for (const key of Object.keys(filter)) {
    const value = filter[key];
    if (key === '$and') {
      if (Array.isArray(value)) for (const sub of value) if (isDocument(sub)) collect(sub, out, collator);
      continue;
    }
    if (key.charCodeAt(0) === 36) continue;
    clausesOfField(key, value, out, collator);
  }
}

type Found = { offset: string | undefined } | null;

function walk(value: unknown, clause: PathClause, i: number, offset: string | undefined): Found {
  const parts = clause.parts;
  if (i === parts.length) {
    if (clause.elemTest) {
      if (!Array.isArray(value)) return null;
      for (let j = 0; j < value.length; j++) {
        if (clause.elemTest(value[j])) return { offset: offset ?? String(j) };
      }
      return null;
    }
    if (Array.isArray(value)) {
      if (clause.traverseLeafArray) {
        for (let j = 0; j < value.length; j++) {
          if (clause.test(value[j])) return { offset: offset ?? String(j) };
        }
      }
    }
    return clause.test(value) ? { offset } : null;
  }
  const part = parts[i]!;
  if (isDocument(value)) {
    if (!Object.prototype.hasOwnProperty.call(value, part)) return clause.test(MISSING) ? { offset } : null;
    return walk(value[part], clause, i + 1, offset);
  }
  if (Array.isArray(value)) {
    const index = /^[0-9]+$/.test(part) ? Number(part) : -1;
    for (let j = 0; j < value.length; j++) {
      const el = value[j];
      if (j === index) {
        const r = walk(el, clause, i + 1, offset);
        if (r) return r;
      }
      if (isDocument(el)) {
        const r = walk(el, clause, i, offset ?? String(j));
        if (r) return r;
      }
    }
    return null;
  }
  return clause.test(MISSING) ? { offset } : null;
}

/**
 * Compiles the positional matcher of a query filter under the query's `collator` (null:
 * simple); never throws; unknown shapes record nothing.
 */
export function compilePositionalMatcher(filter: Document, collator: Collator | null = null): PositionalMatcher {
  const clauses: PathClause[] = [];
  collect(filter, clauses, collator);
  return (doc) => {
    let key: string | undefined;
    for (const clause of clauses) {
      const found = walk(doc, clause, 0, undefined);
      if (found && found.offset !== undefined) key = found.offset;
    }
    return key;
  };
}
