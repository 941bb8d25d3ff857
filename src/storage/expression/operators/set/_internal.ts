/**
 * What the set operators share (mongod's ValueSet / ValueFlatUnorderedSet of
 * exec/expression/evaluate_array.cpp): membership by the command's collation (a value's
 * `collationKeyString`), the first of equal values kept, and the ordered sets' output sorted by
 * the collation-aware comparison, as mongod's `std::set<Value>` iterates.
 */
import { compareValues } from '../../../values/compare.js';
import type { Collator } from '../../../values/collator.js';
import { collationKeyString } from '../../../values/key_string.js';

/** An unordered set of values: the key of every member (first value of each key kept). */
export class ValueKeySet {
  private readonly keys = new Set<string>();

  constructor(private readonly collator: Collator | null) {}

  /** Adds `v`; true when it was not a member yet. */
  add(v: unknown): boolean {
    const key = collationKeyString(v, this.collator);
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    return true;
  }

  has(v: unknown): boolean {
    return this.keys.has(collationKeyString(v, this.collator));
  }

  get size(): number {
    return this.keys.size;
  }

  /** True when both sets hold the same keys. */
  equals(other: ValueKeySet): boolean {
    if (this.keys.size !== other.keys.size) return false;
    for (const k of this.keys) if (!other.keys.has(k)) return false;
    return true;
  }
}

/** The unordered set of an array's values. */
export function keySetOf(arr: readonly unknown[], collator: Collator | null): ValueKeySet {
  const set = new ValueKeySet(collator);
  for (const v of arr) set.add(v);
  return set;
}

/** An ordered set: the distinct values (the first of equal ones) sorted as mongod's ValueSet. */
export function orderedSetOf(values: readonly unknown[], collator: Collator | null): unknown[] {
  // A stable sort puts equal values side by side, the first given first: keep the first of each run.
  const sorted = [...values].sort((a, b) => compareValues(a, b, collator));
  const out: unknown[] = [];
  for (const v of sorted) {
    if (out.length === 0 || compareValues(out[out.length - 1], v, collator) !== 0) out.push(v);
  }
  return out;
}
