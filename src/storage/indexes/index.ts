/**
 * One index of a collection: its spec as `listIndexes` shows it, the keys it derives from a
 * document (`key_generator.ts`: multikey arrays, parallel-array errors, sparse, partial), and an
 * ordered B+tree of (key, record) entries (`btree.ts`) that serves equality and range scans in
 * both directions, index-provided sorts, key-count estimates and `unique` checks.
 *
 * Entries are ordered by the key (each field in its direction, values in `compareValues` order,
 * strings under the index's collation when it has one, missing fields as null, an empty array as
 * undefined), then by the record's sequence number (mongod's RecordId: insertion order), so
 * equal keys come back in insertion order. A unique index with a collation holds one key per
 * collation class ('abc' and 'ABC' collide under strength 2); its partial filter compares
 * under the same collation.
 *
 * A wildcard index (`wildcard_keys.ts`) keeps `(path, value)` keys: its fields are the key
 * pattern's with the wildcard field expanded into `$_path` and the value, and it records the
 * paths at which documents held arrays (`wildcardMultikeyPaths`).
 *
 * Some indexes keep no entries and are never used by the planner: text, 2d and 2dsphere
 * indexes (accepted and listed; their queries are not implemented), and the Cosmos
 * container TTL index `{ _ts: ±1 }` with `expireAfterSeconds`, whose key is the *system*
 * last-modified time rather than a document field (TTL.md).
 */
import { ObjectId, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { compileFilter, type Predicate } from '../query/compile_filter.js';
import type { Collator } from '../values/collator.js';
import { compareObjectIds, compareValues } from '../values/compare.js';
import { collatorOf } from './collation.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { formatValue } from '../values/format.js';
import type { StoredDocument } from '../record.js';
import { BTree } from '../values/btree.js';
import { KeyGenerator } from './key_generator.js';
import { geoKeyCheck } from '../geo/index_keys.js';
import { IndexKinds, parseKeyPattern, type IndexKind } from './key_pattern.js';
import { WILDCARD_PATH_FIELD, WildcardKeyGenerator } from './wildcard_keys.js';

/** The keys of one document in one index. */
export interface IndexKeys {
  /** Distinct keys: the value itself for a single-field index, an array for a compound one. */
  readonly keys: unknown[];
  /** Per field, the path components that held arrays (null when none did). */
  readonly multikeyComponents: number[][] | null;
  /** A wildcard index's paths that held arrays. */
  readonly multikeyPaths?: readonly string[];
}

const NO_KEYS: IndexKeys = Object.freeze({ keys: [], multikeyComponents: null }) as IndexKeys;

/** The field of the Cosmos container TTL index (the system last-modified time). */
const SYSTEM_TIME_FIELD = '_ts';

/** A conflicting key of a unique index and the record holding it. */
export interface KeyConflict {
  readonly key: unknown;
  readonly holder: StoredDocument;
}

/** Orders two keys of an index (field directions applied). */
export type KeyComparator = (a: unknown, b: unknown) => number;

/**
 * `compareValues`, with a fast path for two ObjectIds (the `_id` index compares them on every
 * insert): their words compared directly, without building their 12-byte buffers.
 */
export function compareKeyValues(a: unknown, b: unknown): number {
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null) {
    if (a instanceof ObjectId && b instanceof ObjectId) return compareObjectIds(a, b);
  }
  return compareValues(a, b);
}

/** The key comparator of a key pattern with `directions` (strings under `collator` when given). */
export function keyComparator(directions: readonly (1 | -1)[], collator?: Collator | null): KeyComparator {
  const compareField: KeyComparator = collator ? (a, b) => compareValues(a, b, collator) : compareKeyValues;
  if (directions.length === 1) {
    return directions[0] === 1 ? compareField : (a, b) => -compareField(a, b);
  }
  const n = directions.length;
  return (a, b) => {
    const x = a as unknown[];
    const y = b as unknown[];
    for (let i = 0; i < n; i++) {
      const c = compareField(x[i], y[i]);
      if (c !== 0) return directions[i] === 1 ? c : -c;
    }
    return 0;
  };
}

/** The options that decide which entries an index holds (same value: same entries). */
function entrySignature(spec: Document): string {
  const pick = (name: string) => (spec[name] === undefined ? '' : formatValue(spec[name]));
  return [pick('key'), pick('unique'), pick('sparse'), pick('partialFilterExpression'), pick('collation'), pick('wildcardProjection'), 'expireAfterSeconds' in spec].join('|');
}

