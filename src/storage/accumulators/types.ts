/**
 * The contract of an accumulator (mongod's `AccumulatorState` and the window functions'
 * removable states): a running state fed one value at a time. `$group`, `$bucket`,
 * `$bucketAuto`, `$setWindowFields` and the expressions that accumulate an array (`$sum`,
 * `$avg`, `$min`, `$max` given one array) all drive the same states.
 */
import type { Collator } from '../values/collator.js';

/** One accumulator's running state. */
export interface Accumulator {
  /** Feeds one evaluated value (possibly MISSING). */
  add(v: unknown): void;
  /**
   * Takes back `v`, the oldest value added and not yet removed (a window that slides forward
   * removes in the order it added).
   */
  remove(v: unknown): void;
  /** The accumulated result (MISSING when there is none). */
  result(): unknown;
  /** Forgets every value (a new group or window partition). */
  reset(): void;
}

/** One accumulator: a file of this folder, one entry of `index.ts`. */
export interface AccumulatorDefinition {
  /** The name as written, with its `$` (`'$sum'`). */
  readonly name: `$${string}`;
  /**
   * What its argument is: one expression evaluated per document, or `{}` (`$count`, whose state
   * is fed 1).
   */
  readonly argument: 'expression' | 'empty' | 'object';
  /**
   * A new state; strings compare under `collator` (null: simple). Only a `removable` state (a
   * window's) keeps what `remove` needs: the values a `$group` state need not hold. `options`
   * carries what an `object` accumulator's arguments give the state (its `n`, its order).
   */
  create(collator: Collator | null, removable?: boolean, options?: StateOptions): Accumulator;
  /**
   * For an `object` accumulator (`$topN: {n, sortBy, output}`): checks the shape of the
   * argument at parse time (its codes and messages) and says which parts the caller parses as
   * expressions. The caller evaluates `n` once per group and passes it, with the comparator of
   * `sortBy`, to `create`. `form` says whether it is the accumulator or the expression of the
   * same name (a few codes differ).
   */
  parseArguments?(spec: unknown, form?: 'group' | 'expression'): AccumulatorArguments;
  /**
   * What `$group` hands a following stage for `result` when it differs (mongod 8.2's SBE
   * `$group` renders a MinKey/MaxKey result of `$first`, `$last`, `$min`, `$max`, `$addToSet`
   * as `{"": MinKey}` then; a `$group` that ends the pipeline returns it as it is).
   */
  groupOutput?(result: unknown): unknown;
}

/** The parts of an `object` accumulator's argument, its shape checked. */
export interface AccumulatorArguments {
  /** The expression evaluated per document (`input`, `output`). */
  readonly input: unknown;
  /** The expression of `n`, evaluated once per group (absent: the accumulator has none). */
  readonly n?: unknown;
  /**
   * The sort specification (`$top`, `$bottom`, ...): the caller compiles it into `compare`
   * and feeds each state `[document, value]` pairs, the document being what it sorts by.
   */
  readonly sortBy?: Record<string, unknown>;
  /** Constant settings the state is made with (`$percentile`'s `p`), passed back to `create`. */
  readonly settings?: unknown;
}

/** What an `object` accumulator's state is made with. */
export interface StateOptions {
  /** The value of `n` (unchecked: the state checks it, 5787902/5787903/5787908). */
  readonly n?: unknown;
  /** The order of `sortBy`, over the documents fed with each value. */
  readonly compare?: (a: unknown, b: unknown) => number;
  /** The `settings` of `parseArguments`. */
  readonly settings?: unknown;
  /**
   * True when the state serves the expression form (`{$avg: [..]}`), which mongod evaluates
   * in its classic engine: `$avg` there sums Int32/Int64 values as Doubles, where `$group`'s
   * sums them exactly.
   */
  readonly expression?: boolean;
  /**
   * True when the state serves a grouping stage (`$group`, `$bucket`, `$bucketAuto`), which
   * mongod 8.2 runs in SBE: an `n` that is not a positive integer is its one error, 7548606.
   */
  readonly grouping?: boolean;
}
