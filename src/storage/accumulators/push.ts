/** `$push` (accumulator_push.cpp): every value, in order; missing values are skipped. */
import { MISSING } from '../values/missing.js';
import { ValueQueue } from './_internal.js';
import type { Accumulator, AccumulatorDefinition } from './types.js';

class PushState implements Accumulator {
  private readonly values = new ValueQueue();
  add(v: unknown): void {
    if (v !== MISSING) this.values.push(v);
  }
  remove(v: unknown): void {
    if (v !== MISSING) this.values.shift();
  }
  result(): unknown {
    return this.values.values();
  }
  reset(): void {
    this.values.clear();
  }
}

/** `$push`. */
export const push: AccumulatorDefinition = {
  name: '$push',
  argument: 'expression',
  create: () => new PushState(),
};