/** An index of a collection. */
export class Index {
  readonly spec: Document;
  readonly name: string;
  readonly keyPattern: Document;
  /** The key's components: the key pattern's fields (a wildcard field as `$_path` and itself). */
  readonly fields: readonly string[];
  readonly directions: readonly (1 | -1)[];
  readonly kind: IndexKind;
  /** A wildcard index's key generator (its `scope` says which paths it holds); else null. */
  readonly wildcard: WildcardKeyGenerator | null;
  /** A wildcard index's paths at which some document held an array (never reset). */
  readonly wildcardMultikeyPaths: Set<string>;
  readonly unique: boolean;
  readonly sparse: boolean;
  readonly hidden: boolean;
  readonly partialFilter: Predicate | null;
  /** The index collation (null: simple). */
  readonly collation: Document | null;
  /** The collator of `collation` (null: simple). */
  readonly collator: Collator | null;
  /** Orders two values of one key field (`compareValues` under the index collation). */
  readonly compareValue: (a: unknown, b: unknown) => number;
  /** True for the `_id_` index. */
  readonly isId: boolean;
  /** True when the index keeps no entries (special kinds, the Cosmos `_ts` TTL index). */
  readonly entryless: boolean;
  /** Orders keys. */
  readonly compareKeys: KeyComparator;
  /** The entries (`tree`). */
  private readonly entries: BTree<unknown, StoredDocument>;
  /** Gives every entry when the entries are deferred (`defer`) and not yet read; else null. */
  private fill: (() => Array<{ key: unknown; rec: StoredDocument }>) | null = null;
  /** True once any document had an array on an indexed path (never reset, as in mongod). */
  multikey = false;
  /**
   * `$indexStats`' access counter: the operations that used this index (a plan that scanned it),
   * since `sinceMs` (when it was built; undefined until a clock time is known).
   */
  readonly accesses: { ops: number; sinceMs: number | undefined } = { ops: 0, sinceMs: undefined };
  /** Per field, the path components that held arrays. */
  readonly multikeyComponents: Set<number>[];
  private readonly generator: KeyGenerator | null;
  private readonly signature: string;
  /**
   * The top-level fields this index's entries are derived from (key fields' first components), or
   * null when a change anywhere may matter (a partial filter: its paths decide membership).
   */
  private readonly topLevelFields: ReadonlySet<string> | null;
  /**
   * The top-level fields `keysOf` reads: none for an entryless index, null (the whole document)
   * under a partial filter.
   */
  readonly keyFields: readonly string[] | null;
  /** The key checks of a 2d or 2dsphere index (it keeps no entries, but refuses what mongod cannot index). */
  private readonly geoCheck: ((doc: Document) => void) | null;

  /** Builds an empty index from a validated spec (`{ v, key, name, ...options }`). */
  constructor(spec: Document, shared?: Index) {
    this.spec = spec;
    this.name = spec.name as string;
    this.keyPattern = spec.key as Document;
    const pattern = parseKeyPattern(this.keyPattern);
    this.kind = pattern.kind;
    this.wildcard = this.kind === IndexKinds.wildcard ? new WildcardKeyGenerator(this.keyPattern, spec.wildcardProjection as Document | undefined) : null;
    if (this.wildcard) {
      const at = pattern.fields.findIndex((f) => f === '$**' || f.endsWith('.$**'));
      this.fields = [...pattern.fields.slice(0, at), WILDCARD_PATH_FIELD, ...pattern.fields.slice(at)];
      this.directions = [...pattern.directions.slice(0, at), 1, ...pattern.directions.slice(at)];
    } else {
      this.fields = pattern.fields;
      this.directions = pattern.directions;
    }
    this.isId = this.fields.length === 1 && this.fields[0] === '_id' && this.kind === IndexKinds.btree;
    this.unique = spec.unique === true || this.isId;
    this.sparse = spec.sparse === true;
    this.hidden = spec.hidden === true;
    this.collation = (spec.collation as Document | undefined) ?? null;
    const collator = (this.collator = shared && shared.collation === this.collation ? shared.collator : collatorOf(this.collation));
    this.compareValue = collator ? (a, b) => compareValues(a, b, collator) : compareValues;
    this.partialFilter = spec.partialFilterExpression ? compileFilter(spec.partialFilterExpression as Document, { collator }) : null;
    const systemTime = this.fields.length === 1 && this.fields[0] === SYSTEM_TIME_FIELD && 'expireAfterSeconds' in spec;
    this.entryless = systemTime || (this.kind !== IndexKinds.btree && this.kind !== IndexKinds.hashed && this.kind !== IndexKinds.wildcard);
    this.generator = this.entryless || this.wildcard ? null : new KeyGenerator(this.fields, this.sparse);
    this.geoCheck = systemTime ? null : geoKeyCheck(spec);
    this.topLevelFields = this.partialFilter || this.fields.includes('$**') ? null : new Set(this.fields.filter((f) => f !== WILDCARD_PATH_FIELD).map((f) => f.split('.', 1)[0]!));
    this.keyFields = this.generator === null && this.wildcard === null && this.geoCheck === null ? [] : this.topLevelFields && [...this.topLevelFields];
    this.compareKeys = keyComparator(this.directions, collator);
    this.signature = entrySignature(spec);
    if (shared && shared.signature === this.signature) {
      this.entries = shared.tree;
      this.multikey = shared.multikey;
      this.multikeyComponents = shared.multikeyComponents;
      this.wildcardMultikeyPaths = shared.wildcardMultikeyPaths;
    } else {
      this.wildcardMultikeyPaths = new Set();
      const compareKeys = this.compareKeys;
      this.entries = new BTree<unknown, StoredDocument>((ak, av, bk, bv) => compareKeys(ak, bk) || av.seq! - bv.seq!);
      this.multikeyComponents = this.fields.map(() => new Set<number>());
    }
  }

