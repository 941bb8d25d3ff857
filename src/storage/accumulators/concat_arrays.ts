/**
 * `$concatArrays` (accumulator_concat_arrays.cpp): the elements of every input array, in input
 * order; a missing input is skipped, anything else that is not an array (null too) is a
 * TypeMismatch (14).
 */
import { MISSING } from '../values/missing.js';
import { ValueQueue, requireArrayInput } from './_internal.js';
import type { Accumulator, AccumulatorDefinition } from './types.js';

class ConcatArraysState implements Accumulator {
  /** The input arrays, oldest first. */
  private readonly arrays = new ValueQueue();
  add(v: unknown): void {
    if (v === MISSING) return;
    this.arrays.push(requireArrayInput('$concatArrays', v));
  }
  remove(v: unknown): void {
    if (v !== MISSING) this.arrays.shift();
  }
  result(): unknown {
    const out: unknown[] = [];
    for (const a of this.arrays.values() as unknown[][]) for (const el of a) out.push(el);
    return out;
  }
  reset(): void {
    this.arrays.clear();
  }
}

/** `$concatArrays`. */
export const concatArrays: AccumulatorDefinition = {
  name: '$concatArrays',
  argument: 'expression',
  create: () => new ConcatArraysState(),
};
