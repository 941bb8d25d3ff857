/**
 * The contracts of the window functions of `$setWindowFields` (README.md): what a function is
 * parsed with (the stage's `sortBy`), and what a parsed function does: fill one output value per
 * document of a sorted partition. mongod: window_function_expression.h, window_function_exec.h.
 */
import type { Document } from '../../../bson/library.js';
import type { ExpressionContext } from '../../expression/context.js';
import type { Frame } from '../../expression/types.js';
import type { SortKey } from '../../query/sort.js';

/** The stage's `sortBy`, parsed: present (even empty) or null when omitted. */
export interface WindowSortBy {
  readonly spec: Document;
  readonly keys: readonly SortKey[];
}

/** What a window function is parsed with. */
export interface WindowParseContext {
  readonly expressions: ExpressionContext;
  readonly sortBy: WindowSortBy | null;
  /** True when `name` is a window function (an accumulator or a window-only function). */
  readonly isFunction: (name: string) => boolean;
}

/** One partition, sorted: its documents and what the functions read of them. */
export interface Partition {
  readonly docs: readonly Document[];
  /** The expression frame of document `i`. */
  frame(i: number): Frame;
}

/** A parsed window function: one output field's computation. */
export interface WindowFunction {
  /** Writes the value of the output for every document of `p` into `out` (MISSING: the field is not set). */
  compute(p: Partition, out: unknown[]): void;
}

/** One window-only function: a file of `functions/`, one entry of `registry.ts`. */
export interface WindowFunctionDefinition {
  /** The name as written, with its `$`. */
  readonly name: `$${string}`;
  /** Parses the whole output specification (`{$rank: {}}`, `{$shift: {...}}`, `{..., window}`). */
  parse(spec: Document, ctx: WindowParseContext): WindowFunction;
}
