/**
 * `$addToSet` (accumulator_add_to_set.cpp): the distinct values, the first of equal values kept
 * (strings equal under the collation); missing values skipped. Each value is counted, so that a
 * window removing one of several equal values keeps it. The set may not pass 100 MB (146
 * ExceededMemoryLimit).
 */
import type { Collator } from '../values/collator.js';
import { collationKeyString } from '../values/key_string.js';
import { MISSING } from '../values/missing.js';
import { ArrayBytes, keyBoundAsDocument } from './_internal.js';
import type { Accumulator, AccumulatorDefinition } from './types.js';

class AddToSetState implements Accumulator {
  /** By canonical key: the value first seen and how many equal values are in the set. */
  private readonly entries = new Map<string, { value: unknown; count: number }>();
  private readonly bytes = new ArrayBytes('set');
  constructor(private readonly collator: Collator | null) {}
  add(v: unknown): void {
    if (v === MISSING) return;
    const key = collationKeyString(v, this.collator);
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.bytes.add(v, this.entries.size);
      this.entries.set(key, { value: v, count: 1 });
    } else entry.count++;
  }
  remove(v: unknown): void {
    if (v === MISSING) return;
    const key = collationKeyString(v, this.collator);
    const entry = this.entries.get(key);
    if (entry !== undefined && --entry.count === 0) {
      this.bytes.remove(entry.value);
      this.entries.delete(key);
    }
  }
  result(): unknown {
    const out: unknown[] = [];
    for (const entry of this.entries.values()) out.push(entry.value);
    return out;
  }
  reset(): void {
    this.entries.clear();
    this.bytes.reset();
  }
}

/** `$addToSet`. */
export const addToSet: AccumulatorDefinition = {
  name: '$addToSet',
  argument: 'expression',
  groupOutput: (r) => (r as unknown[]).map(keyBoundAsDocument),
  create: (collator) => new AddToSetState(collator),
};