  /** The entries, built first if they were deferred. */
  get tree(): BTree<unknown, StoredDocument> {
    if (this.fill !== null) {
      const fill = this.fill;
      this.fill = null;
      this.load(fill());
    }
    return this.entries;
  }

  /**
   * Keeps no entries until the first read of `tree`, which builds them from `fill` (every
   * entry of the stored documents then). Meanwhile writes need not tell the index
   * (`maintained` is false) and `add`/`remove` do nothing. The `_id_` index is deferred: point
   * lookups by `_id` use the collection's map, so most collections never need its order.
   */
  defer(fill: () => Array<{ key: unknown; rec: StoredDocument }>): void {
    this.entries.clear();
    this.fill = fill;
  }

  /** False while the entries are deferred (`defer`): writes then need not compute keys. */
  get maintained(): boolean {
    return this.fill === null;
  }

  /**
   * False when an update changing only the top-level fields `changed` cannot change this
   * index's entries for a document (null: any field may have changed).
   */
  dependsOn(changed: readonly string[] | null): boolean {
    if (changed === null || this.topLevelFields === null) return true;
    if (this.generator === null && this.wildcard === null && this.geoCheck === null) return false; // an entryless index has no entries to change
    for (const field of changed) if (this.topLevelFields.has(field)) return true;
    return false;
  }

  /** The same index with another spec (collMod); entries are kept when they would not change. */
  withSpec(spec: Document): Index {
    return new Index(spec, this);
  }

  /** True when a new index with `spec` can share this index's entries. */
  sharesEntriesWith(spec: Document): boolean {
    return entrySignature(spec) === this.signature;
  }

  /**
   * True when the planner may use this index on its own (string predicates only under the
   * query's own collation: the planner checks that per predicate).
   */
  get queryable(): boolean {
    return !this.entryless && !this.hidden && this.kind === IndexKinds.btree;
  }

  /** The keys `doc` has in this index ([] when the index does not cover it). */
  keysOf(doc: Document): IndexKeys {
    if (this.wildcard !== null) {
      if (this.partialFilter && !this.partialFilter(doc)) return NO_KEYS;
      const generated = this.wildcard.keysOf(doc);
      return { keys: generated.keys, multikeyComponents: null, multikeyPaths: generated.multikeyPaths };
    }
    if (this.generator === null) {
      if (this.geoCheck !== null && (!this.partialFilter || this.partialFilter(doc))) this.geoCheck(doc);
      return NO_KEYS;
    }
    if (this.partialFilter && !this.partialFilter(doc)) return NO_KEYS;
    const generated = this.generator.keysOf(doc);
    if (this.kind === IndexKinds.hashed && generated.multikeyComponents) this.refuseHashedArray(generated.multikeyComponents);
    return generated;
  }

  /** mongod's error for an array on the path of a hashed field (16766). */
  private refuseHashedArray(components: number[][]): void {
    const hashedField = this.fields.findIndex((f) => this.keyPattern[f] === 'hashed');
    const found = components[hashedField];
    if (!found || found.length === 0) return;
    const path = this.fields[hashedField]!.split('.').slice(0, Math.min(...found) + 1).join('.');
    throw new CommandError(16766, `Error: hashed indexes do not currently support array values. Found array at path: ${path}`);
  }

