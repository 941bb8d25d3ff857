/**
 * Turns a clause on a path into a predicate over documents, and a clause into a test of a
 * single value. The common case (a top-level field, a scalar value) allocates nothing.
 */
import type { Document } from '../../bson/library.js';
import { MISSING, parsePath, walkPath, type ParsedPath } from '../values/paths.js';
import type { Clause, Predicate, ValueTest } from './types.js';

const hasOwn = Object.prototype.hasOwnProperty;

/** A predicate: true when some value at `path` satisfies `clause` (negations apply to the whole path). */
export function clausePredicate(path: string, clause: Clause): Predicate {
  return predicateOf(parsePath(path), clause);
}

function predicateOf(path: ParsedPath, clause: Clause): Predicate {
  switch (clause.kind) {
    case 'const': {
      const value = clause.value;
      return () => value;
    }
    case 'not': {
      const inner = predicateOf(path, clause.child);
      return (doc) => !inner(doc);
    }
    case 'and':
      return allOf(clause.children.map((c) => predicateOf(path, c)));
    case 'leaf':
      return leafPredicate(path, clause.test, clause.expand);
  }
}

function leafPredicate(path: ParsedPath, test: ValueTest, expand: boolean): Predicate {
  if (path.parts.length === 1 && !path.inherited) {
    const key = path.parts[0]!;
    if (expand) {
      return (doc) => {
        const v = doc[key];
        if (v === undefined) return test(hasOwn.call(doc, key) ? undefined : MISSING);
        if (typeof v === 'object' && v !== null && Array.isArray(v)) {
          for (let i = 0; i < v.length; i++) if (test(v[i])) return true;
        }
        return test(v);
      };
    }
    return (doc) => {
      const v = doc[key];
      if (v === undefined) return test(hasOwn.call(doc, key) ? undefined : MISSING);
      return test(v);
    };
  }
  return (doc) => walkPath(doc, path, expand, test);
}

/** The conjunction of predicates, unrolled for small counts. */
export function allOf(preds: readonly Predicate[]): Predicate {
  switch (preds.length) {
    case 0:
      return () => true;
    case 1:
      return preds[0]!;
    case 2: {
      const [a, b] = preds as [Predicate, Predicate];
      return (doc: Document) => a(doc) && b(doc);
    }
    case 3: {
      const [a, b, c] = preds as [Predicate, Predicate, Predicate];
      return (doc: Document) => a(doc) && b(doc) && c(doc);
    }
    default: {
      const list = preds.slice();
      return (doc: Document) => {
        for (let i = 0; i < list.length; i++) if (!list[i]!(doc)) return false;
        return true;
      };
    }
  }
}

/** The disjunction of predicates. */
export function anyOf(preds: readonly Predicate[]): Predicate {
  if (preds.length === 1) return preds[0]!;
  const list = preds.slice();
  return (doc: Document) => {
    for (let i = 0; i < list.length; i++) if (list[i]!(doc)) return true;
    return false;
  };
}

/** A clause as a test of one value (mongod's matchesSingleElement): no path, no expansion. */
export function clauseValueTest(clause: Clause): ValueTest {
  switch (clause.kind) {
    case 'const': {
      const value = clause.value;
      return () => value;
    }
    case 'not': {
      const inner = clauseValueTest(clause.child);
      return (v) => !inner(v);
    }
    case 'and': {
      const tests = clause.children.map(clauseValueTest);
      return (v) => {
        for (let i = 0; i < tests.length; i++) if (!tests[i]!(v)) return false;
        return true;
      };
    }
    case 'leaf':
      return clause.test;
  }
}
