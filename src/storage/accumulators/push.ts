/**
 * `$push` (accumulator_push.cpp): every value, in order; missing values are skipped. The array
 * may not pass 100 MB (146 ExceededMemoryLimit).
 */
import { MISSING } from '../values/missing.js';
import { ArrayBytes, ValueQueue } from './_internal.js';
import type { Accumulator, AccumulatorDefinition } from './types.js';

class PushState implements Accumulator {
  private readonly values = new ValueQueue();
  private readonly bytes = new ArrayBytes('array');
  add(v: unknown): void {
    if (v === MISSING) return;
    this.bytes.add(v, this.values.length);
    this.values.push(v);
  }
  remove(v: unknown): void {
    if (v === MISSING) return;
    this.bytes.remove(v);
    this.values.shift();
  }
  result(): unknown {
    return this.values.values();
  }
  reset(): void {
    this.values.clear();
    this.bytes.reset();
  }
}

/** `$push`. */
export const push: AccumulatorDefinition = {
  name: '$push',
  argument: 'expression',
  create: () => new PushState(),
};