  /** The `keyValue` document of `key` for a duplicate-key error. */
  keyValueDoc(key: unknown): Document {
    const out: Document = {};
    if (this.fields.length === 1) out[this.fields[0]!] = key;
    else this.fields.forEach((f, i) => (out[f] = (key as unknown[])[i]));
    return out;
  }

  /** The first of `keys` held by a record other than `self`, if this index is unique. */
  findConflict(keys: IndexKeys, self: StoredDocument | null): KeyConflict | null {
    if (!this.unique) return null;
    const compareKeys = this.compareKeys;
    for (const key of keys.keys) {
      let { leaf, index } = this.tree.seek((k) => compareKeys(k, key) >= 0);
      for (let checked = 0; checked < 2; checked++) {
        if (index >= leaf.keys.length) {
          if (!leaf.next) break;
          leaf = leaf.next;
          index = 0;
        }
        if (compareKeys(leaf.keys[index], key) !== 0) break;
        const holder = leaf.vals[index]!;
        if (holder !== self) return { key, holder };
        index++;
      }
    }
    return null;
  }

  /**
   * True when `key` orders after every key the index holds (it is empty, or its last key is
   * smaller): then no entry has a key equal to `key`, under the index collation or without.
   */
  isAfterEveryKey(key: unknown): boolean {
    if (this.fill !== null) return false; // unknown without building the entries
    const leaf = this.entries.lastLeaf();
    const n = leaf.keys.length;
    return n > 0 ? this.compareKeys(leaf.keys[n - 1], key) < 0 : this.entries.size === 0;
  }

  /** Records `rec` under each of `keys`. */
  add(keys: IndexKeys, rec: StoredDocument): void {
    if (keys.keys.length === 0 || this.fill !== null) return;
    if (keys.multikeyComponents) this.noteMultikey(keys.multikeyComponents);
    if (keys.multikeyPaths) this.noteMultikeyPaths(keys.multikeyPaths);
    for (const key of keys.keys) this.entries.insert(key, rec);
  }

  /** Moves `rec` from `oldKeys` to `newKeys` (nothing to do when they are the same keys). */
  replace(oldKeys: IndexKeys, newKeys: IndexKeys, rec: StoredDocument): void {
    const a = oldKeys.keys;
    const b = newKeys.keys;
    if (a.length === b.length && a.every((k, i) => this.compareKeys(k, b[i]) === 0 && sameType(k, b[i]))) {
      if (newKeys.multikeyComponents) this.noteMultikey(newKeys.multikeyComponents);
      if (newKeys.multikeyPaths) this.noteMultikeyPaths(newKeys.multikeyPaths);
      return;
    }
    this.remove(oldKeys, rec);
    this.add(newKeys, rec);
  }

  /** Removes `rec` from each of `keys`. */
  remove(keys: IndexKeys, rec: StoredDocument): void {
    if (this.fill !== null) return;
    for (const key of keys.keys) this.entries.delete(key, rec);
  }

  /** Replaces every entry by the sorted `entries` (an index build). */
  load(entries: Array<{ key: unknown; rec: StoredDocument }>): void {
    const compareKeys = this.compareKeys;
    entries.sort((a, b) => compareKeys(a.key, b.key) || a.rec.seq! - b.rec.seq!);
    this.entries.load(entries.map((e) => e.key), entries.map((e) => e.rec));
  }

  /** Marks the index multikey on the given path components. */
  noteMultikey(components: number[][]): void {
    this.multikey = true;
    components.forEach((list, i) => {
      for (const c of list) this.multikeyComponents[i]!.add(c);
    });
  }

  /** Records a wildcard index's array paths. */
  noteMultikeyPaths(paths: readonly string[]): void {
    for (const p of paths) this.wildcardMultikeyPaths.add(p);
  }

  /** True when a wildcard index met an array at `path` or one of its prefixes. */
  isMultikeyPath(path: string): boolean {
    if (this.wildcardMultikeyPaths.size === 0) return false;
    const parts = path.split('.');
    for (let i = 1; i <= parts.length; i++) if (this.wildcardMultikeyPaths.has(parts.slice(0, i).join('.'))) return true;
    return false;
  }

  /** True when field `i` of the key pattern has an array on its path in some document. */
  isMultikeyField(i: number): boolean {
    return this.multikeyComponents[i]!.size > 0;
  }

  /** Drops every entry. */
  clear(): void {
    this.entries.clear();
  }
}

/** True when two equal keys also hold values of the same BSON types (1 vs 1.0 are stored apart). */
function sameType(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameType(x, b[i]));
  return bsonTypeOf(a) === bsonTypeOf(b);
}
