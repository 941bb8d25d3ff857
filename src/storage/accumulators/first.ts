/**
 * `$first` (accumulator_first.cpp): the first value seen, as it is (missing too: `$group`
 * reports it as null). A removable state keeps the values to know the next first.
 */
import { MISSING } from '../values/missing.js';
import { keyBoundAsDocument, notRemovable, ValueQueue } from './_internal.js';
import type { Accumulator, AccumulatorDefinition } from './types.js';

class FirstState implements Accumulator {
  private seen = false;
  private value: unknown = MISSING;
  constructor(private readonly kept: ValueQueue | null) {}
  add(v: unknown): void {
    this.kept?.push(v);
    if (this.seen) return;
    this.seen = true;
    this.value = v;
  }
  remove(): void {
    const kept = this.kept ?? notRemovable('$first');
    kept.shift();
    this.seen = kept.length > 0;
    this.value = this.seen ? kept.first() : MISSING;
  }
  result(): unknown {
    return this.value;
  }
  reset(): void {
    this.seen = false;
    this.value = MISSING;
    this.kept?.clear();
  }
}

/** `$first`. */
export const first: AccumulatorDefinition = {
  name: '$first',
  argument: 'expression',
  groupOutput: keyBoundAsDocument,
  create: (_collator, removable = false) => new FirstState(removable ? new ValueQueue() : null),
};
