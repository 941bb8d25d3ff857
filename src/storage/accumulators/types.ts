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
  readonly argument: 'expression' | 'empty';
  /**
   * A new state; strings compare under `collator` (null: simple). Only a `removable` state (a
   * window's) keeps what `remove` needs: the values a `$group` state need not hold.
   */
  create(collator: Collator | null, removable?: boolean): Accumulator;
}
