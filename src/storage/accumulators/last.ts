/**
 * `$last` (accumulator_last.cpp): the last value seen, as it is (missing too). A removable
 * state keeps the values, for a window whose every value has left.
 */
import { MISSING } from '../values/missing.js';
import { keyBoundAsDocument, notRemovable, ValueQueue } from './_internal.js';
import type { Accumulator, AccumulatorDefinition } from './types.js';

class LastState implements Accumulator {
  private value: unknown = MISSING;
  constructor(private readonly kept: ValueQueue | null) {}
  add(v: unknown): void {
    this.kept?.push(v);
    this.value = v;
  }
  remove(): void {
    const kept = this.kept ?? notRemovable('$last');
    kept.shift();
    if (kept.length === 0) this.value = MISSING;
  }
  result(): unknown {
    return this.value;
  }
  reset(): void {
    this.value = MISSING;
    this.kept?.clear();
  }
}

/** `$last`. */
export const last: AccumulatorDefinition = {
  name: '$last',
  argument: 'expression',
  groupOutput: keyBoundAsDocument,
  create: (_collator, removable = false) => new LastState(removable ? new ValueQueue() : null),
};
