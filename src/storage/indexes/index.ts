/**
 * One secondary index: its spec as `listIndexes` shows it, the keys it derives from a document
 * (multikey arrays expanded, missing fields as null), and a hash of key → records that serves
 * equality lookups and enforces `unique`.
 */
import type { Document } from '../../bson.js';
import { CommandError } from '../../errors/command_error.js';
import { compileFilter, type Predicate } from '../query/compile_filter.js';
import { keyString } from '../values/key_string.js';

/** A key derived from a document: its canonical string and the `keyValue` mongod reports. */
export interface IndexKey {
  readonly ks: string;
  readonly values: unknown[];
}

/** Walks `path` through `doc`, expanding arrays; pushes each reached value (undefined when missing). */
function keyValuesAt(value: unknown, parts: string[], i: number, out: unknown[]): void {
  if (i === parts.length) {
    if (Array.isArray(value)) {
      if (value.length === 0) out.push(undefined);
      else for (const el of value) out.push(el);
    } else out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    const idx = /^\d+$/.test(parts[i]!) ? Number(parts[i]) : -1;
    if (idx >= 0 && idx < value.length) {
      keyValuesAt(value[idx], parts, i + 1, out);
      return;
    }
    if (value.length === 0) {
      out.push(undefined);
      return;
    }
    for (const el of value) keyValuesAt(el, parts, i, out);
    return;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    keyValuesAt((value as Document)[parts[i]!], parts, i + 1, out);
    return;
  }
  out.push(undefined);
}

/** A secondary index of a collection. */
export class Index {
  readonly spec: Document;
  readonly name: string;
  readonly keyPattern: Document;
  readonly fields: readonly string[];
  private readonly fieldParts: readonly string[][];
  readonly unique: boolean;
  readonly sparse: boolean;
  readonly partialFilter: Predicate | null;
  /** key string → ids of the records holding that key. */
  private readonly entries = new Map<string, Set<string>>();

  /** Builds an index from a validated spec (`{ v, key, name, ...options }`). */
  constructor(spec: Document) {
    this.spec = spec;
    this.name = spec.name as string;
    this.keyPattern = spec.key as Document;
    this.fields = Object.keys(this.keyPattern);
    this.fieldParts = this.fields.map((f) => f.split('.'));
    this.unique = spec.unique === true;
    this.sparse = spec.sparse === true;
    this.partialFilter = spec.partialFilterExpression ? compileFilter(spec.partialFilterExpression as Document) : null;
  }

  /** The distinct keys `doc` has in this index; [] when the index does not cover it. */
  keysOf(doc: Document): IndexKey[] {
    if (this.partialFilter && !this.partialFilter(doc)) return [];
    const perField: unknown[][] = [];
    let allMissing = true;
    let arrays = 0;
    for (const parts of this.fieldParts) {
      const vals: unknown[] = [];
      keyValuesAt(doc, parts, 0, vals);
      if (vals.length > 1) arrays++;
      if (vals.some((v) => v !== undefined)) allMissing = false;
      perField.push(vals);
    }
    if (this.sparse && allMissing) return [];
    if (arrays > 1) {
      throw new CommandError(171, `cannot index parallel arrays [${this.fields.join('] [')}]`);
    }
    const keys = new Map<string, IndexKey>();
    const combine = (i: number, acc: unknown[]): void => {
      if (i === perField.length) {
        const values = acc.map((v) => (v === undefined ? null : v));
        const ks = keyString(values);
        if (!keys.has(ks)) keys.set(ks, { ks, values });
        return;
      }
      for (const v of perField[i]!) combine(i + 1, [...acc, v]);
    };
    combine(0, []);
    return [...keys.values()];
  }

  /** The `keyValue` document of `key` for a duplicate-key error. */
  keyValueDoc(key: IndexKey): Document {
    const out: Document = {};
    this.fields.forEach((f, i) => (out[f] = key.values[i]));
    return out;
  }

  /** Ids of the records holding `ks`. */
  lookup(ks: string): ReadonlySet<string> | undefined {
    return this.entries.get(ks);
  }

  /** The first key of `keys` held by a record other than `selfId`, if this index is unique. */
  findConflict(keys: IndexKey[], selfId: string | null): { key: IndexKey; holderId: string } | null {
    if (!this.unique) return null;
    for (const key of keys) {
      const holders = this.entries.get(key.ks);
      if (!holders) continue;
      for (const holderId of holders) if (holderId !== selfId) return { key, holderId };
    }
    return null;
  }

  /** Records `id` under each of `keys`. */
  add(keys: IndexKey[], id: string): void {
    for (const { ks } of keys) {
      let set = this.entries.get(ks);
      if (!set) this.entries.set(ks, (set = new Set()));
      set.add(id);
    }
  }

  /** Removes `id` from each of `keys`. */
  remove(keys: IndexKey[], id: string): void {
    for (const { ks } of keys) {
      const set = this.entries.get(ks);
      if (!set) continue;
      set.delete(id);
      if (set.size === 0) this.entries.delete(ks);
    }
  }

  /** Drops every entry. */
  clear(): void {
    this.entries.clear();
  }
}
