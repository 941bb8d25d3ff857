/**
 * `$setUnion` (accumulator_set_union.cpp): the distinct elements of every input array (equal
 * under BSON comparison, strings under the collation; the first one seen kept); a missing input
 * is skipped, anything else that is not an array (null too) is a TypeMismatch (14).
 */
import type { Collator } from '../values/collator.js';
import { collationKeyString } from '../values/key_string.js';
import { MISSING } from '../values/missing.js';
import { requireArrayInput } from './_internal.js';
import type { Accumulator, AccumulatorDefinition } from './types.js';

class SetUnionState implements Accumulator {
  /** By canonical key: the element first seen and how many equal elements were added. */
  private readonly entries = new Map<string, { value: unknown; count: number }>();
  constructor(private readonly collator: Collator | null) {}
  add(v: unknown): void {
    if (v === MISSING) return;
    for (const el of requireArrayInput('$setUnion', v)) {
      const key = collationKeyString(el, this.collator);
      const entry = this.entries.get(key);
      if (entry === undefined) this.entries.set(key, { value: el, count: 1 });
      else entry.count++;
    }
  }
  remove(v: unknown): void {
    if (!Array.isArray(v)) return;
    for (const el of v) {
      const key = collationKeyString(el, this.collator);
      const entry = this.entries.get(key);
      if (entry !== undefined && --entry.count === 0) this.entries.delete(key);
    }
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

/** `$setUnion`. */
export const setUnion: AccumulatorDefinition = {
  name: '$setUnion',
  argument: 'expression',
  create: (collator) => new SetUnionState(collator),
};
