/**
 * Shared shapes of the filter compiler: predicates over documents, tests of single values,
 * clauses on one path, and the parse context.
 */
import type { Document } from '../../bson/library.js';
import type { Collator } from '../values/collator.js';

/** A compiled filter: true when `doc` matches. */
export type Predicate = (doc: Document) => boolean;

/** A test of one value seen along a path; receives `MISSING` where the field is absent. */
export type ValueTest = (v: unknown) => boolean;

/**
 * A compiled condition on one path, kept as a small tree so that it can run both over a
 * document path (any value along the path) and over a single value (`$elemMatch` value case).
 */
export type Clause =
  | { readonly kind: 'leaf'; readonly test: ValueTest; readonly expand: boolean }
  | { readonly kind: 'not'; readonly child: Clause }
  | { readonly kind: 'and'; readonly children: readonly Clause[] }
  | { readonly kind: 'const'; readonly value: boolean };

/** Where the parser stands (mongod's DocumentParseLevel). */
export const ParseLevel = {
  /** The root of the user's predicate. */
  predicateTop: 0,
  /** Matches the whole document, below a top-level $and/$or/$nor. */
  documentTop: 1,
  /** Matches a subdocument (inside $elemMatch). */
  subDocument: 2,
} as const;

/** One of `ParseLevel`. */
export type ParseLevel = (typeof ParseLevel)[keyof typeof ParseLevel];

/** Options of `compileFilter`. */
export interface FilterOptions {
  /**
   * Whether JavaScript ($where) is allowed in this context: true for find/count/distinct/
   * update/delete (answered as a mongod without a script engine), false for `$match` and
   * other contexts (answered "$where is not allowed in this context").
   */
  readonly whereAllowed?: boolean;
  /** Compiles the argument of `$expr`; without it `$expr` is NotImplemented. */
  readonly compileExpr?: (expr: unknown) => Predicate;
  /** The query's collation (null or absent: simple): string comparisons follow it. */
  readonly collator?: Collator | null;
  /**
   * Whether `$near`, `$nearSphere` and `$geoNear` may appear (a read that can order by distance:
   * find and the write commands' queries); absent: as `whereAllowed` (so `$match` refuses them, 5626500).
   */
  readonly nearAllowed?: boolean;
}

/** The resolved parse context passed down the parser. */
export interface ParseContext {
  readonly whereAllowed: boolean;
  readonly compileExpr: ((expr: unknown) => Predicate) | undefined;
  readonly collator: Collator | null;
}

/** A leaf clause. */
export function leaf(test: ValueTest, expand = true): Clause {
  return { kind: 'leaf', test, expand };
}

/** The negation of a clause. */
export function not(child: Clause): Clause {
  return { kind: 'not', child };
}

/** A clause that is always `value`. */
export function constant(value: boolean): Clause {
  return { kind: 'const', value };
}

/** The conjunction of clauses (flattened for one child). */
export function and(children: readonly Clause[]): Clause {
  return children.length === 1 ? children[0]! : { kind: 'and', children };
}
