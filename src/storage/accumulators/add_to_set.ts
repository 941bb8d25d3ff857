/**
 * `$addToSet` (accumulator_add_to_set.cpp): the distinct values, the first of equal values kept
 * (strings equal under the collation); missing values skipped. Each value is counted, so that a
 * window removing one of several equal values keeps it.
 */
import type { Collator } from '../values/collator.js';
import { collationKeyString } from '../values/key_string.js';
import { MISSING } from '../values/missing.js';
import { keyBoundAsDocument } from './_internal.js';
import type { Accumulator, AccumulatorDefinition } from './types.js';

class AddToSetState implements Accumulator {
  /** By canonical key: the value first seen and how many equal values are in the set. */
  private readonly entries = new Map<string, { value: unknown; count: number }>();
  constructor(private readonly collator: Collator | null) {}
  add(v: unknown): void {
    if (v === MISSING) return;
    const key = collationKeyString(v, this.collator);
    const entry = this.entries.get(key);
    if (entry === undefined) this.entries.set(key, { value: v, count: 1 });
    else entry.count++;
  }
  remove(v: unknown): void {
    if (v === MISSING) return;
    const key = collationKeyString(v, this.collator);
    const entry = this.entries.get(key);
    if (entry !== undefined && --entry.count === 0) this.entries.delete(key);
  }
  result(): unknown {
    const out: unknown[] = [];
    for (const entry of this.entries.values()) out.push(entry.value);
    return out;
  }
  reset(): void {
    this.entries.clear();
  }
}

/** `$addToSet`. */
export const addToSet: AccumulatorDefinition = {
  name: '$addToSet',
  argument: 'expression',
  groupOutput: (r) => (r as unknown[]).map(keyBoundAsDocument),
  create: (collator) => new AddToSetState(collator),
};
